import { randomId } from '../core/random-id.js';
import type { Container } from 'inversify';

import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { ProviderTurn } from '../provider/conversation.js';
import { ProviderAdapter } from '../provider/provider-adapter.js';
import { providerCapabilities } from '../provider/provider-capabilities.js';
import { boundAdapter } from './bound-adapter.js';
import type { ApprovalDecision } from './approval/approval-decision.js';
import type { PendingToolCall } from './approval/pending-tool-call.js';
import type { CallToolOptions, ToolCallRequest } from './call-tool-request.js';
import type { EvaluationScope } from './scope/evaluation-scope.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';
import type { ToolProgress } from './tool-context-members.js';
import type { ToolExecutor } from './tool-executor.js';
import { DirectCallObserver } from './telemetry/direct-call-observer.js';
import type { RuntimeTelemetry } from './telemetry/runtime-telemetry.js';

const NO_APPROVER =
  'This call needs approval, and it was made outside an evaluation by a caller that cannot give it.';

/**
 * Runs `request` as the only call of a turn in `scope`, deciding an approval
 * with `options.approve`, followed by `telemetry` when the runtime has it.
 */
export async function runToolCall(
  scope: EvaluationScope,
  executor: ToolExecutor,
  request: ToolCallRequest,
  options: CallToolOptions,
  telemetry: RuntimeTelemetry | undefined,
): Promise<ToolCallOutcome> {
  const started = telemetry?.startDirectCall?.({
    evaluationId: scope.evaluationId,
    prompt: scope.requestPrompt,
    sessionId: scope.session.sessionId,
  });
  // One observer across both runs of a call that waits for approval: one call, one span.
  const observer = started === undefined ? undefined : new DirectCallObserver(started);
  const call = {
    callId: request.callId ?? randomId(),
    name: request.name,
    arguments: request.arguments ?? {},
  };
  const first = await executor.execute(scope, [call], { observer });
  if (first.paused === undefined) return first.outcomes[0] as ToolCallOutcome;
  const pending = first.paused.pending[0] as PendingToolCall;
  let decision: ApprovalDecision;
  try {
    decision = await decide(pending, options.approve);
  } catch (error) {
    observer?.abandon(error);
    throw error;
  }
  observer?.decide(decision);
  const decided = await executor.execute(scope, [call], {
    decisions: new Map([[call.callId, decision]]),
    observer,
  });
  return decided.outcomes[0] as ToolCallOutcome;
}

async function decide(
  pending: PendingToolCall,
  approve: CallToolOptions['approve'],
): Promise<ApprovalDecision> {
  if (approve === undefined)
    return { callId: pending.callId, approved: false, message: NO_APPROVER };
  const answer = await approve(pending);
  if (typeof answer === 'boolean') return { callId: pending.callId, approved: answer };
  return { callId: pending.callId, approved: answer.approved, message: answer.message };
}

/** The adapter of a `callTool` given none: the bound one, else a {@link NoModelAdapter}. @internal */
export async function adapterForCall(
  container: Container,
  label: string,
): Promise<ProviderAdapter> {
  return container.isBound(ProviderAdapter)
    ? await boundAdapter(container, label)
    : new NoModelAdapter();
}

/** The scope's progress listener for `callTool`'s `onProgress`. @internal */
export function onProgressOf(
  direct: Pick<CallToolOptions, 'onProgress'> | undefined,
): ((callId: string, progress: ToolProgress) => void) | undefined {
  const listener = direct?.onProgress;
  return listener === undefined
    ? undefined
    : (_callId, progress) => {
        listener(progress);
      };
}

/**
 * The adapter of a tool call made outside the model loop when none is given or
 * bound: it offers every tool with its standard schema and refuses a nested
 * evaluation (`context.evaluate`), which needs a model. @internal
 */
export class NoModelAdapter extends ProviderAdapter {
  readonly name = 'none';
  readonly capabilities = providerCapabilities();

  request(): Promise<ProviderTurn> {
    return Promise.reject(
      new ConfigurationError({
        subject: 'A nested evaluation (context.evaluate) in a tool called with runtime.callTool',
        problem:
          'has no model to ask: the call was made outside an evaluation and no adapter was given or bound.',
        fix: 'Pass one: runtime.callTool(prompt, request, { adapter }), or bind one to ProviderAdapter in the container.',
      }),
    );
  }
}
