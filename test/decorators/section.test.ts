import { IsString } from 'class-validator';
import { Container, inject, injectable } from 'inversify';

import { Section } from '../../src/decorators/section.js';
import { Tool } from '../../src/decorators/tool.js';
import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { MarkdownSection } from '../../src/prompt/markdown-section.js';
import { sectionFromClass } from '../../src/prompt/section-from-class.js';
import type { ToolContext } from '../../src/tools/tool-context.js';
import { ToolResult } from '../../src/tools/tool-result.js';
import { catchError } from '../support/catch-error.js';
import { toolContext } from '../support/tool-context.js';

class GreetParams {
  @IsString() name!: string;
}
class GuidanceParams {
  primaryTool = 'greet';
}

@injectable()
class Greeter {
  readonly greeted: string[] = [];
  greet(name: string): string {
    this.greeted.push(name);
    return `Hello, ${name}!`;
  }
}

@Section({
  key: 'greeting',
  title: 'Greeting',
  template: 'Prefer ${primaryTool} for greetings.',
  params: GuidanceParams,
})
class GreetingSection {
  constructor(@inject(Greeter) private readonly greeter: Greeter) {}

  @Tool({ description: 'Greet someone by name.' })
  greet(params: GreetParams, context: ToolContext): ToolResult<string> {
    return ToolResult.ok(this.greeter.greet(params.name), `Greeted (${context.callId}).`);
  }
}

function containerWithGreeting(): Container {
  const container = new Container();
  container.bind(Greeter).toSelf().inSingletonScope();
  container.bind(GreetingSection).toSelf();
  return container;
}

describe('Section', () => {
  describe('when applied', () => {
    it('should make the class injectable with its constructor dependencies', () => {
      const container = containerWithGreeting();
      const section = container.get(GreetingSection);
      expect(section).toBeInstanceOf(GreetingSection);
      expect(
        section.greet(Object.assign(new GreetParams(), { name: 'Ada' }), toolContext(container))
          .value,
      ).toBe('Hello, Ada!');
      expect(container.get(Greeter).greeted).toEqual(['Ada']);
    });

    it('should give sectionFromClass its key, title, template and params class', () => {
      const section = sectionFromClass(GreetingSection);
      expect(section).toBeInstanceOf(MarkdownSection);
      expect(section.key).toBe('greeting');
      expect(section.title).toBe('Greeting');
      expect(section.paramsType).toBe(GuidanceParams);
      expect(section.renderBody(new GuidanceParams())).toBe('Prefer greet for greetings.');
      expect(section.tools.map((tool) => tool.name)).toEqual(['greet']);
    });
  });

  describe('when a tool of the section is called', () => {
    it('should resolve the class from context.services and call the method with `this` bound', async () => {
      const container = containerWithGreeting();
      const [greet] = sectionFromClass(GreetingSection).tools;
      const result = await greet!.handler!(
        Object.assign(new GreetParams(), { name: 'Grace' }),
        toolContext(container, 'call_42'),
      );
      expect(result.value).toBe('Hello, Grace!');
      expect(result.message).toBe('Greeted (call_42).');
      expect(container.get(Greeter).greeted).toEqual(['Grace']);
    });

    it('should resolve a new instance per call when the class is bound transient', async () => {
      const instances: unknown[] = [];
      @Section({ key: 'counter', title: 'Counter' })
      class CounterSection {
        calls = 0;
        @Tool({ description: 'Count calls.' })
        count(_params: undefined, _context: ToolContext): ToolResult<number> {
          instances.push(this);
          this.calls += 1;
          return ToolResult.ok(this.calls);
        }
      }
      const container = new Container();
      container.bind(CounterSection).toSelf();
      const [count] = sectionFromClass(CounterSection).tools;
      const first = await count!.handler!(undefined, toolContext(container));
      const second = await count!.handler!(undefined, toolContext(container));
      expect([first.value, second.value]).toEqual([1, 1]);
      expect(instances[0]).not.toBe(instances[1]);
      expect(instances[0]).toBeInstanceOf(CounterSection);
    });
  });

  describe('sectionFromClass', () => {
    it('should return the same section for the same class', () => {
      expect(sectionFromClass(GreetingSection)).toBe(sectionFromClass(GreetingSection));
    });

    it('should reject a class that is not decorated', () => {
      class PlainClass {}
      const error = catchError(ConfigurationError, () => sectionFromClass(PlainClass));
      expect(error.subject).toBe('PlainClass');
      expect(error.problem).toContain('not decorated with @Section');
      expect(error.fix).toContain('Add @Section(');
    });

    it('should reject an undecorated subclass of a section, saying options are not inherited', () => {
      class LouderGreeting extends GreetingSection {}
      const error = catchError(ConfigurationError, () => sectionFromClass(LouderGreeting));
      expect(error.subject).toBe('LouderGreeting');
      expect(error.problem).toContain('Its base class GreetingSection is one');
      expect(error.problem).toContain('section options are not inherited');
    });

    it('should build a decorated subclass with its own options and the inherited tools', () => {
      @Section({ key: 'loud_greeting', title: 'Loud greeting' })
      class LoudGreeting extends GreetingSection {}
      const section = sectionFromClass(LoudGreeting);
      expect(section.key).toBe('loud_greeting');
      expect(section.tools.map((tool) => tool.name)).toEqual(['greet']);
      expect(section).not.toBe(sectionFromClass(GreetingSection));
    });
  });
});
