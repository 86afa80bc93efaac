import { describeThrown } from '../core/errors/describe-thrown.js';
import type { PromptEvaluationError } from '../core/errors/prompt-evaluation-error.js';
import { ToolValidationError } from '../core/errors/tool-validation-error.js';
import type { EvaluationScope } from './scope/evaluation-scope.js';
import type { ToolCallScope } from './scope/tool-call-scope.js';
import type { CallFrame } from '../session/call-frame.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { ToolResult } from '../tools/tool-result.js';
import { acquireSessionLock, type ReleaseLock } from './acquire-session-lock.js';
import type { Clock } from '../core/clock.js';
import type { ProviderToolCall } from '../provider/conversation.js';
import { decodeNoArguments } from '../schema/decode-no-arguments.js';
import { newCallFrame } from './run-handler.js';
import { runAttempts } from './run-attempts.js';
import { callLimit, type CallLimit } from './call-limit.js';
import type { LazySignal } from './scope/followed-signal.js';
import type { ToolAttempt } from '../tools/tool-retry.js';
import {
  CallEnding,
  CLEAR_CALL,
  type HeldCall,
  type Invocation,
  type InvokeOptions,
} from './call-ending.js';
import type { ApprovalDecision } from './approval/approval-decision.js';
import { afterResult, checkGate, type GateVerdict } from './policy-gate.js';
import { isThenable } from '../core/is-thenable.js';
import type { PolicyRef, ToolPolicy } from '../tools/tool-policy.js';
import { unknownToolMessage } from './tool-call-failure.js';
import { stopIfOver } from './evaluation-stops.js';
import { type CallParts, OpenedCall } from './opened-call.js';
import { storeResultMedia } from './media/result-media.js';
import { resolveMediaReferences } from './media/resolve-media-references.js';

/** A call scope that failed to open (`callScope` when it opened but the snapshot failed). */
interface FailedOpening {
  readonly error: unknown;
  readonly callScope: ToolCallScope | undefined;
}

/** How a call ended, or why it did not run (see {@link invokeToolCall}). */
type Ended = Invocation | HeldCall;

/**
 * Invokes one tool call: lookup, deadline check, argument parsing and
 * validation, the session lock and snapshot, the handler in its own call
 * scope, and the rollback of a failed call. How the call ended comes back at
 * once when no step waits (valid arguments, a free lock, a handler and scope
 * that finish at once), else as a promise. Never throws nor rejects: how the
 * call ended is in the invocation. @internal
 */
export function invokeToolCall(
  scope: EvaluationScope,
  call: ProviderToolCall,
  clock: Clock,
  options?: InvokeOptions,
): Ended | Promise<Ended> {
  const ending = new CallEnding(call, clock);
  const tool = scope.rendered.tool(call.name);
  if (tool?.handler === undefined) {
    if (options?.probe === true) return CLEAR_CALL;
    return ending.completed(ToolResult.error(unknownToolMessage(scope, call, tool)));
  }
  return new ToolCallRun(scope, tool, call, ending, clock, options).run();
}

const NO_POLICIES: readonly ToolPolicy[] = Object.freeze([]);

/**
 * One call of a tool that has a handler. Each step returns at once when it
 * can and hands over to an asynchronous continuation only when something it
 * starts returns a promise: a call whose steps all finish at once makes no
 * promise at all (every promise costs, more so while call frames track async
 * context), and from the last deadline check to the handler's start nothing
 * awaits, so a call that passes the check starts at once.
 */
class ToolCallRun implements CallParts {
  readonly scope: EvaluationScope;
  readonly tool: ToolDefinition;
  readonly call: ProviderToolCall;
  readonly ending: CallEnding;
  readonly clock: Clock;
  /** The call's time limit, from when it holds its lock (a tool or prompt with a timeout only). */
  limit: CallLimit | undefined;
  readonly #policies: readonly PolicyRef[];
  readonly #decision: ApprovalDecision | undefined;
  readonly #probe: boolean;

  constructor(
    scope: EvaluationScope,
    tool: ToolDefinition,
    call: ProviderToolCall,
    ending: CallEnding,
    clock: Clock,
    options: InvokeOptions | undefined,
  ) {
    this.scope = scope;
    this.tool = tool;
    this.call = call;
    this.ending = ending;
    this.clock = clock;
    this.#policies = scope.rendered.policiesOf(tool.name);
    this.#decision = options?.decision;
    this.#probe = options?.probe === true;
  }

  /** Whether the call goes through the gate: it has policies, an approval rule or a decision. */
  get #gated(): boolean {
    return (
      this.#policies.length > 0 ||
      this.tool.approval !== undefined ||
      this.#decision !== undefined ||
      this.#probe
    );
  }

  /**
   * Checks the call can run, then decodes its arguments. A call made after the
   * deadline stops the evaluation whatever its arguments; the check is
   * repeated once the lock is held (decoding may await async validators).
   */
  run(): Ended | Promise<Ended> {
    const expired = this.#stopIfOver();
    if (expired !== undefined) return this.#probe ? CLEAR_CALL : this.ending.stopped(expired);
    let decoded: unknown;
    try {
      decoded = this.#decodeArguments();
    } catch (error) {
      return this.#invalid(error);
    }
    return decoded instanceof Promise ? this.#decodedLater(decoded) : this.#decoded(decoded);
  }

  /** {@link ToolCallRun.run} once class-validator has answered. */
  async #decodedLater(decoding: Promise<unknown>): Promise<Ended> {
    let params: unknown;
    try {
      params = await decoding;
    } catch (error) {
      return this.#invalid(error);
    }
    return await this.#decoded(params);
  }

  /** The arguments are valid: resolves their `@MediaReference` fields, if any (an unknown one fails the call). */
  #decoded(params: unknown): Ended | Promise<Ended> {
    let resolving: Promise<void> | undefined;
    try {
      resolving = resolveMediaReferences(this.scope, this.tool, params);
    } catch (error) {
      return this.#invalid(error);
    }
    if (resolving === undefined) return this.#resolved(params);
    return resolving.then(
      () => this.#resolved(params),
      (error: unknown) => this.#invalid(error),
    );
  }

  /** The arguments are valid and their media resolved: takes the session's lock (state-changing tools only). */
  #resolved(params: unknown): Ended | Promise<Ended> {
    let lock: ReturnType<typeof acquireSessionLock> | undefined;
    try {
      lock = this.#lockSession();
    } catch (error) {
      return this.#lockRefused(error);
    }
    return lock === undefined || typeof lock === 'function'
      ? this.#locked(params, lock)
      : this.#lockedLater(params, lock);
  }

  /** {@link ToolCallRun.#decoded} once the lock is free. */
  async #lockedLater(params: unknown, locking: Promise<ReleaseLock>): Promise<Ended> {
    let release: ReleaseLock;
    try {
      release = await locking;
    } catch (error) {
      return this.#lockRefused(error);
    }
    return await this.#locked(params, release);
  }

  /** Checks the deadline again, opens the call's frame and scope, then passes the gate. */
  #locked(params: unknown, release: ReleaseLock | undefined): Ended | Promise<Ended> {
    const stopBefore = this.#stopIfOver();
    if (stopBefore !== undefined) {
      release?.();
      return this.ending.stopped(stopBefore);
    }
    const frame = newCallFrame(this.tool, this.call.callId, this.#lockedSession());
    const timeoutMs = this.tool.timeoutMs ?? this.scope.prompt.toolTimeoutMs;
    this.limit = callLimit(this.scope.cancellation, timeoutMs, this.clock);
    const opened = this.#open(frame, params, release);
    if (!(opened instanceof OpenedCall)) return this.#abandon(opened, frame, params, release);
    if (!this.#gated) return this.#invoke(opened, NO_POLICIES);
    const gate = checkGate(
      this.tool,
      this.#policies,
      params,
      opened.callScope,
      this.#decision,
      this.#probe,
    );
    return isThenable(gate) ? this.#gatedLater(gate, opened) : this.#throughGate(gate, opened);
  }

  /** {@link ToolCallRun.#locked} once the policies have answered. */
  async #gatedLater(gate: PromiseLike<GateVerdict>, opened: OpenedCall): Promise<Ended> {
    return await this.#throughGate(await gate, opened);
  }

  /**
   * Runs the handler when the gate let the call through and the deadline has
   * not passed while the policies ran; otherwise ends the call as the gate
   * said (denied, waiting, probed) or as the deadline says.
   */
  #throughGate(verdict: GateVerdict, opened: OpenedCall): Ended | Promise<Ended> {
    if (verdict.kind !== 'run' || this.#probe) return opened.held(verdict, this.#probe);
    const stop = this.#stopIfOver();
    if (stop !== undefined) return opened.stoppedAtGate(stop);
    return this.#invoke(opened, verdict.policies);
  }

  /**
   * Runs the handler in the call's frame and scope, tells the policies what it
   * returned, rolls a failed call back, then closes the scope.
   */
  #invoke(opened: OpenedCall, policies: readonly ToolPolicy[]): Ended | Promise<Ended> {
    let invocation: Invocation;
    try {
      const { params, callScope, frame, snapshot, attempts } = opened;
      const ran = runAttempts({
        tool: this.tool,
        params,
        context: callScope.context,
        signal: this.signal,
        frame,
        snapshot,
        clock: this.clock,
        attempts: attempts as ToolAttempt[],
      });
      if (ran instanceof Promise) return this.#settleLater(ran, opened, policies);
      const told = this.#told(ran, opened, policies);
      if (told instanceof Promise) return this.#settleLater(told, opened, NO_POLICIES);
      invocation = opened.completed(told);
    } catch (error) {
      invocation = opened.failed(error);
    }
    return opened.close(invocation);
  }

  /** {@link ToolCallRun.#invoke} once the handler's promise (or a policy's after-hook) settles. */
  async #settleLater(
    pending: Promise<ToolResult>,
    opened: OpenedCall,
    policies: readonly ToolPolicy[],
  ): Promise<Ended> {
    let invocation: Invocation;
    try {
      const told = this.#told(await pending, opened, policies);
      invocation = opened.completed(told instanceof Promise ? await told : told);
    } catch (error) {
      invocation = opened.failed(error);
    }
    return await opened.close(invocation);
  }

  /** A successful result as the policies' after-hooks leave it: a promise when one of them waits. */
  #told(
    result: ToolResult,
    opened: OpenedCall,
    policies: readonly ToolPolicy[],
  ): ToolResult | Promise<ToolResult> {
    if (!result.success || policies.length === 0) return this.#withMedia(result);
    const { params, callScope } = opened;
    const after = afterResult(this.tool, policies, params, callScope.context, result);
    return isThenable(after)
      ? replacedLater(after, result).then((told) => this.#withMedia(told))
      : this.#withMedia(after ?? result);
  }

  /** `result` once its media is checked and stored in the `BlobStore` (at once when it has none). */
  #withMedia(result: ToolResult): ToolResult | Promise<ToolResult> {
    const stored = storeResultMedia(this.scope, this.tool.name, this.call.callId, result);
    return stored === undefined ? result : stored.then(() => result);
  }

  /** The call's cancellation: its time limit's, or the evaluation's. */
  get signal(): LazySignal {
    return this.limit ?? this.scope.cancellation;
  }

  #stopIfOver(): PromptEvaluationError | undefined {
    return stopIfOver(this.scope, `before executing tool '${this.tool.name}'`);
  }

  /** Parses and validates the arguments (a promise), or throws when they are invalid. */
  #decodeArguments(): unknown {
    const tool = this.tool;
    if (tool.params === undefined) {
      decodeNoArguments(this.call.arguments);
      return undefined;
    }
    return tool.params.parse(this.call.arguments, this.scope.argumentsProfile(tool.name));
  }

  /** Invalid arguments fail the call with a message for the model (a probe just clears it). */
  #invalid(error: unknown): Ended {
    if (this.#probe) return CLEAR_CALL;
    const message = ToolValidationError.is(error) ? error.message : describeThrown(error);
    return this.ending.completed(ToolResult.error(`Tool validation failed: ${message}`));
  }

  /** The session a state-changing tool locks; read-only tools lock nothing. */
  #lockedSession(): EvaluationScope['session'] | undefined {
    return this.tool.readOnly ? undefined : this.scope.session;
  }

  /** Takes the session's write lock (state-changing tools only): at once, or a promise of it. */
  #lockSession(): ReturnType<typeof acquireSessionLock> | undefined {
    const session = this.#lockedSession();
    return session === undefined ? undefined : acquireSessionLock(session, this.scope.cancellation);
  }

  /** The lock was refused: aborted while waiting, or asked from a call that was already rolled back. */
  #lockRefused(error: unknown): Invocation {
    const stop = this.#stopIfOver();
    if (stop !== undefined) return this.ending.stopped(stop);
    return this.ending.completed(
      ToolResult.error(`Tool '${this.tool.name}' could not start: ${describeThrown(error)}`),
    );
  }

  /** Opens the call's scope and snapshots what a failure restores (state-changing tools only). */
  #open(
    frame: CallFrame,
    params: unknown,
    release: ReleaseLock | undefined,
  ): OpenedCall | FailedOpening {
    let callScope: ToolCallScope | undefined;
    try {
      callScope = this.scope.openCall(this.call.callId, this.signal);
      return new OpenedCall(this, callScope, frame, params, release);
    } catch (error) {
      return { error, callScope };
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
    this.limit?.cancel();
    await callScope?.dispose()?.catch(() => undefined);
    return this.ending.completed(
      ToolResult.error(`Tool '${this.tool.name}' could not start: ${describeThrown(error)}`),
      { params },
    );
  }
}

/** What an after-hook's promise settles to, or `result` when it leaves the result as it is. */
async function replacedLater(
  after: PromiseLike<ToolResult | undefined>,
  result: ToolResult,
): Promise<ToolResult> {
  return (await after) ?? result;
}
