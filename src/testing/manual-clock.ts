import { type Clock, ConfigurationError, type TimerHandle } from '../index.js';

interface PendingTimer {
  readonly at: number;
  readonly order: number;
  readonly callback: () => void;
  cancelled: boolean;
}

/**
 * A clock that only moves when told to. `advance()` runs every timer that
 * falls due, in time order, with `now()` set to each timer's due time. Use it
 * in tests of deadlines and timeouts instead of sleeping.
 */
export class ManualClock implements Clock {
  private current: number;
  private timers: PendingTimer[] = [];
  private sequence = 0;

  /** @param start the initial time; defaults to 2026-01-01T00:00:00Z. */
  constructor(start: Date | number = Date.UTC(2026, 0, 1)) {
    this.current = toEpochMs(start, 'ManualClock start');
  }

  /** The current manual time in milliseconds since the epoch. */
  now(): number {
    return this.current;
  }

  /** Schedules `callback` at `now() + delayMs`; it runs during a later `advance()` or `set()`. */
  setTimer(callback: () => void, delayMs: number): TimerHandle {
    const timer: PendingTimer = {
      at: this.current + Math.max(0, delayMs),
      order: this.sequence++,
      callback,
      cancelled: false,
    };
    this.timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  /** Number of timers that have neither run nor been cancelled. */
  get pendingTimers(): number {
    return this.timers.filter((timer) => !timer.cancelled).length;
  }

  /** Moves time forward by `ms` and runs the timers that fall due. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new ConfigurationError({
        subject: 'ManualClock.advance',
        problem: `expected a finite, non-negative number of milliseconds, got ${String(ms)}.`,
        fix: 'Pass how far to move the clock, e.g. clock.advance(1_000).',
      });
    }
    this.runUntil(this.current + ms);
  }

  /** Moves time to `time` (never backwards) and runs the timers that fall due. */
  set(time: Date | number): void {
    const target = toEpochMs(time, 'ManualClock.set');
    if (target < this.current) {
      throw new ConfigurationError({
        subject: 'ManualClock.set',
        problem: 'time cannot move backwards.',
        fix: `Pass a time at or after ${new Date(this.current).toISOString()}.`,
      });
    }
    this.runUntil(target);
  }

  private runUntil(target: number): void {
    for (;;) {
      const next = this.nextDue(target);
      if (next === undefined) break;
      this.timers = this.timers.filter((timer) => timer !== next);
      this.current = next.at;
      next.callback();
    }
    this.timers = this.timers.filter((timer) => !timer.cancelled);
    this.current = target;
  }

  private nextDue(target: number): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const timer of this.timers) {
      if (timer.cancelled || timer.at > target) continue;
      if (
        best === undefined ||
        timer.at < best.at ||
        (timer.at === best.at && timer.order < best.order)
      ) {
        best = timer;
      }
    }
    return best;
  }
}

function toEpochMs(time: Date | number, subject: string): number {
  const ms = time instanceof Date ? time.getTime() : time;
  if (!Number.isFinite(ms)) {
    throw new ConfigurationError({
      subject,
      problem: `expected a valid Date or epoch milliseconds, got ${String(time)}.`,
      fix: 'Pass a Date such as new Date("2026-01-01T00:00:00Z") or a finite number.',
    });
  }
  return ms;
}
