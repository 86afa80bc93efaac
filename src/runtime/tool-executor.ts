import { boundText } from '../core/errors/bound-text.js';
import { describeThrown } from '../core/errors/describe-thrown.js';
import type { PromptEvaluationError } from '../core/errors/prompt-evaluation-error.js';
import { ToolValidationError } from '../core/errors/tool-validation-error.js';
import type { DispatchResult } from '../session/dispatch-result.js';
import { ToolInvoked, type ToolOutcome } from './events/tool-invoked.js';
import type { TokenUsage } from '../provider/token-usage.js';
import type { EvaluationScope } from './scope/evaluation-scope.js';
import type { ResourceSnapshot } from '../resources/resource-context.js';
import { parseToolArguments } from '../schema/parse-tool-arguments.js';
import { type CallFrame, outsideCallFrames } from '../session/call-frame.js';
import type { SessionSnapshot } from '../session/session-snapshot.js';
import { ToolResult } from '../tools/tool-result.js';
import { acquireSessionLock, type ReleaseLock } from './acquire-session-lock.js';
import type { Clock } from '../core/clock.js';
import type { ProviderToolCall } from '../provider/conversation.js';
import { decodeNoArguments } from '../schema/decode-no-arguments.js';
import {
  evaluationEventFields,
  MAX_FAILURE_TEXT_LENGTH,
  modelTextOf,
  resultForSession,
} from './events/event-fields.js';
import { newCallFrame, runHandler } from './run-handler.js';
import {
  type CallFailure,
  failureFor,
  stopIfOver,
  unknownToolMessage,
} from './tool-call-failure.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';

/** Options of a {@link ToolExecutor}. */
export interface ToolExecutorOptions {
  /** How many calls of read-only tools may run at once within one turn. */
  readonly readOnlyConcurrency: number;
  /** Source of time for durations. */
  readonly clock: Clock;
}

/** Options of one {@link ToolExecutor.execute} call. */
export interface ExecuteOptions {
  /** Usage to attach to the turn's events. */
  readonly usage?: TokenUsage | undefined;
}

interface Invocation {
  readonly call: ProviderToolCall;
  readonly params: unknown;
  readonly result: ToolResult;
  readonly outcome: ToolOutcome;
  readonly snapshot: CallSnapshot | undefined;
  readonly durationMs: number;
  /** Set when the call stops the evaluation; the error is thrown after the event is recorded (if any). */
  readonly stop?: PromptEvaluationError | undefined;
  /** Whether the stopped call still gets a `ToolInvoked` (an interrupted call, outcome unknown). */
  readonly recordStop?: boolean | undefined;
  /** The session lock the call holds until it is recorded (state-changing calls only). */
  readonly release?: ReleaseLock | undefined;
}

interface CallSnapshot {
  readonly session: SessionSnapshot;
  readonly resources: ResourceSnapshot;
  readonly scope: EvaluationScope;
}

/**
 * Runs the tool calls of one model turn: lookup, argument parsing and
 * validation, deadline check, snapshot, the handler in its own call scope,
 * restore on failure, one `ToolInvoked` event and one tool message per call.
 * Tool problems come back to the model as failed results; only an expired
 * deadline, a cancellation or a `PromptEvaluationError` from a handler stop the
 * evaluation. Calls run in order; consecutive calls of `readOnly` tools run
 * concurrently (up to `readOnlyConcurrency`), their results still in call order.
 * A state-changing call holds its session's write lock from its snapshot to its
 * record, so calls of concurrent evaluations sharing a session (or of nested
 * evaluations running side by side) never roll back each other's work.
 */
export class ToolExecutor {
  readonly #options: ToolExecutorOptions;

  constructor(options: ToolExecutorOptions) {
    this.#options = options;
  }

  /** Runs `calls` and returns one outcome per call, in call order. */
  async execute(
    scope: EvaluationScope,
    calls: readonly ProviderToolCall[],
    options: ExecuteOptions = {},
  ): Promise<ToolCallOutcome[]> {
    const outcomes: ToolCallOutcome[] = [];
    let index = 0;
    while (index < calls.length) {
      const batch = this.#nextBatch(scope, calls, index);
      index += batch.length;
      const invocations = await this.#invokeAll(scope, batch);
      // Read-only calls are recorded under the lock too: a value they fan out into a slice must not
      // be erased by another evaluation's rollback. Without a lock to wait for, they record as they are.
      let release = invocations[0]?.release;
      if (isReadOnly(scope, batch[0] as ProviderToolCall)) {
        const lock = lockForRecords(scope);
        release = typeof lock === 'function' || lock === undefined ? lock : await lock;
      }
      let stop: PromptEvaluationError | undefined;
      try {
        for (const invocation of invocations) {
          if (invocation.stop !== undefined) stop ??= invocation.stop;
          // Every interrupted call gets its record; a call stopped before it ran gets none.
          if (invocation.stop === undefined || invocation.recordStop === true) {
            outcomes.push(this.#record(scope, invocation, options.usage));
          }
        }
      } finally {
        release?.();
      }
      if (stop !== undefined) throw stop;
    }
    return outcomes;
  }

  /** The next call alone, or the run of consecutive read-only calls starting at `start`. */
  #nextBatch(
    scope: EvaluationScope,
    calls: readonly ProviderToolCall[],
    start: number,
  ): ProviderToolCall[] {
    const first = calls[start];
    if (first === undefined) return [];
    if (!isReadOnly(scope, first)) return [first];
    let end = start + 1;
    while (end < calls.length && isReadOnly(scope, calls[end] as ProviderToolCall)) end += 1;
    return calls.slice(start, end);
  }

  async #invokeAll(
    scope: EvaluationScope,
    batch: readonly ProviderToolCall[],
  ): Promise<Invocation[]> {
    if (batch.length === 1) return [await this.#invoke(scope, batch[0] as ProviderToolCall)];
    const results = new Array<Invocation>(batch.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < batch.length) {
        const position = next;
        next += 1;
        results[position] = await this.#invoke(scope, batch[position] as ProviderToolCall);
      }
    };
    const workers = Math.max(1, Math.min(this.#options.readOnlyConcurrency, batch.length));
    await Promise.all(Array.from({ length: workers }, worker));
    return results;
  }

  async #invoke(scope: EvaluationScope, call: ProviderToolCall): Promise<Invocation> {
    const started = this.#options.clock.now();
    const done = (
      result: ToolResult,
      extra: Partial<Omit<Invocation, 'call' | 'result' | 'durationMs'>> = {},
    ): Invocation => ({
      call,
      params: extra.params,
      result,
      outcome: extra.outcome ?? (result.success ? 'success' : 'failure'),
      snapshot: extra.snapshot,
      durationMs: Math.max(0, this.#options.clock.now() - started),
      stop: extra.stop,
      recordStop: extra.recordStop,
      release: extra.release,
    });

    const tool = scope.rendered.tool(call.name);
    if (tool?.handler === undefined)
      return done(ToolResult.error(unknownToolMessage(scope, call, tool)));

    // A call made after the deadline stops the evaluation whatever its arguments;
    // the check is repeated after parsing, which may await async validators.
    const activity = `before executing tool '${tool.name}'`;
    const expired = stopIfOver(scope, activity);
    if (expired !== undefined) return done(ToolResult.error(expired.message), { stop: expired });

    let params: unknown;
    try {
      if (tool.paramsType === undefined) decodeNoArguments(call.arguments);
      else {
        params = await parseToolArguments(tool.paramsType, call.arguments, {
          profile: scope.adapter.argumentsProfile(tool),
        });
      }
    } catch (error) {
      const message = ToolValidationError.is(error) ? error.message : describeThrown(error);
      return done(ToolResult.error(`Tool validation failed: ${message}`));
    }

    let release: ReleaseLock | undefined;
    if (!tool.readOnly) {
      try {
        const lock = acquireSessionLock(scope.session, scope.signal);
        release = typeof lock === 'function' ? lock : await lock;
      } catch (error) {
        // Aborted while waiting (reported below), or asked from a call that was already rolled back.
        const stop = stopIfOver(scope, activity);
        if (stop !== undefined) return done(ToolResult.error(stop.message), { stop });
        return done(
          ToolResult.error(`Tool '${tool.name}' could not start: ${describeThrown(error)}`),
        );
      }
    }
    const stopBefore = stopIfOver(scope, activity);
    if (stopBefore !== undefined) {
      release?.();
      return done(ToolResult.error(stopBefore.message), { stop: stopBefore });
    }

    const frame = newCallFrame(tool, call.callId, tool.readOnly ? undefined : scope.session);
    let callScope: ReturnType<EvaluationScope['openCall']> | undefined;
    let snapshot: CallSnapshot | undefined;
    let invocation: Invocation;
    try {
      callScope = scope.openCall(call.callId, scope.signal);
      snapshot = tool.readOnly ? undefined : takeSnapshot(scope, callScope.resources);
    } catch (error) {
      // Opening the call failed (a resource's own snapshot threw): the handler never runs.
      frame.end();
      release?.();
      await callScope?.dispose().catch(() => undefined);
      return done(
        ToolResult.error(`Tool '${tool.name}' could not start: ${describeThrown(error)}`),
        { params },
      );
    }
    try {
      const result = await runHandler(tool, params, callScope.context, scope.signal, frame);
      if (!result.success) rollBack(snapshot, frame, 'failed');
      invocation = done(result, { params, snapshot, release });
    } catch (error) {
      const failure: CallFailure = failureFor(scope, tool, error);
      rollBack(snapshot, frame, failure.outcome === 'unknown' ? 'was interrupted' : 'failed');
      invocation = done(failure.result, { ...failure, params, release });
    } finally {
      frame.end();
    }
    try {
      await callScope.dispose();
    } catch (error) {
      // Closing the call's scope failed (a deactivation hook or resource threw): the call fails.
      if (invocation.result.success) rollBack(snapshot, frame, 'failed');
      const message = `Tool '${tool.name}' ran, but closing its call scope failed: ${describeThrown(error)}`;
      return { ...invocation, result: ToolResult.error(message), outcome: 'failure' };
    }
    return invocation;
  }

  #record(
    scope: EvaluationScope,
    invocation: Invocation,
    usage: TokenUsage | undefined,
  ): ToolCallOutcome {
    const { call } = invocation;
    // The model reads the original result; the session keeps a copy where a copy is faithful.
    let message = modelTextOf(invocation.result);
    let result = boundedFailure(resultForSession(invocation.result));
    const init = {
      ...evaluationEventFields(scope),
      name: call.name,
      callId: call.callId,
      params: invocation.params,
      rawArguments: call.arguments,
      result,
      renderedMessage: message,
      native: false,
      outcome: invocation.outcome,
      durationMs: invocation.durationMs,
      usage,
    };
    let event: ToolInvoked;
    let dispatched: DispatchResult<ToolInvoked>;
    // A call that did not succeed is recorded even from inside an enclosing call that was rolled
    // back (a nested evaluation's interrupted call): the record is history, not a change.
    const dispatch = (recorded: ToolInvoked): DispatchResult<ToolInvoked> =>
      invocation.outcome === 'success'
        ? scope.session.dispatch(recorded)
        : outsideCallFrames(() => scope.session.dispatch(recorded));
    try {
      event = new ToolInvoked(init);
      dispatched = dispatch(event);
    } catch (error) {
      // The session cannot hold the value or the arguments (e.g. a Proxy that refuses to be
      // frozen): record the call without them, saying so, so the call still has its one record.
      result = new ToolResult({
        message: result.message,
        value: null,
        success: result.success,
        excludeValueFromContext: result.excludeValueFromContext,
      });
      event = new ToolInvoked({
        ...init,
        params: undefined,
        rawArguments:
          typeof call.arguments === 'string'
            ? call.arguments
            : `[arguments not recorded: ${describeThrown(error)}]`,
        result,
      });
      dispatched = dispatch(event);
    }
    if (!dispatched.ok) {
      if (result.success) restoreSnapshot(invocation.snapshot);
      const failures = dispatched.errors;
      const reasons = failures
        .slice(0, 5)
        .map((failure) => describeThrown(failure.error))
        .join('; ');
      const more = failures.length > 5 ? `; and ${failures.length - 5} more` : '';
      result = new ToolResult({
        message: `Reducer errors prevented applying tool result: ${reasons}${more}`,
        value: result.value,
        success: result.success,
        excludeValueFromContext: result.excludeValueFromContext,
      });
      message = modelTextOf(result);
    }
    return { call, result, message, event };
  }
}

/** The session lock for recording a read-only batch; none when waiting for it was cut short. */
function lockForRecords(
  scope: EvaluationScope,
): ReleaseLock | Promise<ReleaseLock | undefined> | undefined {
  try {
    const lock = acquireSessionLock(scope.session, scope.signal);
    return typeof lock === 'function' ? lock : lock.catch(() => undefined);
  } catch {
    return undefined;
  }
}

function isReadOnly(scope: EvaluationScope, call: ProviderToolCall): boolean {
  return scope.rendered.tool(call.name)?.readOnly === true;
}

/** A failed result with its message cut to the bound the model reads. */
function boundedFailure(result: ToolResult): ToolResult {
  if (result.success || result.message.length <= MAX_FAILURE_TEXT_LENGTH) return result;
  return new ToolResult({
    message: boundText(result.message, MAX_FAILURE_TEXT_LENGTH),
    value: result.value,
    success: false,
    excludeValueFromContext: result.excludeValueFromContext,
  });
}

function takeSnapshot(
  scope: EvaluationScope,
  resources: EvaluationScope['resources'],
): CallSnapshot {
  return { session: scope.session.snapshot(), resources: resources.snapshot(), scope };
}

function restoreSnapshot(snapshot: CallSnapshot | undefined): void {
  if (snapshot === undefined) return;
  snapshot.scope.session.restore(snapshot.session);
  snapshot.scope.resources.restore(snapshot.resources);
}

/** Restores the call's snapshot, then refuses whatever its handler still tries to write. */
function rollBack(snapshot: CallSnapshot | undefined, frame: CallFrame, how: string): void {
  // An interrupted read-only call has nothing to restore but must not write later either.
  if (snapshot === undefined && how !== 'was interrupted') return;
  frame.close(how);
  restoreSnapshot(snapshot);
}
