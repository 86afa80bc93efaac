/** A scheduled callback that can still be cancelled. */
export interface TimerHandle {
  /** Cancels the callback; does nothing once it has run. */
  cancel(): void;
}

/**
 * The source of time for deadlines, budgets and events. Inject a
 * `ManualClock` (from `affordance/testing`) in tests so nothing ever sleeps.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `callback` once, `delayMs` milliseconds from now. */
  setTimer(callback: () => void, delayMs: number): TimerHandle;
}

/**
 * The wall clock: `Date.now()` and `setTimeout`. Its timers are unref'd, so a
 * pending deadline never keeps the process alive.
 */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  setTimer(callback: () => void, delayMs: number): TimerHandle {
    const timer = setTimeout(callback, Math.max(0, delayMs));
    timer.unref();
    return {
      cancel: () => {
        clearTimeout(timer);
      },
    };
  },
});
