import { DeadlineExceededError } from '../core/errors/deadline-exceeded-error.js';
import { describeThrown } from '../core/errors/describe-thrown.js';
import { PromptEvaluationError } from '../core/errors/prompt-evaluation-error.js';
import { quotedName } from '../core/errors/quoted-name.js';
import { ToolValidationError } from '../core/errors/tool-validation-error.js';
import type { ToolOutcome } from './events/tool-invoked.js';
import type { EvaluationScope } from './scope/evaluation-scope.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { ToolResult } from '../tools/tool-result.js';
import type { ProviderToolCall } from '../provider/conversation.js';
import { InterruptedCall } from './run-handler.js';
import type { CallLimit } from './call-limit.js';

/** How a failed call ends: its result, its outcome, and whether it stops the evaluation. @internal */
export interface CallFailure {
  readonly result: ToolResult;
  readonly outcome?: ToolOutcome;
  /** Set when the call stops the evaluation. */
  readonly stop?: PromptEvaluationError;
  /** Whether the stopped call still gets a `ToolInvoked` (an interrupted call, outcome unknown). */
  readonly recordStop?: boolean;
}

/** "Unknown tool 'x'. Available tools: a, b." or why a provider-executed tool cannot be called. @internal */
export function unknownToolMessage(
  scope: EvaluationScope,
  call: ProviderToolCall,
  tool: ToolDefinition | undefined,
): string {
  const name = quotedName(call.name);
  if (tool !== undefined) {
    return `Tool ${name} is executed by the provider and cannot be called as a function.`;
  }
  const available = scope.rendered.tools.filter((t) => t.handler !== undefined).map((t) => t.name);
  return `Unknown tool ${name}. Available tools: ${available.length === 0 ? 'none' : available.join(', ')}.`;
}

/**
 * The failure for whatever a handler threw: an interruption (deadline or
 * cancellation) stops the evaluation with outcome `unknown`; a
 * `PromptEvaluationError` stops it; a `ToolValidationError` and anything
 * else (any value at all) become a failed result with a bounded message. @internal
 */
export function failureFor(
  scope: EvaluationScope,
  tool: ToolDefinition,
  error: unknown,
  limit?: CallLimit,
): CallFailure {
  const prompt = scope.prompt.label;
  // The call's own limit passed (whatever the handler threw as its signal aborted): the evaluation goes on.
  if (limit?.timedOut === true) {
    return {
      result: ToolResult.error(
        `Tool '${tool.name}' timed out after ${limit.timeoutMs} ms and was stopped; ` +
          'its changes were rolled back. You may call it again, perhaps with a smaller request.',
      ),
      outcome: 'timeout',
    };
  }
  if (isInterruption(error) || DeadlineExceededError.is(error)) {
    const why =
      scope.deadline?.expired === true || DeadlineExceededError.is(error)
        ? 'the deadline passed'
        : 'the evaluation was cancelled';
    const stop = new PromptEvaluationError(
      `Tool '${tool.name}' was interrupted because ${why}; its outcome is unknown and its state changes were rolled back.`,
      {
        phase: 'tool',
        prompt,
        cause: isInterruption(error) ? scope.cancellation.reason : error,
        providerPayload:
          scope.deadline === undefined
            ? undefined
            : { deadlineExpiresAt: scope.deadline.expiresAt.toISOString() },
      },
    );
    return {
      result: ToolResult.error(`Interrupted: ${why}; outcome unknown.`),
      outcome: 'unknown',
      stop,
      recordStop: true,
    };
  }
  if (PromptEvaluationError.is(error)) {
    return { result: ToolResult.error(describeThrown(error)), stop: error };
  }
  if (ToolValidationError.is(error)) {
    return { result: ToolResult.error(`Tool validation failed: ${describeThrown(error)}`) };
  }
  return {
    result: ToolResult.error(`Tool '${tool.name}' execution failed: ${describeThrown(error)}`),
  };
}

function isInterruption(error: unknown): boolean {
  try {
    return error instanceof InterruptedCall;
  } catch {
    // A Proxy whose getPrototypeOf trap throws is not one of ours.
    return false;
  }
}
