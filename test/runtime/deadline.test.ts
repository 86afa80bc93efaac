import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { DeadlineExceededError } from '../../src/core/errors/deadline-exceeded-error.js';
import { systemClock } from '../../src/core/clock.js';
import { Deadline } from '../../src/runtime/limits/deadline.js';
import { ManualClock } from '../../src/testing/manual-clock.js';

const start = Date.UTC(2026, 0, 1);

describe(Deadline, () => {
  describe('.in', () => {
    it('should be an absolute time that many milliseconds from now', () => {
      const clock = new ManualClock(start);
      const deadline = Deadline.in(30_000, { clock });
      expect(deadline.expiresAt.toISOString()).toBe('2026-01-01T00:00:30.000Z');
      expect(deadline.remaining()).toBe(30_000);
    });

    it('should reject a non-finite duration', () => {
      expect(() => Deadline.in(Number.POSITIVE_INFINITY)).toThrow(ConfigurationError);
    });

    it('should accept Deadline.in(minLeadMs) on a clock that moves between reads', () => {
      // Every read a millisecond later, as on a loaded machine: the lead is measured from one reading.
      let now = start;
      const movingClock = {
        now: () => (now += 1),
        setTimer: () => ({ cancel: () => undefined }),
      };
      const deadline = Deadline.in(Deadline.minLeadMs, { clock: movingClock });
      expect(deadline.expiresAtMs).toBe(start + 1 + Deadline.minLeadMs);
      expect(() => Deadline.in(Deadline.minLeadMs - 1, { clock: movingClock })).toThrow(
        'must be at least one second in the future',
      );
    });
  });

  describe('.at', () => {
    it('should accept a Date or epoch milliseconds', () => {
      const clock = new ManualClock(start);
      expect(Deadline.at(new Date(start + 5_000), { clock }).expiresAtMs).toBe(start + 5_000);
      expect(Deadline.at(start + 5_000, { clock }).toJSON()).toBe('2026-01-01T00:00:05.000Z');
    });

    it('should reject a time in the past or now', () => {
      const clock = new ManualClock(start);
      expect(() => Deadline.at(start - 1, { clock })).toThrow(/must be in the future/);
      expect(() => Deadline.at(start, { clock })).toThrow(/must be in the future/);
    });

    it('should reject a time less than one second ahead', () => {
      const clock = new ManualClock(start);
      expect(() => Deadline.at(start + 999, { clock })).toThrow(/at least one second/);
      expect(Deadline.at(start + 1_000, { clock }).remaining()).toBe(1_000);
    });

    it('should reject a time more than 24 hours ahead', () => {
      const clock = new ManualClock(start);
      const day = 24 * 60 * 60 * 1_000;
      expect(Deadline.in(day, { clock }).remaining()).toBe(day);
      expect(() => Deadline.in(day + 1, { clock })).toThrow(/at most 24 hours/);
    });

    it('should reject an invalid Date and non-finite numbers', () => {
      expect(() => Deadline.at(new Date('not a date'))).toThrow(ConfigurationError);
      expect(() => Deadline.at(Number.NaN)).toThrow(/valid Date or finite epoch/);
    });
  });

  describe('.remaining', () => {
    it('should shrink as the clock moves and stop at zero', () => {
      const clock = new ManualClock(start);
      const deadline = Deadline.in(2_000, { clock });
      clock.advance(500);
      expect(deadline.remaining()).toBe(1_500);
      expect(deadline.expired).toBe(false);
      clock.advance(5_000);
      expect(deadline.remaining()).toBe(0);
      expect(deadline.expired).toBe(true);
    });
  });

  describe('.signal', () => {
    it('should abort with a DeadlineExceededError when a manual clock passes the deadline', () => {
      const clock = new ManualClock(start);
      const deadline = Deadline.in(2_000, { clock });
      const signal = deadline.signal;
      const aborted: unknown[] = [];
      signal.addEventListener('abort', () => aborted.push(signal.reason));

      clock.advance(1_999);
      expect(signal.aborted).toBe(false);
      clock.advance(1);

      expect(signal.aborted).toBe(true);
      expect(aborted).toHaveLength(1);
      expect(DeadlineExceededError.is(signal.reason)).toBe(true);
      expect((signal.reason as DeadlineExceededError).deadline).toEqual(deadline.expiresAt);
    });

    it('should be aborted already when first read after the deadline', () => {
      const clock = new ManualClock(start);
      const deadline = Deadline.in(1_000, { clock });
      clock.advance(1_000);
      expect(deadline.signal.aborted).toBe(true);
    });

    it('should be the same signal on every read', () => {
      const deadline = Deadline.in(1_000, { clock: new ManualClock(start) });
      expect(deadline.signal).toBe(deadline.signal);
    });

    it('should re-arm when a timer fires before the clock reaches the deadline', () => {
      let now = start;
      const timers: (() => void)[] = [];
      const earlyClock = {
        now: () => now,
        setTimer: (callback: () => void) => {
          timers.push(callback);
          return { cancel: () => undefined };
        },
      };
      const deadline = Deadline.in(1_000, { clock: earlyClock });
      const signal = deadline.signal;

      now = start + 999;
      timers.shift()?.();
      expect(signal.aborted).toBe(false);
      expect(timers).toHaveLength(1);

      now = start + 1_000;
      timers.shift()?.();
      expect(signal.aborted).toBe(true);
    });

    it('should work with the system clock', async () => {
      // Five seconds ahead: one second exactly could be 999 ms away by the time the constructor reads the clock.
      const deadline = new Deadline(systemClock.now() + 5_000);
      expect(deadline.signal.aborted).toBe(false);
      expect(deadline.remaining()).toBeGreaterThan(0);
      await Promise.resolve();
    });
  });

  describe('.throwIfExpired', () => {
    it('should throw a DeadlineExceededError naming the activity once expired', () => {
      const clock = new ManualClock(start);
      const deadline = Deadline.in(1_000, { clock });
      expect(() => {
        deadline.throwIfExpired('the provider request');
      }).not.toThrow();
      clock.advance(1_000);
      expect(() => {
        deadline.throwIfExpired('the provider request');
      }).toThrow(
        'Deadline 2026-01-01T00:00:01.000Z expired before the provider request. Allow more time with a later Deadline, or do less work per evaluation.',
      );
    });
  });

  it('should keep working when frozen inside session state', () => {
    const clock = new ManualClock(start);
    const deadline = Object.freeze(Deadline.in(1_000, { clock }));
    expect(deadline.signal.aborted).toBe(false);
    clock.advance(1_000);
    expect(deadline.signal.aborted).toBe(true);
  });
});
