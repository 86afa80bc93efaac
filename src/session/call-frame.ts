import { AsyncLocalStorage } from 'node:async_hooks';

import { boundText } from '../core/errors/bound-text.js';
import { ToolCallClosedError } from '../core/errors/tool-call-closed-error.js';
import { Mutex } from './mutex.js';

/**
 * One running tool call as the sessions see it, carried through everything
 * the handler awaits (timers and nested evaluations included). It tells a
 * session which calls are nested in which, so the write lock is re-entrant
 * for nested work, and it is closed when the call is rolled back, so writes
 * its handler makes afterwards are refused. @internal
 */
export class CallFrame {
  /** The session whose write lock the call holds, if it holds one. */
  readonly lockedSession: object | undefined;
  /** The tool's name, for messages. */
  readonly toolName: string;
  /** The provider's id of the call, for messages. */
  readonly callId: string;
  /** The call this one runs inside, if any. */
  readonly parent: CallFrame | undefined;
  /**
   * Whether the call's code asked for its frame to follow what it awaits
   * although the call started untracked (see {@link trackCallFrame}).
   */
  trackedOnRequest = false;
  #children: Mutex | undefined;
  #closedBecause: string | undefined;
  #ended = false;

  constructor(
    toolName: string,
    callId: string,
    lockedSession: object | undefined,
    parent: CallFrame | undefined,
  ) {
    this.toolName = toolName;
    this.callId = callId;
    this.lockedSession = lockedSession;
    this.parent = parent;
  }

  /** `Tool 'name' (call id)`, for messages; built only when one is needed. */
  get label(): string {
    return `Tool '${this.toolName}' (call ${boundText(this.callId, 100)})`;
  }

  /** Serialises the state-changing calls nested inside this one. */
  get children(): Mutex {
    this.#children ??= new Mutex();
    return this.#children;
  }

  /** Why writes from this call are refused, once it was rolled back. */
  get closedBecause(): string | undefined {
    return this.#closedBecause;
  }

  /** Whether the call has returned to the executor (its lock is no longer held). */
  get ended(): boolean {
    return this.#ended;
  }

  /** Marks the call finished; nested work started later no longer counts as inside it. */
  end(): void {
    this.#ended = true;
  }

  /** Refuses every later write from this call (and what runs inside it), saying `reason`. */
  close(reason: string): void {
    this.#closedBecause ??= reason;
    this.#ended = true;
  }
}

const frames = new AsyncLocalStorage<CallFrame | undefined>();

/*
 * A handler declared synchronous (see `ToolDefinition.synchronous`) runs with
 * its frame in `syncFrame` instead, for as long as it runs: it makes no
 * promise of its own, so nothing needs to carry the frame across an `await`,
 * and the promise hooks below stay off. `tracking` says whether `frames` is
 * enabled (only this module enables or disables it).
 */
let syncFrame: CallFrame | undefined;
let tracking = false;

/** The innermost tool call the current code runs in, if any. @internal */
export function currentCallFrame(): CallFrame | undefined {
  return syncFrame ?? (tracking ? frames.getStore() : undefined);
}

/**
 * Runs `fn` as the code of `frame`'s call. With `untracked` (a handler that
 * returns at once), the frame is known only while `fn` runs, unless tracking
 * is on anyway; otherwise it follows everything `fn` awaits. @internal
 */
export function runInCallFrame<R>(frame: CallFrame, fn: () => R, untracked = false): R {
  const outer = syncFrame;
  if (untracked && !tracking) {
    syncFrame = frame;
    try {
      return fn();
    } finally {
      syncFrame = outer;
    }
  }
  tracking = true;
  if (outer === undefined) return frames.run(frame, fn);
  syncFrame = undefined;
  try {
    return frames.run(frame, fn);
  } finally {
    syncFrame = outer;
  }
}

/**
 * Runs `fn` so the current call's frame follows everything it awaits, even
 * when the call started untracked: for code inside a handler declared
 * synchronous that turns out to call something that may return a promise (a
 * `@Tool` method replaced on the resolved instance). @internal
 */
export function trackCallFrame<R>(fn: () => R): R {
  const frame = currentCallFrame();
  if (frame === undefined) return fn();
  frame.trackedOnRequest = true;
  return syncFrame === undefined ? fn() : runInCallFrame(frame, fn);
}

/*
 * On Node 20 an enabled AsyncLocalStorage turns on promise hooks for the whole
 * process: every promise anywhere (the HTTP client's, the application's own
 * server's) pays for an id record and two callbacks; the bare SDK loop of the
 * OpenAI loop bench took 14.7 ms per conversation with them on, 12.7 ms
 * without. So frames are tracked only while a handler runs: from its start
 * until what it returned settles. Switching the hooks on and off costs a few
 * microseconds, so tracking stops when a turn's calls are recorded
 * ({@link callsRecorded}), at most once per turn of the event loop (calls
 * dispatched back to back in a tight loop keep it until that turn ends), and
 * otherwise at the end of the event-loop turn in which the last handler
 * settled.
 */
let runningHandlers = 0;
let turnEnd: ReturnType<typeof setImmediate> | undefined;
let stoppedThisTurn = false;

/** A handler starts; frames are tracked until it is {@link handlerSettled}. @internal */
export function handlerStarted(): void {
  runningHandlers += 1;
}

/**
 * What a handler returned settled (or it threw). Call once per
 * {@link handlerStarted}. @internal
 */
export function handlerSettled(): void {
  runningHandlers -= 1;
  if (runningHandlers === 0 && tracking) endTurnLater();
}

/** A batch of calls was recorded: tracking stops now if no handler runs (see above). @internal */
export function callsRecorded(): void {
  if (!tracking || runningHandlers !== 0 || stoppedThisTurn) return;
  stoppedThisTurn = true;
  stopTracking();
  endTurnLater();
}

function endTurnLater(): void {
  if (turnEnd !== undefined) return;
  turnEnd = setImmediate(endTurn);
  turnEnd.unref();
}

function endTurn(): void {
  turnEnd = undefined;
  stoppedThisTurn = false;
  if (runningHandlers === 0) stopTracking();
}

function stopTracking(): void {
  tracking = false;
  frames.disable();
}

/**
 * Runs `fn` as code of no tool call: for recording what a call that was
 * rolled back did (its failed or unknown outcome), which is history, not a
 * change it makes. @internal
 */
export function outsideCallFrames<R>(fn: () => R): R {
  const outer = syncFrame;
  syncFrame = undefined;
  try {
    // `run(undefined)` rather than `exit`: on Node 20, `exit` switches the promise hooks off and on.
    return tracking ? frames.run(undefined, fn) : fn();
  } finally {
    syncFrame = outer;
  }
}

/**
 * Throws when the current code belongs to a tool call that was rolled back
 * (interrupted by a deadline or cancellation, or failed): its changes were
 * undone, so a late write must not bring them back. `action` says what was
 * refused (called only on refusal), e.g. `a write to session 1234`. @internal
 */
export function assertCallOpen(action: () => string): void;
/** The same, with `action` called with `subject`: no closure to make on every check. @internal */
export function assertCallOpen<S>(action: (subject: S) => string, subject: S): void;
export function assertCallOpen(action: (subject?: unknown) => string, subject?: unknown): void {
  for (let frame = currentCallFrame(); frame !== undefined; frame = frame.parent) {
    const reason = frame.closedBecause;
    if (reason !== undefined) throw new ToolCallClosedError(frame.label, reason, action(subject));
  }
}

const roots = new WeakMap<object, Mutex>();

/**
 * The lock a state-changing call on `session` must hold: the lock of the
 * enclosing call that holds `session` (nested work waits only for its
 * siblings), else the session's own.
 * @throws ToolCallClosedError when the current call was rolled back.
 * @internal
 */
export function sessionLock(session: object): Mutex {
  assertCallOpen(describeNewCall, session);
  for (let frame = currentCallFrame(); frame !== undefined; frame = frame.parent) {
    if (frame.lockedSession === session && !frame.ended) return frame.children;
  }
  let root = roots.get(session);
  if (root === undefined) {
    root = new Mutex();
    roots.set(session, root);
  }
  return root;
}

function describeNewCall(session: object): string {
  return `a new state-changing call on session ${describeSession(session)}`;
}

function describeSession(session: object): string {
  const id = (session as { sessionId?: unknown }).sessionId;
  return typeof id === 'string' ? id : '(unnamed)';
}
