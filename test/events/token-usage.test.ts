import { ConfigurationError, TokenUsage } from 'affordance';

describe(TokenUsage, () => {
  describe('.totalTokens', () => {
    it('should add input and output, counting a missing side as zero', () => {
      expect(new TokenUsage({ inputTokens: 10, outputTokens: 5 }).totalTokens).toBe(15);
      expect(new TokenUsage({ outputTokens: 5, cachedTokens: 3 }).totalTokens).toBe(5);
    });

    it('should be undefined when neither input nor output was reported', () => {
      expect(new TokenUsage({ cachedTokens: 4 }).totalTokens).toBeUndefined();
    });
  });

  describe('.fromProviderUsage', () => {
    it('should read Responses API and Chat Completions field names', () => {
      const responses = TokenUsage.fromProviderUsage({
        input_tokens: 120,
        output_tokens: 30,
        input_tokens_details: { cached_tokens: 100 },
      });
      const chat = TokenUsage.fromProviderUsage({
        prompt_tokens: 7,
        completion_tokens: 2,
        prompt_tokens_details: { cached_tokens: 0 },
      });
      expect(responses).toEqual(
        new TokenUsage({ inputTokens: 120, outputTokens: 30, cachedTokens: 100 }),
      );
      expect(chat).toEqual(new TokenUsage({ inputTokens: 7, outputTokens: 2, cachedTokens: 0 }));
    });

    it('should read reasoning tokens from the output or completion details, or the top level', () => {
      const responses = TokenUsage.fromProviderUsage({
        input_tokens: 3737,
        input_tokens_details: { cached_tokens: 2304 },
        output_tokens: 621,
        output_tokens_details: { reasoning_tokens: 512 },
      });
      const chat = TokenUsage.fromProviderUsage({
        prompt_tokens: 40,
        completion_tokens: 300,
        completion_tokens_details: { reasoning_tokens: 256 },
      });
      const flat = TokenUsage.fromProviderUsage({ prompt_tokens: 5, reasoning_tokens: 2 });
      expect(responses?.toJSON()).toEqual({
        inputTokens: 3737,
        outputTokens: 621,
        cachedTokens: 2304,
        reasoningTokens: 512,
        totalTokens: 4358,
      });
      expect(chat?.reasoningTokens).toBe(256);
      expect(flat?.reasoningTokens).toBe(2);
    });

    it('should drop booleans, negatives and non-numbers and truncate fractions', () => {
      const usage = TokenUsage.fromProviderUsage({
        input_tokens: true,
        prompt_tokens: 12.9,
        output_tokens: -3,
        cached_tokens: '5',
      });
      expect(usage).toEqual(new TokenUsage({ inputTokens: 12 }));
    });

    it('should return undefined when nothing usable is present', () => {
      expect(TokenUsage.fromProviderUsage({ foo: 1 })).toBeUndefined();
      expect(TokenUsage.fromProviderUsage(null)).toBeUndefined();
    });
  });

  describe('.plus', () => {
    it('should sum counts and keep a count undefined only when both lack it', () => {
      const sum = new TokenUsage({ inputTokens: 1 }).plus(
        new TokenUsage({ inputTokens: 2, outputTokens: 3 }),
      );
      expect(sum).toEqual(new TokenUsage({ inputTokens: 3, outputTokens: 3 }));
      expect(sum.cachedTokens).toBeUndefined();
    });

    it('should sum cache writes and reasoning tokens', () => {
      const sum = new TokenUsage({ cacheWriteTokens: 5, reasoningTokens: 7 }).plus(
        new TokenUsage({ reasoningTokens: 1 }),
      );
      expect([sum.cacheWriteTokens, sum.reasoningTokens]).toEqual([5, 8]);
    });
  });

  it('should reject negative and fractional counts', () => {
    expect(() => new TokenUsage({ inputTokens: -1 })).toThrow(ConfigurationError);
    expect(() => new TokenUsage({ outputTokens: 1.5 })).toThrow(/TokenUsage.outputTokens/);
    expect(() => new TokenUsage({ reasoningTokens: -2 })).toThrow(/TokenUsage.reasoningTokens/);
    expect(() => new TokenUsage({ cacheWriteTokens: 0.5 })).toThrow(/TokenUsage.cacheWriteTokens/);
  });

  it('should serialise with its total', () => {
    expect(JSON.stringify(new TokenUsage({ inputTokens: 2, outputTokens: 1 }))).toBe(
      '{"inputTokens":2,"outputTokens":1,"totalTokens":3}',
    );
  });

  it('should be frozen', () => {
    expect(Object.isFrozen(new TokenUsage())).toBe(true);
  });
});
