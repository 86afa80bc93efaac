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
): Promise<Invocation> {
  const ending = new CallEnding(call, clock);
  const tool = scope.rendered.tool(call.name);
  if (tool?.handler === undefined) {
    return Promise.resolve(
      ending.completed(ToolResult.error(unknownToolMessage(scope, call, tool))),
    );
  }
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
    };
  }
}

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
  }

  /**
   * Checks the call can run, decodes its arguments, takes the lock, runs the
   * handler in the call's own frame and scope, then closes the scope. From the
   * last deadline check to the handler's start nothing awaits, so a call that
   * passes the check starts at once.
   */
  async run(): Promise<Invocation> {
    // A call made after the deadline stops the evaluation whatever its arguments;
    // the check is repeated after parsing, which may await async validators.
    const expired = this.#stopIfOver();
    if (expired !== undefined) return this.#ending.stopped(expired);
    let params: unknown;
    try {
      const decoded = this.#decodeArguments();
      params = decoded instanceof Promise ? await decoded : decoded;
    } catch (error) {
      return this.#invalidArguments(error);
    }
    let release: ReleaseLock | undefined;
    try {
      const lock = this.#lockSession();
      release = lock === undefined || typeof lock === 'function' ? lock : await lock;
    } catch (error) {
      return this.#lockRefused(error);
    }
    const stopBefore = this.#stopIfOver();
    if (stopBefore !== undefined) {
      release?.();
      return this.#ending.stopped(stopBefore);
    }
    const frame = newCallFrame(this.#tool, this.#call.callId, this.#lockedSession());
    const opened = this.#openCall();
    if (opened.kind !== 'opened') return this.#abandon(opened, frame, params, release);
    let invocation: Invocation;
    try {
      const result = await runHandler(
        this.#tool,
        params,
        opened.callScope.context,
        this.#scope.signal,
        frame,
      );
      if (!result.success) rollBack(opened.snapshot, frame, 'failed');
      invocation = this.#ending.completed(result, { params, snapshot: opened.snapshot, release });
    } catch (error) {
      invocation = this.#handlerFailed(error, opened, frame, params, release);
    } finally {
      frame.end();
    }
    try {
      await opened.callScope.dispose();
    } catch (error) {
      return this.#closeFailed(error, opened, frame, invocation);
    }
    return invocation;
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
    return parseToolArguments(tool.paramsType, this.#call.arguments, {
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
    await callScope?.dispose().catch(() => undefined);
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
    return this.#ending.failed(failure, { params, release });
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
