/**
 * The attribute, span event and metric names affordance's telemetry uses: the
 * OpenTelemetry semantic conventions for generative AI (`gen_ai.*`,
 * `error.type`) and affordance's own (`affordance.*`) where the conventions
 * have no name. @internal
 */
export const GenAi = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheWriteTokens: 'gen_ai.usage.cache_creation.input_tokens',
  reasoningTokens: 'gen_ai.usage.reasoning.output_tokens',
  agentName: 'gen_ai.agent.name',
  conversationId: 'gen_ai.conversation.id',
  outputType: 'gen_ai.output.type',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  tokenType: 'gen_ai.token.type',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  errorType: 'error.type',
} as const;

/** affordance's own attributes. @internal */
export const Affordance = {
  evaluationId: 'affordance.evaluation.id',
  sessionId: 'affordance.session.id',
  streamed: 'affordance.evaluation.streamed',
  resumed: 'affordance.evaluation.resumed',
  status: 'affordance.evaluation.status',
  turns: 'affordance.evaluation.turns',
  turn: 'affordance.turn',
  toolCalls: 'affordance.response.tool_calls',
  outcome: 'affordance.tool.outcome',
  errorPhase: 'affordance.error.phase',
  interventionAction: 'affordance.loop.action',
  guardrailStage: 'affordance.guardrail.stage',
  guardrailPolicy: 'affordance.guardrail.policy',
  guardrailVerdict: 'affordance.guardrail.verdict',
  guardrailAttempt: 'affordance.guardrail.attempt',
  interventionReason: 'affordance.loop.reason',
  interventionTool: 'affordance.loop.tool',
  approved: 'affordance.approval.approved',
  reason: 'affordance.approval.reason',
  deniedBy: 'affordance.denied_by',
  denialMessage: 'affordance.denial.message',
  pendingCalls: 'affordance.pending.calls',
  pendingTools: 'affordance.pending.tools',
  retryAttempt: 'affordance.retry.attempt',
  retryDelayMs: 'affordance.retry.delay_ms',
  retryReason: 'affordance.retry.reason',
  fallbackMember: 'affordance.fallback.member',
  fallbackKind: 'affordance.fallback.kind',
  fallbackState: 'affordance.fallback.circuit_state',
  fallbackServedBy: 'affordance.fallback.served_by',
  fallbackCount: 'affordance.fallback.dropped_items',
  fallbackItemTypes: 'affordance.fallback.dropped_item_types',
} as const;

/** Span event names. @internal */
export const Events = {
  resumed: 'affordance.evaluation.resumed',
  paused: 'affordance.evaluation.paused',
  approvalDecided: 'affordance.approval.decided',
  approvalRequested: 'affordance.approval.requested',
  denied: 'affordance.tool.denied',
  rolledBack: 'affordance.tool.rolled_back',
  retry: 'affordance.provider.retry',
  fallback: 'affordance.provider.fallback',
  circuit: 'affordance.provider.circuit',
  itemsDropped: 'affordance.provider.items_dropped',
  intervention: 'affordance.loop.intervention',
  guardrail: 'affordance.guardrail',
} as const;

/** Metric names of the conventions. @internal */
export const Metrics = {
  tokenUsage: 'gen_ai.client.token.usage',
  operationDuration: 'gen_ai.client.operation.duration',
  toolDuration: 'gen_ai.execute_tool.duration',
} as const;

/** The name affordance's tracer and meter are got by. @internal */
export const INSTRUMENTATION_NAME = 'affordance';
