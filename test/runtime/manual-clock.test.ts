import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { ManualClock } from '../../src/testing/manual-clock.js';

describe(ManualClock, () => {
  it('should start at 2026-01-01T00:00:00Z unless told otherwise', () => {
    expect(new Date(new ManualClock().now()).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(new ManualClock(5).now()).toBe(5);
  });

  describe('.advance', () => {
    it('should run due timers in time order with now() at each due time', () => {
      const clock = new ManualClock(0);
      const fired: [string, number][] = [];
      clock.setTimer(() => fired.push(['late', clock.now()]), 300);
      clock.setTimer(() => fired.push(['early', clock.now()]), 100);
      clock.setTimer(() => fired.push(['never', clock.now()]), 1_000);

      clock.advance(500);

      expect(fired).toEqual([
        ['early', 100],
        ['late', 300],
      ]);
      expect(clock.now()).toBe(500);
      expect(clock.pendingTimers).toBe(1);
    });

    it('should run timers scheduled by timers when they fall due in the same advance', () => {
      const clock = new ManualClock(0);
      const fired: number[] = [];
      clock.setTimer(() => {
        fired.push(clock.now());
        clock.setTimer(() => fired.push(clock.now()), 50);
      }, 100);
      clock.advance(200);
      expect(fired).toEqual([100, 150]);
    });

    it('should skip cancelled timers', () => {
      const clock = new ManualClock(0);
      let fired = false;
      clock.setTimer(() => (fired = true), 10).cancel();
      clock.advance(20);
      expect(fired).toBe(false);
      expect(clock.pendingTimers).toBe(0);
    });

    it('should reject negative and non-finite steps', () => {
      const clock = new ManualClock();
      expect(() => {
        clock.advance(-1);
      }).toThrow(ConfigurationError);
      expect(() => {
        clock.advance(Number.NaN);
      }).toThrow(ConfigurationError);
    });
  });

  describe('.set', () => {
    it('should move to an absolute time but never backwards', () => {
      const clock = new ManualClock(1_000);
      clock.set(new Date(2_000));
      expect(clock.now()).toBe(2_000);
      expect(() => {
        clock.set(1_500);
      }).toThrow(/cannot move backwards/);
    });
  });
});
