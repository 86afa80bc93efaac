import { sessionLock } from '../session/call-frame.js';
import type { Session } from '../session/session.js';
import type { LazySignal } from './scope/followed-signal.js';

/** Gives the lock back. @internal */
export type ReleaseLock = () => void;

/**
 * Takes the write lock of `session` for the current code (the enclosing
 * call's nested lock inside a call that holds it): at once when it is free,
 * otherwise a promise that waits in line and rejects with `signal`'s reason
 * if it aborts first (its `AbortSignal` is made only then). State-changing tool calls hold it from their snapshot to
 * their recorded `ToolInvoked`, so one call's rollback cannot erase another's
 * work. @internal
 */
export function acquireSessionLock(
  session: Session,
  signal: LazySignal | undefined,
): ReleaseLock | Promise<ReleaseLock> {
  const mutex = sessionLock(session);
  let released = false;
  const release: ReleaseLock = () => {
    if (released) return;
    released = true;
    mutex.release();
  };
  if (mutex.tryAcquire()) return release;
  return mutex.acquire(signal?.listenable).then(() => release);
}
