import {
  CallFrame,
  currentCallFrame,
  handlerSettled,
  handlerStarted,
  runInCallFrame,
} from '../session/call-frame.js';
import type { ToolContext } from '../tools/tool-context.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { ToolResult } from '../tools/tool-result.js';
import { isThenable } from '../core/is-thenable.js';
import type { LazySignal } from './scope/followed-signal.js';

/** The handler was still running when the evaluation's signal aborted. @internal */
export class InterruptedCall extends Error {}

/**
 * Runs the handler as the code of `frame`'s call. A handler that returns at
 * once is done at once (no promise); one that returns a promise is raced
 * against `signal`, giving up (with {@link InterruptedCall}) when it aborts
 * first. A returned value that is not a `ToolResult` with a string message is
 * a handler bug, thrown as a `TypeError` naming the fix. @internal
 */
export function runHandler(
  tool: ToolDefinition,
  params: unknown,
  context: ToolContext,
  signal: LazySignal,
  frame: CallFrame,
): ToolResult | Promise<ToolResult> {
  const returned = startHandler(tool, params, context, frame);
  const later = isThenable(returned);
  if (later && tool.synchronous && !frame.trackedOnRequest) {
    handlerSettled();
    throw promiseFromSynchronousHandler(returned);
  }
  if (!later) handlerSettled();
  // A signal that aborted while the handler ran interrupts the call, whatever it returned
  // (a late rejection of what it returned is then nobody's to handle).
  if (signal.aborted) {
    if (later) {
      const once = handlerSettledOnce();
      returned.then(once, once);
    }
    throw new InterruptedCall();
  }
  return later ? settled(returned, signal.listenable) : checkedResult(returned);
}

/** Calls the handler in `frame`, counted as running (a throw settles it at once). */
function startHandler(
  tool: ToolDefinition,
  params: unknown,
  context: ToolContext,
  frame: CallFrame,
): unknown {
  const handler = tool.handler as NonNullable<ToolDefinition['handler']>;
  handlerStarted();
  try {
    return runInCallFrame(frame, () => handler(params, context), tool.synchronous);
  } catch (error) {
    handlerSettled();
    throw error;
  }
}

/**
 * A handler declared synchronous returned a promise: its frame did not follow
 * what it awaits, so the call cannot keep its guarantees and fails, naming the
 * fix. What the promise settles to is dropped (its rejection handled here).
 */
function promiseFromSynchronousHandler(returned: PromiseLike<unknown>): TypeError {
  try {
    returned.then(undefined, () => undefined);
  } catch {
    // a `then` that throws: nothing is left to handle
  }
  return new TypeError(
    `the handler is declared synchronous but returned a promise; ${SYNCHRONOUS_FIX}`,
  );
}

const SYNCHRONOUS_FIX =
  "declare a @Tool method's return type as Promise<ToolResult<...>> (or make it async), " +
  'or leave out `synchronous: true` from a ToolDefinition whose handler may return a promise';

/** {@link handlerSettled} for one handler, however often a thenable calls back. */
function handlerSettledOnce(): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    handlerSettled();
  };
}

/**
 * What a handler's promise settles to, unless `signal` aborts first: one
 * promise, and a {@link HandlerWait} that listens for the abort itself, so a
 * call waiting on a slow handler holds little (no listener when nothing can
 * abort the call).
 */
function settled(
  returned: PromiseLike<unknown>,
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  return new Promise<ToolResult>((resolve, reject) => {
    const wait = new HandlerWait(signal, resolve, reject);
    try {
      returned.then(
        (outcome) => {
          wait.fulfil(outcome);
        },
        (error: unknown) => {
          wait.fail(error);
        },
      );
    } catch (error) {
      wait.fail(error); // a `then` that throws: the call fails with what it threw
      return;
    }
    if (!wait.done) signal?.addEventListener('abort', wait, { once: true });
  });
}

/**
 * The first of a handler's outcome, its failure and the signal's abort (a
 * thenable may call back at once, or more than once; a `then` that
 * throws rejects with what it threw). The abort listener itself.
 */
class HandlerWait {
  done = false;
  #handlerDone = false;
  readonly #signal: AbortSignal | undefined;
  readonly #resolve: (result: ToolResult) => void;
  readonly #reject: (reason: unknown) => void;

  constructor(
    signal: AbortSignal | undefined,
    resolve: (result: ToolResult) => void,
    reject: (reason: unknown) => void,
  ) {
    this.#signal = signal;
    this.#resolve = resolve;
    this.#reject = reject;
  }

  fulfil(outcome: unknown): void {
    this.#handlerSettled();
    if (!this.#finish()) return;
    try {
      this.#resolve(checkedResult(outcome));
    } catch (error) {
      this.#reject(error);
    }
  }

  fail(error: unknown): void {
    this.#handlerSettled();
    if (this.#finish()) this.#reject(error);
  }

  /** The signal aborted first. */
  handleEvent(): void {
    if (this.#finish()) this.#reject(new InterruptedCall());
  }

  /** What the handler returned settled (counted once, even for a thenable that calls back twice). */
  #handlerSettled(): void {
    if (this.#handlerDone) return;
    this.#handlerDone = true;
    handlerSettled();
  }

  #finish(): boolean {
    if (this.done) return false;
    this.done = true;
    this.#signal?.removeEventListener('abort', this);
    return true;
  }
}

/** `outcome` when it is a `ToolResult` with a text message; otherwise the `TypeError` naming the fix. */
function checkedResult(outcome: unknown): ToolResult {
  if (!(outcome instanceof ToolResult)) {
    throw new TypeError(
      `the handler returned ${describeValue(outcome)} instead of a ToolResult; return ToolResult.ok(value) or ToolResult.error(message)`,
    );
  }
  if (typeof outcome.message !== 'string') {
    throw new TypeError(
      `the handler returned a ToolResult whose message is ${describeValue(outcome.message)}, not a string; pass a text message, e.g. ToolResult.ok(value, 'Done.')`,
    );
  }
  return outcome;
}

/** A frame for one call of `tool`, nested in the current one; `lockedSession` when it holds that session's lock. @internal */
export function newCallFrame(
  tool: ToolDefinition,
  callId: string,
  lockedSession: object | undefined,
): CallFrame {
  return new CallFrame(tool.name, callId, lockedSession, currentCallFrame());
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') {
    try {
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      return typeof name === 'string' && name !== '' ? `an instance of ${name}` : 'an object';
    } catch {
      return 'an object';
    }
  }
  return `a ${typeof value}`;
}
