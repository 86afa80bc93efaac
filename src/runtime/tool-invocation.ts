import { describeThrown } from '../core/errors/describe-thrown.js';
import type { PromptEvaluationError } from '../core/errors/prompt-evaluation-error.js';
import { ToolValidationError } from '../core/errors/tool-validation-error.js';
import type { EvaluationScope } from './scope/evaluation-scope.js';
import { parseToolArgumentsNow } from '../schema/parse-tool-arguments.js';
import type { CallFrame } from '../session/call-frame.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { ToolResult } from '../tools/tool-result.js';
import { acquireSessionLock, type ReleaseLock } from './acquire-session-lock.js';
import type { Clock } from '../core/clock.js';
import type { ProviderToolCall } from '../provider/conversation.js';
import { decodeNoArguments } from '../schema/decode-no-arguments.js';
import { newCallFrame, runHandler } from './run-handler.js';
import {
  CallEnding,
  type CallSnapshot,
  type HeldCall,
  type Invocation,
  type InvokeOptions,
} from './call-ending.js';
import type { ApprovalDecision } from './approval/approval-decision.js';
import { afterResult, checkGate, type GateVerdict } from './policy-gate.js';
import { isThenable } from '../core/is-thenable.js';
import type { PolicyRef, ToolPolicy } from '../tools/tool-policy.js';
import {
  type CallFailure,
  failureFor,
  stopIfOver,
  unknownToolMessage,
} from './tool-call-failure.js';

/** The call's own scope, and the snapshot its failure restores (state-changing tools only). */
interface OpenedCall {
  readonly kind: 'opened';
  readonly callScope: ReturnType<EvaluationScope['openCall']>;
  readonly snapshot: CallSnapshot | undefined;
}

/** A call scope that failed to open (`callScope` when it opened but the snapshot failed). */
interface FailedOpening {
  readonly kind: 'failed';
  readonly error: unknown;
  readonly callScope: OpenedCall['callScope'] | undefined;
}

/**
 * Invokes one tool call: lookup, deadline check, argument parsing and
 * validation, the session lock and snapshot, the handler in its own call
 * scope, and the rollback of a failed call. Never rejects: how the call ended
 * is in the invocation. @internal
 */
export function invokeToolCall(
  scope: EvaluationScope,
  call: ProviderToolCall,
  clock: Clock,
  options?: InvokeOptions,
): Promise<Invocation | HeldCall> {
  const ending = new CallEnding(call, clock);
  const tool = scope.rendered.tool(call.name);
  if (tool?.handler === undefined) {
    if (options?.probe === true) return Promise.resolve(CLEAR);
    return Promise.resolve(
      ending.completed(ToolResult.error(unknownToolMessage(scope, call, tool))),
    );
  }
  return new ToolCallRun(scope, tool, call, ending, options).run();
}

const CLEAR: HeldCall = Object.freeze({ kind: 'clear' });
const NO_POLICIES: readonly ToolPolicy[] = Object.freeze([]);

/**
 * One call of a tool that has a handler. `run` is the one asynchronous step
 * (every extra async function is another promise per call, and promises are
 * not free while call frames track async context); the steps it calls are
 * synchronous.
 */
class ToolCallRun {
  readonly #scope: EvaluationScope;
  readonly #tool: ToolDefinition;
  readonly #call: ProviderToolCall;
  readonly #ending: CallEnding;
  readonly #policies: readonly PolicyRef[];
  readonly #decision: ApprovalDecision | undefined;
  readonly #probe: boolean;

  constructor(
    scope: EvaluationScope,
    tool: ToolDefinition,
    call: ProviderToolCall,
    ending: CallEnding,
    options: InvokeOptions | undefined,
  ) {
    this.#scope = scope;
    this.#tool = tool;
    this.#call = call;
    this.#ending = ending;
    this.#policies = scope.rendered.policiesOf(tool.name);
    this.#decision = options?.decision;
    this.#probe = options?.probe === true;
  }

  /** Whether the call goes through the gate: it has policies, an approval rule or a decision. */
  get #gated(): boolean {
    return (
      this.#policies.length > 0 ||
      this.#tool.approval !== undefined ||
      this.#decision !== undefined ||
      this.#probe
    );
  }

  /**
   * Checks the call can run, decodes its arguments, takes the lock, runs the
   * handler in the call's own frame and scope, then closes the scope. From the
   * last deadline check to the handler's start nothing awaits, so a call that
   * passes the check starts at once.
   */
  async run(): Promise<Invocation | HeldCall> {
    // A call made after the deadline stops the evaluation whatever its arguments;
    // the check is repeated after parsing, which may await async validators.
    const expired = this.#stopIfOver();
    if (expired !== undefined) return this.#probe ? CLEAR : this.#ending.stopped(expired);
    let params: unknown;
    try {
      const decoded = this.#decodeArguments();
      params = decoded instanceof Promise ? await decoded : decoded;
    } catch (error) {
      return this.#probe ? CLEAR : this.#invalidArguments(error);
    }
    let release: ReleaseLock | undefined;
    try {
      const lock = this.#lockSession();
      release = lock === undefined || typeof lock === 'function' ? lock : await lock;
    } catch (error) {
      return this.#lockRefused(error);
    }
    const stopBefore = this.#stopIfOver();
    if (stopBefore !== undefined) return this.#stoppedBefore(stopBefore, release);
    const frame = newCallFrame(this.#tool, this.#call.callId, this.#lockedSession());
    const opened = this.#openCall();
    if (opened.kind !== 'opened') return this.#abandon(opened, frame, params, release);
    let policies: readonly ToolPolicy[] = NO_POLICIES;
    if (this.#gated) {
      const gate = this.#checkGate(params, opened.callScope);
      const verdict = isThenable(gate) ? await gate : gate;
      const passed = this.#pass(verdict, opened, frame, params, release);
      if (passed instanceof Promise) return await passed;
      policies = passed;
    }
    let invocation: Invocation;
    try {
      const context = opened.callScope.context;
      const ran = runHandler(this.#tool, params, context, this.#scope.signal, frame);
      let result = ran instanceof Promise ? await ran : ran;
      if (result.success && policies.length > 0) {
        const after = afterResult(this.#tool, policies, params, context, result);
        result = (isThenable(after) ? await after : after) ?? result;
      }
      if (!result.success) rollBack(opened.snapshot, frame, 'failed');
      invocation = this.#ending.completed(result, { params, snapshot: opened.snapshot, release });
    } catch (error) {
      invocation = this.#handlerFailed(error, opened, frame, params, release);
    } finally {
      frame.end();
    }
    try {
      const closing = opened.callScope.dispose();
      if (closing !== undefined) await closing;
    } catch (error) {
      return this.#closeFailed(error, opened, frame, invocation);
    }
    return invocation;
  }

  /** Checks the call's policies and approval rule (see `checkGate`). */
  #checkGate(
    params: unknown,
    callScope: OpenedCall['callScope'],
  ): GateVerdict | Promise<GateVerdict> {
    return checkGate(this.#tool, this.#policies, params, callScope, this.#decision, this.#probe);
  }

  /**
   * The policies that allowed the call when it may run now; otherwise how it
   * ends (denied, waiting, probed, or stopped by a deadline that passed while
   * the policies ran).
   */
  #pass(
    verdict: GateVerdict,
    opened: OpenedCall,
    frame: CallFrame,
    params: unknown,
    release: ReleaseLock | undefined,
  ): readonly ToolPolicy[] | Promise<Invocation | HeldCall> {
    if (verdict.kind !== 'run' || this.#probe)
      return this.#held(verdict, opened, frame, params, release);
    const stop = this.#stopIfOver();
    if (stop !== undefined) return this.#stoppedAtGate(stop, opened, frame, release);
    return verdict.policies;
  }

  /** Ends a call stopped by the deadline or a cancellation after it took the lock, before its scope opened. */
  #stoppedBefore(stop: PromptEvaluationError, release: ReleaseLock | undefined): Invocation {
    release?.();
    return this.#ending.stopped(stop);
  }

  /** Ends a call whose deadline passed while its policies ran: undone, unrecorded, the evaluation stops. */
  async #stoppedAtGate(
    stop: PromptEvaluationError,
    opened: OpenedCall,
    frame: CallFrame,
    release: ReleaseLock | undefined,
  ): Promise<Invocation> {
    restoreSnapshot(opened.snapshot);
    release?.();
    frame.end();
    await opened.callScope.dispose()?.catch(() => undefined);
    return this.#ending.stopped(stop);
  }

  /**
   * Ends a call the gate stopped: a denied call is rolled back and recorded as
   * `denied`; a call waiting for approval (or merely probed) is undone and
   * left unrecorded.
   */
  async #held(
    verdict: GateVerdict,
    opened: OpenedCall,
    frame: CallFrame,
    params: unknown,
    release: ReleaseLock | undefined,
  ): Promise<Invocation | HeldCall> {
    let ended: Invocation | HeldCall;
    if (verdict.kind === 'deny' && !this.#probe) {
      rollBack(opened.snapshot, frame, 'failed');
      ended = this.#ending.completed(
        verdict.result,
        { params, snapshot: opened.snapshot, release },
        'denied',
      );
    } else {
      restoreSnapshot(opened.snapshot);
      release?.();
      const call = this.#call;
      ended =
        verdict.kind === 'approval'
          ? {
              kind: 'pending',
              pending: {
                callId: call.callId,
                name: call.name,
                params,
                arguments: call.arguments,
                reason: verdict.reason,
              },
            }
          : CLEAR;
    }
    frame.end();
    await opened.callScope.dispose()?.catch(() => undefined);
    return ended;
  }

  #stopIfOver(): PromptEvaluationError | undefined {
    return stopIfOver(this.#scope, `before executing tool '${this.#tool.name}'`);
  }

  /** Parses and validates the arguments (a promise), or throws when they are invalid. */
  #decodeArguments(): unknown {
    const tool = this.#tool;
    if (tool.paramsType === undefined) {
      decodeNoArguments(this.#call.arguments);
      return undefined;
    }
    return parseToolArgumentsNow(tool.paramsType, this.#call.arguments, {
      profile: this.#scope.argumentsProfile(tool.name),
    });
  }

  /** Invalid arguments fail the call with a message for the model. */
  #invalidArguments(error: unknown): Invocation {
    const message = ToolValidationError.is(error) ? error.message : describeThrown(error);
    return this.#ending.completed(ToolResult.error(`Tool validation failed: ${message}`));
  }

  /** The session a state-changing tool locks; read-only tools lock nothing. */
  #lockedSession(): EvaluationScope['session'] | undefined {
    return this.#tool.readOnly ? undefined : this.#scope.session;
  }

  /** Takes the session's write lock (state-changing tools only): at once, or a promise of it. */
  #lockSession(): ReturnType<typeof acquireSessionLock> | undefined {
    const session = this.#lockedSession();
    return session === undefined ? undefined : acquireSessionLock(session, this.#scope.signal);
  }

  /** The lock was refused: aborted while waiting, or asked from a call that was already rolled back. */
  #lockRefused(error: unknown): Invocation {
    const stop = this.#stopIfOver();
    if (stop !== undefined) return this.#ending.stopped(stop);
    return this.#ending.completed(
      ToolResult.error(`Tool '${this.#tool.name}' could not start: ${describeThrown(error)}`),
    );
  }

  /** Opens the call's scope and snapshots what a failure restores (state-changing tools only). */
  #openCall(): OpenedCall | FailedOpening {
    let callScope: OpenedCall['callScope'] | undefined;
    try {
      callScope = this.#scope.openCall(this.#call.callId, this.#scope.signal);
      const snapshot = this.#tool.readOnly
        ? undefined
        : takeSnapshot(this.#scope, callScope.resources);
      return { kind: 'opened', callScope, snapshot };
    } catch (error) {
      return { kind: 'failed', error, callScope };
    }
  }

  /** Ends a call whose scope could not open, undoing what was opened. */
  async #abandon(
    { error, callScope }: FailedOpening,
    frame: CallFrame,
    params: unknown,
    release: ReleaseLock | undefined,
  ): Promise<Invocation> {
    // Opening the call failed (a resource's own snapshot threw): the handler never runs.
    frame.end();
    release?.();
    await callScope?.dispose()?.catch(() => undefined);
    return this.#ending.completed(
      ToolResult.error(`Tool '${this.#tool.name}' could not start: ${describeThrown(error)}`),
      { params },
    );
  }

  /** The handler threw: the call is rolled back, and may stop the evaluation. */
  #handlerFailed(
    error: unknown,
    { snapshot }: OpenedCall,
    frame: CallFrame,
    params: unknown,
    release: ReleaseLock | undefined,
  ): Invocation {
    const failure: CallFailure = failureFor(this.#scope, this.#tool, error);
    rollBack(snapshot, frame, failure.outcome === 'unknown' ? 'was interrupted' : 'failed');
    // The snapshot goes with the invocation so its record can say the call was rolled back.
    return this.#ending.failed(failure, { params, release, snapshot });
  }

  /** Closing the call's scope failed (a deactivation hook or resource threw): the call fails. */
  #closeFailed(
    error: unknown,
    { snapshot }: OpenedCall,
    frame: CallFrame,
    invocation: Invocation,
  ): Invocation {
    if (invocation.result.success) rollBack(snapshot, frame, 'failed');
    const message = `Tool '${this.#tool.name}' ran, but closing its call scope failed: ${describeThrown(error)}`;
    return Object.assign({}, invocation, {
      result: ToolResult.error(message),
      outcome: 'failure' as const,
    });
  }
}

function takeSnapshot(
  scope: EvaluationScope,
  resources: EvaluationScope['resources'],
): CallSnapshot {
  return { session: scope.session.captureStates(), resources: resources.snapshot(), scope };
}

/** Puts the session and resources back as the snapshot found them. @internal */
export function restoreSnapshot(snapshot: CallSnapshot | undefined): void {
  if (snapshot === undefined) return;
  snapshot.scope.session.restoreStates(snapshot.session);
  snapshot.scope.resources.restore(snapshot.resources);
}

/** Restores the call's snapshot, then refuses whatever its handler still tries to write. */
function rollBack(snapshot: CallSnapshot | undefined, frame: CallFrame, how: string): void {
  // An interrupted read-only call has nothing to restore but must not write later either.
  if (snapshot === undefined && how !== 'was interrupted') return;
  frame.close(how);
  restoreSnapshot(snapshot);
}
