import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { Budget } from '../../src/runtime/limits/budget.js';
import { Deadline } from '../../src/runtime/limits/deadline.js';
import { ManualClock } from '../../src/testing/manual-clock.js';

describe(Budget, () => {
  it('should require at least one limit', () => {
    expect(() => new Budget({})).toThrow('Budget: requires at least one limit to be set.');
  });

  it('should accept a deadline alone', () => {
    const deadline = Deadline.in(5_000, { clock: new ManualClock() });
    expect(new Budget({ deadline }).deadline).toBe(deadline);
  });

  it('should reject limits that are not positive integers', () => {
    expect(() => new Budget({ maxTotalTokens: 0 })).toThrow(
      /Budget.maxTotalTokens: must be a positive integer/,
    );
    expect(() => new Budget({ maxInputTokens: -5 })).toThrow(ConfigurationError);
    expect(() => new Budget({ maxOutputTokens: 1.5 })).toThrow(ConfigurationError);
  });

  describe('.limitOf', () => {
    it('should return the limit of each dimension', () => {
      const budget = new Budget({ maxTotalTokens: 3, maxInputTokens: 1, maxOutputTokens: 2 });
      expect(budget.limitOf('inputTokens')).toBe(1);
      expect(budget.limitOf('outputTokens')).toBe(2);
      expect(budget.limitOf('totalTokens')).toBe(3);
    });
  });

  it('should be frozen', () => {
    expect(Object.isFrozen(new Budget({ maxTotalTokens: 1 }))).toBe(true);
  });
});
