import { IsString } from 'class-validator';

import { ConfigurationError, MarkdownSection, Prompt } from 'affordance';
import { createTestRuntime } from 'affordance/testing';

import { catchError } from '../support/catch-error.js';

const section = new MarkdownSection({ key: 'intro', title: 'Intro', template: 'Answer briefly.' });

function promptWith(output: Prompt['outputType'] | readonly [Prompt['outputType']]): Prompt {
  return new Prompt({
    ns: 'hardening',
    key: 'output',
    sections: [section],
    output: output as never,
  });
}

describe('A prompt refuses, when built, an output class no answer could validate against', () => {
  it('a field without a class-validator decorator is named, with the decorator to add', () => {
    class Answer {
      text = '';
      @IsString() summary!: string;
    }
    const error = catchError(ConfigurationError, () => promptWith(Answer));
    expect(error.subject).toBe('Answer.text');
    expect(error.message).toMatch(/has no class-validator decorator/);
    expect(error.message).toMatch(/Fix: Add a validator such as @IsString\(\)/);
  });

  it('a class whose fields TypeScript did not emit (no decorators, no initialisers) is named as having no validated fields', () => {
    class Answer {
      declare text: string;
    }
    const error = catchError(ConfigurationError, () => promptWith(Answer));
    expect(error.message).toBe(
      "Prompt 'hardening/output' output Answer: has no fields with class-validator decorators, so no answer " +
        'of the model could ever validate against it. Fix: Decorate each field of the output class with ' +
        'class-validator decorators, e.g. `class Answer { @IsString() text!: string }`, or leave output out ' +
        'for a free-text answer.',
    );
  });

  it('the list form [Class] is checked the same way', () => {
    class Item {}
    const error = catchError(ConfigurationError, () => promptWith([Item]));
    expect(error.subject).toBe("Prompt 'hardening/output' output Item");
  });

  it('a decorated output class is accepted and its answer parsed', async () => {
    class Answer {
      @IsString() text!: string;
    }
    const prompt = promptWith(Answer);
    const { evaluate } = createTestRuntime({ script: [{ text: '{"text":"hello"}' }] });
    const response = await evaluate(prompt);
    expect(response.output).toBeInstanceOf(Answer);
    expect((response.output as Answer).text).toBe('hello');
  });
});
