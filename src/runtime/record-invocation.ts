import { boundText } from '../core/errors/bound-text.js';
import { describeThrown } from '../core/errors/describe-thrown.js';
import type { TokenUsage } from '../provider/token-usage.js';
import type { DispatchFailure } from '../session/dispatch-failure.js';
import { outsideCallFrames } from '../session/call-frame.js';
import { ToolResult } from '../tools/tool-result.js';
import type { Invocation } from './call-ending.js';
import {
  MAX_FAILURE_TEXT_LENGTH,
  modelTextOf,
  resultForSession,
  toolInvokedInit,
} from './events/event-fields.js';
import { rememberThrown, ToolInvoked, type ToolInvokedInit } from './events/tool-invoked.js';
import { restoreSnapshot } from './opened-call.js';
import type { EvaluationScope } from './scope/evaluation-scope.js';
import type { ToolCallObserver } from './telemetry/tool-call-observer.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';

/**
 * Records the call's `ToolInvoked` into the scope's session and returns what
 * the model reads back; a success its reducers refused is undone and fails. @internal
 */
export function recordInvocation(
  scope: EvaluationScope,
  invocation: Invocation,
  usage: TokenUsage | undefined,
  observer: ToolCallObserver | undefined,
): ToolCallOutcome {
  const { call } = invocation;
  // The session keeps a copy where a copy is faithful (taken as the handler returned the value,
  // before rendering runs any of its code); the model reads the original, or that copy where the
  // two render alike (see `modelTextOf`).
  const sessionResult = boundedFailure(resultForSession(invocation.result));
  let message = modelTextOf(invocation.result, sessionResult);
  const recorded = dispatchRecord(
    scope,
    invocation,
    toolInvokedInit(scope, {
      name: call.name,
      callId: call.callId,
      params: invocation.params,
      rawArguments: call.arguments,
      result: sessionResult,
      renderedMessage: message,
      native: false,
      outcome: invocation.outcome,
      durationMs: invocation.durationMs,
      usage,
      attempts: invocation.attempts,
    }),
  );
  const { event, failures } = recorded;
  if (invocation.thrown !== undefined) rememberThrown(event, invocation.thrown);
  let { result } = recorded;
  if (failures.length > 0) {
    if (result.success) restoreSnapshot(invocation.snapshot);
    result = withReducerErrors(result, failures);
    message = modelTextOf(result);
  }
  observer?.ended({
    outcome: event.outcome,
    event,
    // A failed call was undone from its snapshot (see tool-invocation.ts); so was a success its reducers refused.
    rolledBack: invocation.snapshot !== undefined && (!result.success || failures.length > 0),
    error: undefined,
    reason: undefined,
    thrown: invocation.thrown,
  });
  return { call, result, message, event };
}

/** A `ToolInvoked` as recorded, with the result it holds and what failed while recording it. */
interface DispatchedRecord {
  readonly event: ToolInvoked;
  readonly result: ToolResult;
  readonly failures: readonly DispatchFailure[];
}

/**
 * Dispatches the call's `ToolInvoked` (built from `init`, every field listed:
 * this runs for every call); when the session cannot hold its value or
 * arguments, dispatches it again without them.
 */
function dispatchRecord(
  scope: EvaluationScope,
  invocation: Invocation,
  init: ToolInvokedInit,
): DispatchedRecord {
  try {
    const event = new ToolInvoked(init);
    return { event, result: init.result, failures: dispatchEvent(scope, invocation, event) };
  } catch (error) {
    // The session cannot hold the value or the arguments (e.g. a Proxy that refuses to be
    // frozen): record the call without them, saying so, so the call still has its one record.
    const result = new ToolResult({
      message: init.result.message,
      value: null,
      success: init.result.success,
      excludeValueFromContext: init.result.excludeValueFromContext,
    });
    const { arguments: args } = invocation.call;
    const event = new ToolInvoked(
      Object.assign({}, init, {
        params: undefined,
        rawArguments:
          typeof args === 'string' ? args : `[arguments not recorded: ${describeThrown(error)}]`,
        result,
      }),
    );
    return { event, result, failures: dispatchEvent(scope, invocation, event) };
  }
}

/**
 * Records `event` in the scope's session (`Session.record`: a dispatch that
 * answers only what failed). A call that did not succeed is
 * recorded even from inside an enclosing call that was rolled back (a nested
 * evaluation's interrupted call): the record is history, not a change.
 */
function dispatchEvent(
  scope: EvaluationScope,
  invocation: Invocation,
  event: ToolInvoked,
): readonly DispatchFailure[] {
  if (invocation.outcome === 'success') return scope.session.record(event);
  return outsideCallFrames(() => scope.session.record(event));
}

/** `result` with a message naming the reducers that failed on its record. */
function withReducerErrors(result: ToolResult, failures: readonly DispatchFailure[]): ToolResult {
  const reasons = failures
    .slice(0, 5)
    .map((failure) => describeThrown(failure.error))
    .join('; ');
  const more = failures.length > 5 ? `; and ${failures.length - 5} more` : '';
  return new ToolResult({
    message: `Reducer errors prevented applying tool result: ${reasons}${more}`,
    value: result.value,
    success: result.success,
    excludeValueFromContext: result.excludeValueFromContext,
  });
}

/** A failed result with its message cut to the bound the model reads. */
function boundedFailure(result: ToolResult): ToolResult {
  if (result.success || result.message.length <= MAX_FAILURE_TEXT_LENGTH) return result;
  return new ToolResult({
    message: boundText(result.message, MAX_FAILURE_TEXT_LENGTH),
    value: result.value,
    success: false,
    excludeValueFromContext: result.excludeValueFromContext,
    parts: result.parts,
  });
}
