import { PromptEvaluationError } from '../../src/core/errors/prompt-evaluation-error.js';
import { PromptExecuted } from '../../src/runtime/events/prompt-executed.js';
import { MarkdownSection } from '../../src/prompt/markdown-section.js';
import { Prompt } from '../../src/prompt/prompt.js';
import { Deadline } from '../../src/runtime/limits/deadline.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { Session } from '../../src/session/session.js';
import { createTestRuntime } from '../../src/testing/create-test-runtime.js';
import { catchRejection } from '../support/catch-error.js';

const prompt = new Prompt({
  ns: 'demo',
  key: 'finish',
  sections: [new MarkdownSection({ key: 'intro', title: 'Intro', template: 'Answer briefly.' })],
});

describe('finishing an evaluation', () => {
  it('should turn a failing PromptExecuted subscriber into PromptEvaluationError carrying the answer', async () => {
    const { evaluate } = createTestRuntime({ script: [{ text: 'All done.' }] });
    const session = new Session();
    session.dispatcher.subscribe(PromptExecuted, () => {
      throw new Error('audit sink is down');
    });
    const error = await catchRejection(PromptEvaluationError, () => evaluate(prompt, { session }));
    expect(error.phase).toBe('response');
    expect(error.message).toContain('Recording the result failed: audit sink is down');
    expect(error.providerPayload).toMatchObject({ text: 'All done.' });
  });

  it('should stop with phase response when the deadline passed while the provider answered', async () => {
    const clock = new ManualClock();
    const deadline = Deadline.in(5_000, { clock });
    const { evaluate } = createTestRuntime({
      runtime: { clock },
      script: [
        {
          text: 'Late answer.',
          expect: () => {
            clock.advance(6_000);
          },
        },
      ],
    });
    const error = await catchRejection(PromptEvaluationError, () => evaluate(prompt, { deadline }));
    expect(error.phase).toBe('response');
    expect(error.message).toContain('Deadline expired while finishing the answer.');
  });
});
