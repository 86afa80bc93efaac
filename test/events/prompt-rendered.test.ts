import { PromptRendered } from '../../src/runtime/events/prompt-rendered.js';

const context = { promptName: 'ns/key', promptNs: 'ns', promptKey: 'key', adapter: 'openai' };

class GuidanceParams {
  primaryTool = 'lookup_entity';
}

describe(PromptRendered, () => {
  it('should carry the rendered text and the inputs, frozen', () => {
    const params = new GuidanceParams();
    const event = new PromptRendered({
      ...context,
      renderedPrompt: '## 1. Guidance (guidance)\n\nUse tools.',
      renderInputs: [params],
      sessionId: 's',
    });
    expect(event.renderedPrompt).toBe('## 1. Guidance (guidance)\n\nUse tools.');
    expect(event.renderInputs).toEqual([params]);
    expect(Object.isFrozen(event)).toBe(true);
    expect(Object.isFrozen(event.renderInputs)).toBe(true);
    expect(event.eventId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
