import type { Clock } from '../core/clock.js';
import type { PromptEvaluationError } from '../core/errors/prompt-evaluation-error.js';
import type { ProviderToolCall } from '../provider/conversation.js';
import type { ResourceSnapshot } from '../resources/resource-context.js';
import type { SessionStates } from '../session/session.js';
import { ToolResult } from '../tools/tool-result.js';
import type { ApprovalDecision } from './approval/approval-decision.js';
import type { PendingToolCall } from './approval/pending-tool-call.js';
import type { ToolOutcome } from './events/tool-invoked.js';
import type { ReleaseLock } from './acquire-session-lock.js';
import type { EvaluationScope } from './scope/evaluation-scope.js';
import type { CallFailure } from './tool-call-failure.js';
import type { ToolAttempt } from '../tools/tool-retry.js';

/** What a state-changing call's failure restores. @internal */
export interface CallSnapshot {
  readonly session: SessionStates;
  readonly resources: ResourceSnapshot;
  readonly scope: EvaluationScope;
}

/** What every invocation carries to its record. @internal */
export interface InvocationFields {
  readonly call: ProviderToolCall;
  readonly params: unknown;
  readonly result: ToolResult;
  readonly outcome: ToolOutcome;
  readonly snapshot: CallSnapshot | undefined;
  readonly durationMs: number;
  /** The session lock the call holds until it is recorded (state-changing calls only). */
  readonly release: ReleaseLock | undefined;
  /** Each attempt of a call of a tool with `retry`; `undefined` for other tools. */
  readonly attempts?: readonly ToolAttempt[] | undefined;
  /** What the handler threw, for a call that failed so. */
  readonly thrown?: unknown;
}

/** A call that ran, or was turned down with a failed result for the model; the evaluation goes on. @internal */
export interface CompletedInvocation extends InvocationFields {
  readonly kind: 'completed';
}

/** A call that stops the evaluation: `error` is thrown after the call is recorded (if it is). @internal */
export interface StoppedInvocation extends InvocationFields {
  readonly kind: 'stopped';
  readonly error: PromptEvaluationError;
  /** Whether the stopped call still gets a `ToolInvoked` (an interrupted call, outcome unknown). */
  readonly recorded: boolean;
}

/** How one tool call ended. @internal */
export type Invocation = CompletedInvocation | StoppedInvocation;

/**
 * A call that did not run: it waits for a person's approval (`pending`), or,
 * when only probed, would run or be refused when its turn comes (`clear`).
 * Nothing of it is recorded; its state and scope are as before it. @internal
 */
export type HeldCall =
  { readonly kind: 'pending'; readonly pending: PendingToolCall } | { readonly kind: 'clear' };

/** A probed call that would run (or be refused) when its turn comes. @internal */
export const CLEAR_CALL: HeldCall = Object.freeze({ kind: 'clear' });

/** How `invokeToolCall` treats a call. @internal */
export interface InvokeOptions {
  /** The person's decision for this call, when it was pending. */
  readonly decision?: ApprovalDecision | undefined;
  /** Only find out whether the call needs approval; never run it. */
  readonly probe?: boolean | undefined;
}

/** What an invocation may carry besides its result, depending on how far the call got. @internal */
export interface ReachedFields {
  readonly params?: unknown;
  readonly snapshot?: CallSnapshot | undefined;
  readonly release?: ReleaseLock | undefined;
  readonly attempts?: readonly ToolAttempt[] | undefined;
  readonly thrown?: unknown;
}

/** Builds the invocations one call can end with, timed from the call's start. @internal */
export class CallEnding {
  readonly #call: ProviderToolCall;
  readonly #clock: Clock;
  readonly #started: number;

  constructor(call: ProviderToolCall, clock: Clock) {
    this.#call = call;
    this.#clock = clock;
    this.#started = clock.now();
  }

  /** The call ends with `result`, which the model reads; the evaluation goes on. */
  completed(result: ToolResult, reached?: ReachedFields, outcome?: ToolOutcome): Invocation {
    return this.#invocation('completed', result, reached, outcome);
  }

  /** The call stops the evaluation before it ran, with `error`: it gets no record. */
  stopped(error: PromptEvaluationError): Invocation {
    return this.#invocation(
      'stopped',
      ToolResult.error(error.message),
      undefined,
      undefined,
      error,
    );
  }

  /** The call ends with what its handler threw. */
  failed(failure: CallFailure, reached: ReachedFields): Invocation {
    if (failure.stop === undefined) return this.completed(failure.result, reached, failure.outcome);
    const recorded = failure.recordStop === true;
    return this.#invocation(
      'stopped',
      failure.result,
      reached,
      failure.outcome,
      failure.stop,
      recorded,
    );
  }

  /** One invocation, with the time the call took until now. */
  #invocation(
    kind: Invocation['kind'],
    result: ToolResult,
    reached: ReachedFields | undefined,
    outcome: ToolOutcome | undefined,
    error?: PromptEvaluationError,
    recorded = false,
  ): Invocation {
    // Plain literals, no spread: this runs for every call.
    const call = this.#call;
    const params = reached?.params;
    const snapshot = reached?.snapshot;
    const release = reached?.release;
    const attempts = reached?.attempts;
    const thrown = reached?.thrown;
    const durationMs = Math.max(0, this.#clock.now() - this.#started);
    const ended = outcome ?? (result.success ? 'success' : 'failure');
    if (kind === 'completed' || error === undefined) {
      return {
        kind: 'completed',
        call,
        params,
        result,
        outcome: ended,
        snapshot,
        durationMs,
        release,
        attempts,
        thrown,
      };
    }
    return {
      kind: 'stopped',
      error,
      recorded,
      call,
      params,
      result,
      outcome: ended,
      snapshot,
      durationMs,
      release,
      attempts,
      thrown,
    };
  }
}
