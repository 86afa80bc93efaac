import { Container, inject, injectable } from 'inversify';

import {
  AffordanceContainer,
  AffordanceRuntime,
  MarkdownSection,
  Prompt,
  ProviderAdapter,
  Section,
  Tool,
  type ToolContext,
  ToolResult,
} from 'affordance';
import { createTestRuntime, ScriptedAdapter } from 'affordance/testing';

@injectable()
class Greeter {
  greet(): string {
    return 'Hello from the application.';
  }
}

@Section({ key: 'greeting', title: 'Greeting', template: 'Greet the user.' })
class GreetingSection {
  constructor(@inject(Greeter) private readonly greeter: Greeter) {}

  @Tool({ name: 'greet', description: 'Greet the user.' })
  greet(_params: undefined, _context: ToolContext): ToolResult<null> {
    return new ToolResult({ message: this.greeter.greet() });
  }
}

const prompt = new Prompt({ ns: 'test', key: 'greeting', sections: [GreetingSection] });

describe(createTestRuntime, () => {
  it('should install affordance and bind the scripted adapter as the ProviderAdapter', () => {
    const { container, runtime, adapter } = createTestRuntime();

    expect(adapter).toBeInstanceOf(ScriptedAdapter);
    expect(container.get(ProviderAdapter)).toBe(adapter);
    expect(container.get(AffordanceRuntime)).toBe(runtime);
    expect(container.get(AffordanceContainer)).toBe(container);
    expect(runtime.container).toBe(container);
  });

  it("should let configure bind the application's services for sections to inject", async () => {
    const { evaluate } = createTestRuntime({
      script: [{ toolCalls: [{ name: 'greet', callId: 'g1' }] }, { text: 'Greeted.' }],
      configure: (container) => container.bind(Greeter).toSelf().inSingletonScope(),
    });

    const response = await evaluate(prompt);

    expect(response.toolCalls.map((call) => call.message)).toEqual(['Hello from the application.']);
  });

  it('should install into a given container and pass the runtime options on', async () => {
    const container = new Container();
    container.bind(Greeter).toSelf();
    const { runtime, evaluate } = createTestRuntime({
      container,
      runtime: { maxTurns: 3 },
      script: [{ text: 'Hi.' }],
    });

    expect(runtime.container).toBe(container);
    expect(runtime.maxTurns).toBe(3);
    await expect(
      evaluate(
        new Prompt({
          ns: 'test',
          key: 'plain',
          sections: [new MarkdownSection({ key: 'plain', title: 'Plain', template: 'Say hi.' })],
        }),
      ),
    ).resolves.toMatchObject({ text: 'Hi.' });
  });
});
