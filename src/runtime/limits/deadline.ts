import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { DeadlineExceededError } from '../../core/errors/deadline-exceeded-error.js';
import { type Clock, systemClock, type TimerHandle } from '../../core/clock.js';

/** Options of {@link Deadline} factories. */
export interface DeadlineOptions {
  /** The clock that decides when the deadline passes; defaults to {@link systemClock}. */
  readonly clock?: Clock;
}

const second = 1_000;
const day = 24 * 60 * 60 * second;

/**
 * An absolute point in time by which an evaluation must finish. It must lie
 * between one second and 24 hours ahead when created. Tools read `remaining()`
 * or pass `signal` (aborted when the deadline passes) to cancellable work.
 */
export class Deadline {
  /** The smallest lead time accepted at creation, in milliseconds. */
  static readonly minLeadMs = second;
  /** The largest lead time accepted at creation, in milliseconds. */
  static readonly maxLeadMs = day;

  /** The clock this deadline is measured against. */
  readonly clock: Clock;
  /** When the deadline passes, in milliseconds since the epoch. */
  readonly expiresAtMs: number;
  // A private field, so the deadline still works when frozen (e.g. inside session state).
  #controller: AbortController | undefined;
  /** Who {@link Deadline.watch}es the deadline, and the timer that runs only while someone does. */
  #watchers: Set<(reason: DeadlineExceededError) => void> | undefined;
  #watchTimer: TimerHandle | undefined;
  /**
   * The time {@link Deadline.in} measured its lead from, for the constructor
   * to check against: reading the clock again could find a millisecond gone,
   * and `Deadline.in(1_000)` would then be refused as 999 ms away.
   */
  static #creationNow: number | undefined;

  /** @param expiresAt the absolute time; see {@link Deadline.at}. */
  constructor(expiresAt: Date | number, options: DeadlineOptions = {}) {
    this.clock = options.clock ?? systemClock;
    const now = Deadline.#creationNow ?? this.clock.now();
    Deadline.#creationNow = undefined;
    this.expiresAtMs = validate(expiresAt, now);
  }

  /** A deadline `ms` milliseconds from now, e.g. `Deadline.in(30_000)`. */
  static in(ms: number, options: DeadlineOptions = {}): Deadline {
    if (!Number.isFinite(ms)) {
      throw new ConfigurationError({
        subject: 'Deadline.in',
        problem: `expected a finite number of milliseconds, got ${String(ms)}.`,
        fix: 'Pass how long the evaluation may take, e.g. Deadline.in(30_000) for 30 seconds.',
      });
    }
    const clock = options.clock ?? systemClock;
    const now = clock.now();
    Deadline.#creationNow = now;
    try {
      return new Deadline(now + ms, { clock });
    } finally {
      Deadline.#creationNow = undefined;
    }
  }

  /** A deadline at an absolute time (a `Date` or epoch milliseconds). */
  static at(time: Date | number, options: DeadlineOptions = {}): Deadline {
    return new Deadline(time, options);
  }

  /** When the deadline passes, as a new `Date`. */
  get expiresAt(): Date {
    return new Date(this.expiresAtMs);
  }

  /** Milliseconds left, never negative. */
  remaining(): number {
    return Math.max(0, this.expiresAtMs - this.clock.now());
  }

  /** Whether the deadline has passed. */
  get expired(): boolean {
    return this.clock.now() >= this.expiresAtMs;
  }

  /**
   * An `AbortSignal` that aborts, with a {@link DeadlineExceededError} as its
   * reason, when the deadline passes. Created on first use and shared afterwards.
   */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = new AbortController();
      this.#controller = controller;
      this.#arm(controller);
    }
    return this.#controller.signal;
  }

  /**
   * Calls `onExpired` once, with the {@link DeadlineExceededError}, when the
   * deadline passes, unless the returned function was called first (at once
   * when it has already passed). The timer of {@link Deadline.signal} stays
   * armed until the deadline passes, since anyone may read `signal.aborted`;
   * the timer behind watchers runs only while one is registered, so work
   * that ends early (an evaluation) leaves no timer holding the deadline.
   * @internal
   */
  watch(onExpired: (reason: DeadlineExceededError) => void): () => void {
    if (this.#controller !== undefined) {
      const signal = this.#controller.signal;
      if (signal.aborted) {
        onExpired(signal.reason as DeadlineExceededError);
        return noop;
      }
      const listener = (): void => {
        onExpired(signal.reason as DeadlineExceededError);
      };
      signal.addEventListener('abort', listener, { once: true });
      return () => {
        signal.removeEventListener('abort', listener);
      };
    }
    if (this.expired) {
      onExpired(this.#exceededError());
      return noop;
    }
    // A listener of its own (not `onExpired` itself), so watching twice with one function stays two watches.
    const watcher = (reason: DeadlineExceededError): void => {
      onExpired(reason);
    };
    const watchers = (this.#watchers ??= new Set());
    watchers.add(watcher);
    if (this.#watchTimer === undefined) this.#armWatchers(watchers);
    return () => {
      if (!watchers.delete(watcher) || watchers.size > 0) return;
      this.#watchTimer?.cancel();
      this.#watchTimer = undefined;
    };
  }

  /** Throws a {@link DeadlineExceededError} if the deadline has passed; `activity` names what was about to start. */
  throwIfExpired(activity?: string): void {
    if (this.expired) throw this.#exceededError(activity);
  }

  /** The ISO timestamp of the deadline. */
  toJSON(): string {
    return this.expiresAt.toISOString();
  }

  /** `Deadline(2026-01-01T00:00:30.000Z)`. */
  toString(): string {
    return `Deadline(${this.toJSON()})`;
  }

  #exceededError(activity?: string): DeadlineExceededError {
    const when = activity === undefined ? '' : ` before ${activity}`;
    return new DeadlineExceededError(
      `Deadline ${this.toJSON()} expired${when}. Allow more time with a later Deadline, or do less work per evaluation.`,
      { deadline: this.expiresAt },
    );
  }

  #arm(controller: AbortController): void {
    const left = this.expiresAtMs - this.clock.now();
    if (left <= 0) {
      controller.abort(this.#exceededError());
      return;
    }
    // Timers may fire a little early against the clock's own reading; check and re-arm.
    this.clock.setTimer(() => {
      this.#arm(controller);
    }, left);
  }

  #armWatchers(watchers: Set<(reason: DeadlineExceededError) => void>): void {
    const left = this.expiresAtMs - this.clock.now();
    if (left > 0) {
      // As in #arm: a timer may fire a little early against the clock; check and re-arm.
      this.#watchTimer = this.clock.setTimer(() => {
        this.#armWatchers(watchers);
      }, left);
      return;
    }
    this.#watchTimer = undefined;
    const due = [...watchers];
    watchers.clear();
    const reason = this.#exceededError();
    for (const watcher of due) watcher(reason);
  }
}

const noop = (): void => undefined;

function validate(expiresAt: Date | number, now: number): number {
  const ms = expiresAt instanceof Date ? expiresAt.getTime() : expiresAt;
  if (typeof ms !== 'number' || !Number.isFinite(ms)) {
    throw new ConfigurationError({
      subject: 'Deadline',
      problem: `expected a valid Date or finite epoch milliseconds, got ${String(expiresAt)}.`,
      fix: 'Use Deadline.in(ms) or Deadline.at(date) with a real time.',
    });
  }
  const lead = ms - now;
  if (lead <= 0) {
    throw new ConfigurationError({
      subject: 'Deadline',
      problem: `${new Date(ms).toISOString()} must be in the future (now is ${new Date(now).toISOString()}).`,
      fix: 'Pass a time after now, e.g. Deadline.in(30_000).',
    });
  }
  if (lead < Deadline.minLeadMs) {
    throw new ConfigurationError({
      subject: 'Deadline',
      problem: `must be at least one second in the future; ${new Date(ms).toISOString()} is ${lead} ms away.`,
      fix: 'Give the evaluation at least one second, e.g. Deadline.in(1_000).',
    });
  }
  if (lead > Deadline.maxLeadMs) {
    throw new ConfigurationError({
      subject: 'Deadline',
      problem: `must be at most 24 hours in the future; ${new Date(ms).toISOString()} is ${lead} ms away.`,
      fix: 'Leave the deadline out for an unbounded evaluation, or pick a time within 24 hours.',
    });
  }
  return ms;
}
