import { PromptExecuted } from '../../src/runtime/events/prompt-executed.js';
import { TokenUsage } from '../../src/provider/token-usage.js';

const context = { promptName: 'ns/key', promptNs: 'ns', promptKey: 'key', adapter: 'openai' };

describe(PromptExecuted, () => {
  it('should carry the response, usage and duration, frozen', () => {
    const usage = new TokenUsage({ inputTokens: 10, outputTokens: 2 });
    const event = new PromptExecuted({
      ...context,
      result: { text: 'done', output: null },
      usage,
      durationMs: 40,
    });
    expect(event.result).toEqual({ text: 'done', output: null });
    expect(event.usage).toBe(usage);
    expect(event.durationMs).toBe(40);
    expect(Object.isFrozen(event)).toBe(true);
  });

  it('should let a subclass add fields (only the exact class freezes itself)', () => {
    class TaggedExecuted extends PromptExecuted {
      readonly label: string;
      constructor(label: string) {
        super({ ...context, result: { text: null, output: null } });
        this.label = label;
        Object.freeze(this);
      }
    }
    expect(new TaggedExecuted('x').label).toBe('x');
  });
});
