import { BudgetExceededError } from '../../src/core/errors/budget-exceeded-error.js';
import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { DeadlineExceededError } from '../../src/core/errors/deadline-exceeded-error.js';
import { TokenUsage } from '../../src/provider/token-usage.js';
import { Budget } from '../../src/runtime/limits/budget.js';
import { BudgetTracker } from '../../src/runtime/limits/budget-tracker.js';
import { Deadline } from '../../src/runtime/limits/deadline.js';
import { ManualClock } from '../../src/testing/manual-clock.js';

function usage(inputTokens: number, outputTokens: number): TokenUsage {
  return new TokenUsage({ inputTokens, outputTokens });
}

function thrownBy(fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe(BudgetTracker, () => {
  describe('.recordCumulative', () => {
    it('should replace an evaluation’s earlier report and sum across evaluations', () => {
      const tracker = new BudgetTracker(new Budget({ maxTotalTokens: 1_000 }));
      tracker.recordCumulative('parent', usage(10, 1));
      tracker.recordCumulative('parent', usage(30, 4));
      tracker.recordCumulative('child', usage(5, 5));

      expect(tracker.usageFor('parent')).toEqual(usage(30, 4));
      expect(tracker.consumed).toEqual(usage(35, 9));
      expect(tracker.evaluationIds).toEqual(['parent', 'child']);
    });

    it('should reject an empty evaluation id and a usage that is not a TokenUsage', () => {
      const tracker = new BudgetTracker(new Budget({ maxTotalTokens: 1 }));
      expect(() => {
        tracker.recordCumulative('', usage(1, 1));
      }).toThrow(ConfigurationError);
      expect(() => {
        tracker.recordCumulative('e', { inputTokens: 1 } as never);
      }).toThrow(/expected a TokenUsage/);
    });
  });

  describe('.check', () => {
    it('should pass at exactly the limit and fail one token over, naming the dimension', () => {
      const tracker = new BudgetTracker(new Budget({ maxTotalTokens: 100 }));
      tracker.recordCumulative('e', usage(60, 40));
      expect(() => {
        tracker.check();
      }).not.toThrow();

      tracker.recordCumulative('e', usage(60, 41));
      const error = thrownBy(() => {
        tracker.check();
      });
      expect(BudgetExceededError.is(error)).toBe(true);
      expect(error).toMatchObject({ dimension: 'totalTokens', limit: 100, used: 101 });
      expect((error as Error).message).toContain('totalTokens used 101 of 100');
    });

    it('should check input, then output, then total', () => {
      const tracker = new BudgetTracker(
        new Budget({ maxInputTokens: 10, maxOutputTokens: 10, maxTotalTokens: 15 }),
      );
      tracker.recordCumulative('e', usage(11, 11));
      expect(
        thrownBy(() => {
          tracker.check();
        }),
      ).toMatchObject({ dimension: 'inputTokens' });
      tracker.recordCumulative('e', usage(10, 11));
      expect(
        thrownBy(() => {
          tracker.check();
        }),
      ).toMatchObject({ dimension: 'outputTokens' });
      tracker.recordCumulative('e', usage(10, 10));
      expect(
        thrownBy(() => {
          tracker.check();
        }),
      ).toMatchObject({ dimension: 'totalTokens', used: 20 });
    });

    it('should check the deadline first', () => {
      const clock = new ManualClock();
      const tracker = new BudgetTracker(
        new Budget({ deadline: Deadline.in(1_000, { clock }), maxInputTokens: 1 }),
      );
      tracker.recordCumulative('e', usage(5, 0));
      clock.advance(1_000);
      expect(
        DeadlineExceededError.is(
          thrownBy(() => {
            tracker.check();
          }),
        ),
      ).toBe(true);
    });

    it('should count usage shared by nested evaluations against one budget', () => {
      const tracker = new BudgetTracker(new Budget({ maxOutputTokens: 10 }));
      tracker.recordCumulative('parent', usage(0, 6));
      tracker.recordCumulative('child', usage(0, 5));
      expect(
        thrownBy(() => {
          tracker.check();
        }),
      ).toMatchObject({
        dimension: 'outputTokens',
        used: 11,
      });
    });
  });

  describe('.remaining', () => {
    it('should report the tokens left for each limited dimension, never below zero', () => {
      const tracker = new BudgetTracker(new Budget({ maxInputTokens: 10, maxTotalTokens: 12 }));
      tracker.recordCumulative('e', usage(4, 9));
      expect(tracker.remaining()).toEqual({ inputTokens: 6, totalTokens: 0 });
    });
  });
});
