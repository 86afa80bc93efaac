import { describeThrown } from '../core/errors/describe-thrown.js';
import type { PromptEvaluationError } from '../core/errors/prompt-evaluation-error.js';
import { ToolValidationError } from '../core/errors/tool-validation-error.js';
import type { ToolOutcome } from './events/tool-invoked.js';
import type { EvaluationScope } from './scope/evaluation-scope.js';
import type { ResourceSnapshot } from '../resources/resource-context.js';
import { parseToolArguments } from '../schema/parse-tool-arguments.js';
import type { CallFrame } from '../session/call-frame.js';
import type { SessionSnapshot } from '../session/session-snapshot.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { ToolResult } from '../tools/tool-result.js';
import { acquireSessionLock, type ReleaseLock } from './acquire-session-lock.js';
import type { Clock } from '../core/clock.js';
import type { ProviderToolCall } from '../provider/conversation.js';
import { decodeNoArguments } from '../schema/decode-no-arguments.js';
import { newCallFrame, runHandler } from './run-handler.js';
import {
  type CallFailure,
  failureFor,
  stopIfOver,
  unknownToolMessage,
} from './tool-call-failure.js';

/** What a state-changing call's failure restores. @internal */
export interface CallSnapshot {
  readonly session: SessionSnapshot;
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

/** What an invocation may carry besides its result, depending on how far the call got. */
interface ReachedFields {
  readonly params?: unknown;
  readonly snapshot?: CallSnapshot | undefined;
  readonly release?: ReleaseLock | undefined;
}

/** The parsed params of a call whose arguments are valid. */
interface DecodedArguments {
  readonly kind: 'decoded';
  readonly params: unknown;
}

/** The session lock a call took (none for a read-only tool). */
interface LockTaken {
  readonly kind: 'locked';
  readonly release: ReleaseLock | undefined;
}

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
 * scope, and the rollback of a failed call. Never throws: how the call ended
 * is in the invocation. @internal
 */
export async function invokeToolCall(
  scope: EvaluationScope,
  call: ProviderToolCall,
  clock: Clock,
): Promise<Invocation> {
  const ending = new CallEnding(call, clock);
  const tool = scope.rendered.tool(call.name);
  if (tool?.handler === undefined)
    return ending.completed(ToolResult.error(unknownToolMessage(scope, call, tool)));
  return new ToolCallRun(scope, tool, call, ending).run();
}

/** Builds the invocations one call can end with, timed from the call's start. */
class CallEnding {
  readonly #call: ProviderToolCall;
  readonly #clock: Clock;
  readonly #started: number;

  constructor(call: ProviderToolCall, clock: Clock) {
    this.#call = call;
    this.#clock = clock;
    this.#started = clock.now();
  }

  /** The call ends with `result`, which the model reads; the evaluation goes on. */
  completed(result: ToolResult, reached: ReachedFields = {}, outcome?: ToolOutcome): Invocation {
    return { kind: 'completed', ...this.#fields(result, reached, outcome) };
  }

  /** The call stops the evaluation before it ran, with `error`: it gets no record. */
  stopped(error: PromptEvaluationError): Invocation {
    const fields = this.#fields(ToolResult.error(error.message), {});
    return { kind: 'stopped', error, recorded: false, ...fields };
  }

  /** The call ends with what its handler threw. */
  failed(failure: CallFailure, reached: ReachedFields): Invocation {
    if (failure.stop === undefined) return this.completed(failure.result, reached, failure.outcome);
    const fields = this.#fields(failure.result, reached, failure.outcome);
    return {
      kind: 'stopped',
      error: failure.stop,
      recorded: failure.recordStop === true,
      ...fields,
    };
  }

  /** The fields of every invocation, with the time the call took until now. */
  #fields(result: ToolResult, reached: ReachedFields, outcome?: ToolOutcome): InvocationFields {
    return {
      call: this.#call,
      params: reached.params,
      result,
      outcome: outcome ?? (result.success ? 'success' : 'failure'),
      snapshot: reached.snapshot,
      durationMs: Math.max(0, this.#clock.now() - this.#started),
      release: reached.release,
    };
  }
}

/** One call of a tool that has a handler, step by step. */
class ToolCallRun {
  readonly #scope: EvaluationScope;
  readonly #tool: ToolDefinition;
  readonly #call: ProviderToolCall;
  readonly #ending: CallEnding;
  readonly #activity: string;

  constructor(
    scope: EvaluationScope,
    tool: ToolDefinition,
    call: ProviderToolCall,
    ending: CallEnding,
  ) {
    this.#scope = scope;
    this.#tool = tool;
    this.#call = call;
    this.#ending = ending;
    this.#activity = `before executing tool '${tool.name}'`;
  }

  /**
   * Checks the call can run, decodes its arguments, takes the lock, then runs
   * the handler. From the last deadline check to the handler's start nothing
   * awaits, so a call that passes the check starts at once.
   */
  async run(): Promise<Invocation> {
    // A call made after the deadline stops the evaluation whatever its arguments;
    // the check is repeated after parsing, which may await async validators.
    const expired = stopIfOver(this.#scope, this.#activity);
    if (expired !== undefined) return this.#ending.stopped(expired);
    const decoded = await this.#decodeArguments();
    if (decoded.kind !== 'decoded') return decoded;
    const locked = await this.#lockSession();
    if (locked.kind !== 'locked') return locked;
    const stopBefore = stopIfOver(this.#scope, this.#activity);
    if (stopBefore !== undefined) {
      locked.release?.();
      return this.#ending.stopped(stopBefore);
    }
    return this.#runInCallScope(decoded.params, locked.release);
  }

  /** Parses and validates the arguments; invalid ones fail the call with a message for the model. */
  async #decodeArguments(): Promise<DecodedArguments | Invocation> {
    const tool = this.#tool;
    try {
      if (tool.paramsType === undefined) {
        decodeNoArguments(this.#call.arguments);
        return { kind: 'decoded', params: undefined };
      }
      const params = await parseToolArguments(tool.paramsType, this.#call.arguments, {
        profile: this.#scope.argumentsProfile(tool.name),
      });
      return { kind: 'decoded', params };
    } catch (error) {
      const message = ToolValidationError.is(error) ? error.message : describeThrown(error);
      return this.#ending.completed(ToolResult.error(`Tool validation failed: ${message}`));
    }
  }

  /** Takes the session's write lock (state-changing tools only). */
  async #lockSession(): Promise<LockTaken | Invocation> {
    const scope = this.#scope;
    if (this.#tool.readOnly) return { kind: 'locked', release: undefined };
    try {
      const lock = acquireSessionLock(scope.session, scope.signal);
      return { kind: 'locked', release: typeof lock === 'function' ? lock : await lock };
    } catch (error) {
      // Aborted while waiting (reported below), or asked from a call that was already rolled back.
      const stop = stopIfOver(scope, this.#activity);
      if (stop !== undefined) return this.#ending.stopped(stop);
      return this.#ending.completed(
        ToolResult.error(`Tool '${this.#tool.name}' could not start: ${describeThrown(error)}`),
      );
    }
  }

  /** Runs the handler in the call's own frame and scope, then closes the scope. */
  async #runInCallScope(params: unknown, release: ReleaseLock | undefined): Promise<Invocation> {
    const lockedSession = this.#tool.readOnly ? undefined : this.#scope.session;
    const frame = newCallFrame(this.#tool, this.#call.callId, lockedSession);
    const opened = this.#openCall();
    if (opened.kind !== 'opened') return this.#abandon(opened, frame, params, release);
    const invocation = await this.#runHandler(opened, frame, params, release);
    return this.#closeCall(opened, frame, invocation);
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
    await callScope?.dispose().catch(() => undefined);
    return this.#ending.completed(
      ToolResult.error(`Tool '${this.#tool.name}' could not start: ${describeThrown(error)}`),
      { params },
    );
  }

  /** Runs the handler; a failed or interrupted call is rolled back. */
  async #runHandler(
    { callScope, snapshot }: OpenedCall,
    frame: CallFrame,
    params: unknown,
    release: ReleaseLock | undefined,
  ): Promise<Invocation> {
    const scope = this.#scope;
    try {
      const result = await runHandler(this.#tool, params, callScope.context, scope.signal, frame);
      if (!result.success) rollBack(snapshot, frame, 'failed');
      return this.#ending.completed(result, { params, snapshot, release });
    } catch (error) {
      const failure: CallFailure = failureFor(scope, this.#tool, error);
      rollBack(snapshot, frame, failure.outcome === 'unknown' ? 'was interrupted' : 'failed');
      return this.#ending.failed(failure, { params, release });
    } finally {
      frame.end();
    }
  }

  /** Closes the call's scope; when that fails, so does the call. */
  async #closeCall(
    { callScope, snapshot }: OpenedCall,
    frame: CallFrame,
    invocation: Invocation,
  ): Promise<Invocation> {
    try {
      await callScope.dispose();
    } catch (error) {
      // Closing the call's scope failed (a deactivation hook or resource threw): the call fails.
      if (invocation.result.success) rollBack(snapshot, frame, 'failed');
      const message = `Tool '${this.#tool.name}' ran, but closing its call scope failed: ${describeThrown(error)}`;
      return { ...invocation, result: ToolResult.error(message), outcome: 'failure' };
    }
    return invocation;
  }
}

function takeSnapshot(
  scope: EvaluationScope,
  resources: EvaluationScope['resources'],
): CallSnapshot {
  return { session: scope.session.snapshot(), resources: resources.snapshot(), scope };
}

/** Puts the session and resources back as the snapshot found them. @internal */
export function restoreSnapshot(snapshot: CallSnapshot | undefined): void {
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
