import { describeThrown } from '../core/errors/describe-thrown.js';
import type { PromptEvaluationError } from '../core/errors/prompt-evaluation-error.js';
import type { ProviderToolCall } from '../provider/conversation.js';
import type { CallFrame } from '../session/call-frame.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { ToolResult } from '../tools/tool-result.js';
import type { ReleaseLock } from './acquire-session-lock.js';
import {
  CLEAR_CALL,
  type CallEnding,
  type CallSnapshot,
  type HeldCall,
  type Invocation,
} from './call-ending.js';
import type { GateVerdict } from './policy-gate.js';
import type { EvaluationScope } from './scope/evaluation-scope.js';
import type { ToolCallScope } from './scope/tool-call-scope.js';
import { failureFor } from './tool-call-failure.js';
import type { CallLimit } from './call-limit.js';
import type { ToolAttempt } from '../tools/tool-retry.js';

/** What an {@link OpenedCall} needs of the call it belongs to. @internal */
export interface CallParts {
  readonly scope: EvaluationScope;
  readonly tool: ToolDefinition;
  readonly call: ProviderToolCall;
  readonly ending: CallEnding;
  /** The call's time limit, if it has one. */
  readonly limit: CallLimit | undefined;
}

/**
 * A tool call whose own scope is open and, for a state-changing tool, whose
 * snapshot is taken: what its handler runs with, and every way the call ends
 * from there (completed, failed, held at the gate, stopped), each undoing what
 * it must. Its `params`, `snapshot` and `release` are what its invocation
 * carries to the record. @internal
 */
export class OpenedCall {
  readonly callScope: ToolCallScope;
  readonly snapshot: CallSnapshot | undefined;
  readonly frame: CallFrame;
  readonly params: unknown;
  readonly release: ReleaseLock | undefined;
  /** Each attempt of a tool with `retry` (filled as they end); `undefined` for other tools. */
  readonly attempts: ToolAttempt[] | undefined;
  /** What the handler threw, once the call failed so. */
  thrown: unknown;
  readonly #parts: CallParts;

  constructor(
    parts: CallParts,
    callScope: ToolCallScope,
    frame: CallFrame,
    params: unknown,
    release: ReleaseLock | undefined,
  ) {
    this.#parts = parts;
    this.callScope = callScope;
    this.frame = frame;
    this.params = params;
    this.release = release;
    this.attempts = parts.tool.retry === undefined ? undefined : [];
    // Only a state-changing call has something to restore (read-only calls hold no lock either).
    this.snapshot = parts.tool.readOnly
      ? undefined
      : {
          session: parts.scope.session.captureStates(),
          resources: callScope.resources.snapshot(),
          scope: parts.scope,
        };
  }

  /** The call ends with `result`: a failed one rolls the call back first. */
  completed(result: ToolResult, outcome?: 'denied'): Invocation {
    if (!result.success) rollBack(this.snapshot, this.frame, 'failed');
    return this.#parts.ending.completed(result, this, outcome);
  }

  /** The handler threw: the call is rolled back, and may stop the evaluation. */
  failed(error: unknown): Invocation {
    const { scope, tool, ending } = this.#parts;
    const failure = failureFor(scope, tool, error, this.#parts.limit);
    const how =
      failure.outcome === 'unknown'
        ? 'was interrupted'
        : failure.outcome === 'timeout'
          ? 'timed out'
          : 'failed';
    rollBack(this.snapshot, this.frame, how);
    this.thrown = error;
    // The snapshot goes with the invocation so its record can say the call was rolled back.
    return ending.failed(failure, this);
  }

  /**
   * Ends the call's frame and closes its scope: `invocation` at once when the
   * scope closes at once, a promise when closing waits; a failure to close
   * fails the call.
   */
  close(invocation: Invocation): Invocation | Promise<Invocation> {
    this.frame.end();
    this.#parts.limit?.cancel();
    let closing: Promise<void> | undefined;
    try {
      closing = this.callScope.dispose();
    } catch (error) {
      return this.#closeFailed(error, invocation);
    }
    if (closing === undefined) return invocation;
    return closing.then(
      () => invocation,
      (error: unknown) => this.#closeFailed(error, invocation),
    );
  }

  /**
   * Ends a call the gate stopped: a denied call is rolled back and recorded as
   * `denied`; a call waiting for approval (or merely probed) is undone and
   * left unrecorded.
   */
  async held(verdict: GateVerdict, probe: boolean): Promise<Invocation | HeldCall> {
    let ended: Invocation | HeldCall;
    if (verdict.kind === 'deny' && !probe) {
      ended = this.completed(verdict.result, 'denied');
    } else {
      restoreSnapshot(this.snapshot);
      this.release?.();
      const { call } = this.#parts;
      ended =
        verdict.kind === 'approval'
          ? {
              kind: 'pending',
              pending: {
                callId: call.callId,
                name: call.name,
                params: this.params,
                arguments: call.arguments,
                reason: verdict.reason,
              },
            }
          : CLEAR_CALL;
    }
    this.frame.end();
    this.#parts.limit?.cancel();
    await this.callScope.dispose()?.catch(() => undefined);
    return ended;
  }

  /** Ends a call whose deadline passed while its policies ran: undone, unrecorded, the evaluation stops. */
  async stoppedAtGate(stop: PromptEvaluationError): Promise<Invocation> {
    restoreSnapshot(this.snapshot);
    this.release?.();
    this.frame.end();
    this.#parts.limit?.cancel();
    await this.callScope.dispose()?.catch(() => undefined);
    return this.#parts.ending.stopped(stop);
  }

  /** Closing the call's scope failed (a deactivation hook or resource threw): the call fails. */
  #closeFailed(error: unknown, invocation: Invocation): Invocation {
    if (invocation.result.success) rollBack(this.snapshot, this.frame, 'failed');
    const message = `Tool '${this.#parts.tool.name}' ran, but closing its call scope failed: ${describeThrown(error)}`;
    return Object.assign({}, invocation, {
      result: ToolResult.error(message),
      outcome: 'failure' as const,
    });
  }
}

/** Puts the session and resources back as the snapshot found them. @internal */
export function restoreSnapshot(snapshot: CallSnapshot | undefined): void {
  if (snapshot === undefined) return;
  snapshot.scope.session.restoreStates(snapshot.session);
  snapshot.scope.resources.restore(snapshot.resources);
}

/** Restores the call's snapshot, then refuses whatever its handler still tries to write. */
function rollBack(snapshot: CallSnapshot | undefined, frame: CallFrame, how: string): void {
  // An interrupted or timed-out read-only call has nothing to restore but must not write later either.
  if (snapshot === undefined && how === 'failed') return;
  frame.close(how);
  restoreSnapshot(snapshot);
}
