import type { PromptEvaluationError } from '../core/errors/prompt-evaluation-error.js';
import type { TokenUsage } from '../provider/token-usage.js';
import type { EvaluationScope } from './scope/evaluation-scope.js';
import { callsRecorded } from '../session/call-frame.js';
import { acquireSessionLock, type ReleaseLock } from './acquire-session-lock.js';
import type { Clock } from '../core/clock.js';
import type { ProviderToolCall } from '../provider/conversation.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';
import type { HeldCall, Invocation } from './call-ending.js';
import { invokeToolCall } from './tool-invocation.js';
import { recordInvocation } from './record-invocation.js';
import type { ApprovalDecision } from './approval/approval-decision.js';
import type { PendingToolCall } from './approval/pending-tool-call.js';
import type { EvaluationCheckpoint } from './evaluation-checkpoint.js';
import type { EvaluationObserver } from './telemetry/evaluation-observer.js';
import type { ToolCallObserver } from './telemetry/tool-call-observer.js';
import { endHeldCalls, endStoppedCall } from './telemetry/end-tool-call.js';

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
  /** Called with each outcome as soon as its `ToolInvoked` is recorded, in call order. */
  readonly onOutcome?: ((outcome: ToolCallOutcome) => void) | undefined;
  /** A person's decisions for calls that were pending, by call id. */
  readonly decisions?: ReadonlyMap<string, ApprovalDecision> | undefined;
  /** Follows each call for tracing and metrics, when the runtime has telemetry. */
  readonly observer?: EvaluationObserver | undefined;
  /** Told before each batch of calls starts and after its outcomes are recorded (each awaited). */
  readonly checkpoint?: EvaluationCheckpoint | undefined;
  /**
   * How many more calls may start before someone reads what the earlier ones
   * sent (a streamed evaluation: `PartSink.room`): a number of at least 1, or
   * a promise of one, awaited before each batch, which it also caps. Asked
   * with `first` for the turn's first batch (the stream's reader must have
   * read everything before it).
   */
  readonly room?: ((first: boolean) => number | Promise<number>) | undefined;
}

/** Where a turn's calls stopped to wait for a person. */
export interface PausedCalls {
  /** The calls waiting for approval, in call order (the first of `remaining` is one). */
  readonly pending: readonly PendingToolCall[];
  /** The calls not run yet, from the first pending one, in call order. */
  readonly remaining: readonly ProviderToolCall[];
  /** Decisions already given for calls in `remaining`. */
  readonly decided: readonly ApprovalDecision[];
}

/** What {@link ToolExecutor.execute} returns. */
export interface ExecutedCalls {
  /** One outcome per call that ran (or was refused), in call order. */
  readonly outcomes: ToolCallOutcome[];
  /** Set when a call needs approval: the calls from it on did not run. */
  readonly paused: PausedCalls | undefined;
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

  /**
   * Runs `calls` and returns one outcome per call, in call order, until a call
   * needs a person's approval: the calls before it are recorded, it and the
   * rest wait (`paused`), and the rest are probed for approval too. A lone
   * state-changing call whose steps all finish at once is recorded before this
   * returns (a promise already settled: no asynchronous step at all).
   */
  execute(
    scope: EvaluationScope,
    calls: readonly ProviderToolCall[],
    options: ExecuteOptions = {},
  ): Promise<ExecutedCalls> {
    if (
      calls.length !== 1 ||
      options.observer !== undefined ||
      options.checkpoint !== undefined ||
      (options.room !== undefined && typeof options.room(true) !== 'number')
    ) {
      return this.#execute(scope, calls, options, undefined);
    }
    try {
      const call = calls[0] as ProviderToolCall;
      const ended = this.#invokeOne(scope, call, options.decisions);
      if (ended instanceof Promise || ended.kind === 'pending' || ended.kind === 'clear') {
        return this.#execute(scope, calls, options, ended);
      }
      if (isReadOnly(scope, call)) return this.#execute(scope, calls, options, ended);
      // A lone state-changing call that ended at once holds its own lock: recorded now, no async step.
      const outcomes: ToolCallOutcome[] = [];
      const stop = this.#recordAll(scope, [ended], outcomes, options, undefined, ended.release);
      return stop === undefined ? Promise.resolve(allRecorded(outcomes)) : Promise.reject(stop);
    } catch (error) {
      // What a subscriber of the outcomes threw rejects, as it would from an async function.
      return Promise.resolve().then(() => {
        throw error;
      });
    }
  }

  /** {@link ToolExecutor.execute}, the first call's end given when it was already invoked. */
  async #execute(
    scope: EvaluationScope,
    calls: readonly ProviderToolCall[],
    options: ExecuteOptions,
    invoked: Invocation | HeldCall | Promise<Invocation | HeldCall> | undefined,
  ): Promise<ExecutedCalls> {
    let first = invoked;
    const outcomes: ToolCallOutcome[] = [];
    const { observer, checkpoint } = options;
    let index = 0;
    while (index < calls.length) {
      const start = index;
      // A streamed evaluation starts no call while its reader's buffer is full (docs/guide/guarantees.md).
      const room = options.room?.(start === 0);
      const most = room === undefined ? calls.length : typeof room === 'number' ? room : await room;
      const batch = this.#nextBatch(scope, calls, index, most);
      index += batch.length;
      // The observers of the batch's calls, by position; filled as each call starts.
      const observed =
        observer === undefined ? undefined : new Array<ToolCallObserver>(batch.length);
      if (checkpoint?.callsStarting !== undefined) await checkpoint.callsStarting(batch);
      const recordedBefore = outcomes.length;
      let held: (Invocation | HeldCall)[];
      if (batch.length === 1 && observer === undefined) {
        // A call whose steps all finish at once ends without a promise: nothing to await.
        const one =
          first ?? this.#invokeOne(scope, batch[0] as ProviderToolCall, options.decisions);
        first = undefined;
        held = [one instanceof Promise ? await one : one];
      } else held = await this.#invokeAll(scope, batch, options.decisions, observed, observer);
      const firstHeld = firstPending(held);
      // Read-only calls after a pending one in the same batch are run again on resume, unrecorded now.
      const invocations = (firstHeld < 0 ? held : held.slice(0, firstHeld)) as Invocation[];
      // Read-only calls are recorded under the lock too: a value they fan out into a slice must not
      // be erased by another evaluation's rollback. Without a lock to wait for, they record as they are.
      let release = invocations[0]?.release;
      if (isReadOnly(scope, batch[0] as ProviderToolCall)) {
        const lock = lockForRecords(scope);
        release = typeof lock === 'function' || lock === undefined ? lock : await lock;
      }
      const stop = this.#recordAll(scope, invocations, outcomes, options, observed, release);
      if (observed !== undefined && firstHeld >= 0) endHeldCalls(observed, held, firstHeld);
      if (checkpoint?.callsRecorded !== undefined && outcomes.length > recordedBefore) {
        await checkpoint.callsRecorded(outcomes.slice(recordedBefore));
      }
      if (stop !== undefined) throw stop;
      if (firstHeld >= 0) {
        const first = held[firstHeld] as Extract<HeldCall, { kind: 'pending' }>;
        const remaining = calls.slice(start + firstHeld);
        const paused = await this.#pause(scope, first.pending, remaining, options.decisions);
        return { outcomes, paused };
      }
    }
    return allRecorded(outcomes);
  }

  /** The pause at `remaining[0]` (`first`): it and every later undecided call that needs approval are pending. */
  async #pause(
    scope: EvaluationScope,
    first: PendingToolCall,
    remaining: readonly ProviderToolCall[],
    decisions: ReadonlyMap<string, ApprovalDecision> | undefined,
  ): Promise<PausedCalls> {
    const pending: PendingToolCall[] = [first];
    const decided: ApprovalDecision[] = [];
    for (const call of remaining.slice(1)) {
      const decision = decisions?.get(call.callId);
      if (decision !== undefined) {
        decided.push(decision);
        continue;
      }
      const held = await invokeToolCall(scope, call, this.#options.clock, { probe: true });
      if (held.kind === 'pending') pending.push(held.pending);
    }
    return { pending, remaining, decided };
  }

  /** The next call alone, or the run of consecutive read-only calls starting at `start` (at most `most`). */
  #nextBatch(
    scope: EvaluationScope,
    calls: readonly ProviderToolCall[],
    start: number,
    most: number,
  ): ProviderToolCall[] {
    const first = calls[start];
    if (first === undefined) return [];
    if (!isBatchable(scope, first)) return [first];
    const last = Math.min(calls.length, start + Math.max(1, most));
    let end = start + 1;
    while (end < last && isBatchable(scope, calls[end] as ProviderToolCall)) end += 1;
    return calls.slice(start, end);
  }

  /** One call, untraced: no closure, no array, no promise unless a step of the call waits. */
  #invokeOne(
    scope: EvaluationScope,
    call: ProviderToolCall,
    decisions: ReadonlyMap<string, ApprovalDecision> | undefined,
  ): Invocation | HeldCall | Promise<Invocation | HeldCall> {
    const clock = this.#options.clock;
    return decisions === undefined
      ? invokeToolCall(scope, call, clock)
      : invokeToolCall(scope, call, clock, { decision: decisions.get(call.callId) });
  }

  async #invokeAll(
    scope: EvaluationScope,
    batch: readonly ProviderToolCall[],
    decisions: ReadonlyMap<string, ApprovalDecision> | undefined,
    observed: ToolCallObserver[] | undefined,
    observer: EvaluationObserver | undefined,
  ): Promise<(Invocation | HeldCall)[]> {
    type Held = Invocation | HeldCall | Promise<Invocation | HeldCall>;
    const plain = (call: ProviderToolCall): Held => this.#invokeOne(scope, call, decisions);
    const invoke =
      observer === undefined
        ? plain
        : (call: ProviderToolCall, position: number): Held => {
            const callObserver = observer.startToolCall(call, decisions?.get(call.callId));
            (observed as ToolCallObserver[])[position] = callObserver;
            return callObserver.run(() => plain(call));
          };
    if (batch.length === 1) return [await invoke(batch[0] as ProviderToolCall, 0)];
    const results = new Array<Invocation | HeldCall>(batch.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < batch.length) {
        const position = next;
        next += 1;
        results[position] = await invoke(batch[position] as ProviderToolCall, position);
      }
    };
    const workers = Math.max(1, Math.min(this.#options.readOnlyConcurrency, batch.length));
    await Promise.all(Array.from({ length: workers }, worker));
    return results;
  }

  /**
   * Records the batch's calls in call order (adding their outcomes to
   * `outcomes`), then releases the lock; returns the error of the first call
   * that stops the evaluation, if one does.
   */
  #recordAll(
    scope: EvaluationScope,
    invocations: readonly Invocation[],
    outcomes: ToolCallOutcome[],
    options: ExecuteOptions,
    observed: readonly ToolCallObserver[] | undefined,
    release: ReleaseLock | undefined,
  ): PromptEvaluationError | undefined {
    let stop: PromptEvaluationError | undefined;
    try {
      for (let at = 0; at < invocations.length; at += 1) {
        const invocation = invocations[at] as Invocation;
        if (invocation.kind === 'stopped') stop ??= invocation.error;
        // Every interrupted call gets its record; a call stopped before it ran gets none.
        if (invocation.kind === 'completed' || invocation.recorded) {
          const outcome = recordInvocation(scope, invocation, options.usage, observed?.[at]);
          outcomes.push(outcome);
          options.onOutcome?.(outcome);
        } else if (observed !== undefined) endStoppedCall(observed[at], invocation);
      }
    } finally {
      release?.();
    }
    return stop;
  }
}

/** The calls of a turn that all ran: call-frame tracking may stop (see `callsRecorded`). */
function allRecorded(outcomes: ToolCallOutcome[]): ExecutedCalls {
  callsRecorded();
  return { outcomes, paused: undefined };
}

/** Where the first call waiting for approval is among `held`; -1 when none is. */
function firstPending(held: readonly (Invocation | HeldCall)[]): number {
  for (let index = 0; index < held.length; index += 1) {
    if (held[index]?.kind === 'pending') return index;
  }
  return -1;
}

/** The session lock for recording a read-only batch; none when waiting for it was cut short. */
function lockForRecords(
  scope: EvaluationScope,
): ReleaseLock | Promise<ReleaseLock | undefined> | undefined {
  try {
    const lock = acquireSessionLock(scope.session, scope.cancellation);
    return typeof lock === 'function' ? lock : lock.catch(() => undefined);
  } catch {
    return undefined;
  }
}

/**
 * Whether the call may run alongside its neighbours: a read-only tool without
 * an approval rule (a call that may wait for a person runs alone, so no call
 * after it has run when the turn pauses).
 */
function isBatchable(scope: EvaluationScope, call: ProviderToolCall): boolean {
  const tool = scope.rendered.tool(call.name);
  return tool?.readOnly === true && tool.approval === undefined;
}

function isReadOnly(scope: EvaluationScope, call: ProviderToolCall): boolean {
  return scope.rendered.tool(call.name)?.readOnly === true;
}
