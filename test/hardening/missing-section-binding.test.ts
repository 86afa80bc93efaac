import { inject, injectable } from 'inversify';

import {
  ConfigurationError,
  Prompt,
  Section,
  Tool,
  type ToolContext,
  ToolResult,
} from 'affordance';
import { createTestRuntime } from 'affordance/testing';

import { catchRejection } from '../support/catch-error.js';

@injectable()
class Greeter {
  greet(): string {
    return 'Hello.';
  }
}

@injectable()
class Clock {}

@injectable()
class Calendar {
  constructor(@inject(Clock) readonly clock: Clock) {}
}

@Section({ key: 'greeting', title: 'Greeting', template: 'Greet the user.' })
class GreetingSection {
  constructor(@inject(Greeter) private readonly greeter: Greeter) {}

  @Tool({ name: 'greet', description: 'Greet the user.' })
  greet(_params: undefined, _context: ToolContext): ToolResult<null> {
    return new ToolResult({ message: this.greeter.greet() });
  }
}

@Section({ key: 'agenda', title: 'Agenda', template: 'Plan the day.' })
class AgendaSection {
  constructor(@inject(Calendar) readonly calendar: Calendar) {}

  @Tool({ name: 'plan', description: 'Plan the day.' })
  plan(_params: undefined, _context: ToolContext): ToolResult<null> {
    return new ToolResult({ message: 'Planned.' });
  }
}

const script = [{ toolCalls: [{ name: 'greet', callId: 'g1' }] }, { text: 'Hi.' }];

describe('createTestRuntime: a section injecting a service nobody bound', () => {
  it('names the section, the missing service and the binding to add, not the raw container error', async () => {
    const agent = createTestRuntime({ script, configure: () => undefined });
    const prompt = new Prompt({ ns: 'hardening', key: 'greeting', sections: [GreetingSection] });

    const error = await catchRejection(ConfigurationError, () => agent.evaluate(prompt));

    expect(error.message).toBe(
      'GreetingSection: injects Greeter, which is not bound in the container, so it cannot be built. ' +
        "Fix: Bind Greeter in the application container before the prompt's first evaluation, " +
        'e.g. container.bind(Greeter).toSelf() (with createTestRuntime, in its configure), ' +
        'or mark the injection @optional().',
    );
    expect(error.message).not.toMatch(/No bindings found/);
    // Inversify's planning trace stays available as the cause.
    expect((error.cause as Error).message).toMatch(/No bindings found for service: "Greeter"/);
  });

  it('a service missing further down is named with the path from the section to it', async () => {
    const agent = createTestRuntime({
      script: [],
      configure: (container) => container.bind(Calendar).toSelf(),
    });
    const prompt = new Prompt({ ns: 'hardening', key: 'agenda', sections: [AgendaSection] });

    const error = await catchRejection(ConfigurationError, () => agent.evaluate(prompt));

    expect(error.subject).toBe('AgendaSection');
    expect(error.problem).toBe(
      'depends on Clock (AgendaSection → Calendar → Clock), which is not bound in the container, ' +
        'so it cannot be built.',
    );
    expect(error.fix).toContain('container.bind(Clock).toSelf()');
  });

  it('once configure binds it, the same prompt runs', async () => {
    const agent = createTestRuntime({
      script,
      configure: (container) => container.bind(Greeter).toSelf(),
    });
    const prompt = new Prompt({ ns: 'hardening', key: 'greeting', sections: [GreetingSection] });

    const response = await agent.evaluate(prompt);

    expect(response.toolCalls.map((call) => call.message)).toEqual(['Hello.']);
  });
});
