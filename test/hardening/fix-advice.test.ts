import { fileURLToPath } from 'node:url';

import { IsString } from 'class-validator';
import { Container } from 'inversify';

import {
  ConfigurationError,
  Deadline,
  InProcessDispatcher,
  installAffordance,
  MarkdownSection,
  Prompt,
  Reducer,
  ResourceRegistry,
  Session,
  SliceOp,
  SlicePolicy,
  TokenUsage,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { AffordanceModule } from 'affordance/nest';
import { planningGuidance, type PlanningStrategy } from 'affordance/planning';

import {
  adviceInSources,
  namedSymbols,
  type NamedSymbol,
  unreachable,
} from '../support/fix-advice.js';

const sourceRoot = fileURLToPath(new URL('../../src', import.meta.url));

/** The advice of a ConfigurationError thrown by `run`. */
function adviceOf(run: () => unknown): string {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  if (!ConfigurationError.is(thrown)) {
    throw new Error(`expected a ConfigurationError, got ${String(thrown)}`);
  }
  expect(thrown.message).toContain(`Fix: ${thrown.fix}`);
  return thrown.fix;
}

function label(symbol: NamedSymbol): string {
  return symbol.member === undefined ? symbol.name : `${symbol.name}.${symbol.member}`;
}

/** Asserts every symbol `advice` names is reachable from the entry points, and that it names `expected`. */
function expectFollowable(advice: string, expected: readonly string[]): void {
  const symbols = namedSymbols(advice);
  expect(symbols.map(label)).toEqual(expect.arrayContaining([...expected]));
  expect(symbols.flatMap((symbol) => unreachable(symbol) ?? [])).toEqual([]);
}

class Note {
  constructor(readonly text: string) {}
}
class NoteAdded {
  constructor(readonly text: string) {}
}

describe('Every "Fix:" written in src/ names only what the entry points export', () => {
  const advice = adviceInSources(sourceRoot);

  it('finds the advice of every kind of configuration error', () => {
    expect(advice.length).toBeGreaterThanOrEqual(90);
    expect(advice.map((entry) => entry.file)).toEqual(
      expect.arrayContaining([
        'session/slice-op.ts',
        'runtime/events/tool-invoked.ts',
        'nest/create-adapter.ts',
        'schema/params-shape.ts',
        'openai/openai-adapter.ts',
      ]),
    );
  });

  it('each class, member, decorator and function it names is public (or belongs to a library the user already uses)', () => {
    const problems = advice.flatMap((entry) =>
      namedSymbols(entry.text).flatMap((symbol) => {
        const why = unreachable(symbol);
        return why === undefined ? [] : [`${entry.file}:${entry.line}: ${why}`];
      }),
    );
    expect(problems).toEqual([]);
  });
});

describe('The advice of each error can be followed with the entry points alone', () => {
  it('a reducer that returns no SliceOp is told to return SliceOp.append(...), which affordance exports', () => {
    const session = new Session();
    session.slice(Note).register(NoteAdded, () => 'not an op' as never);
    const failure = session.dispatch(new NoteAdded('first')).errors[0]?.error;
    if (!ConfigurationError.is(failure)) throw new Error('expected a ConfigurationError');
    expectFollowable(failure.fix, [
      'SliceOp.append',
      'SliceOp.extend',
      'SliceOp.replace',
      'SliceOp.clear',
    ]);

    const fixed = new Session();
    fixed.slice(Note).register(NoteAdded, (_view, event) => SliceOp.append(new Note(event.text)));
    expect(fixed.dispatch(new NoteAdded('first')).errors).toEqual([]);
    expect(
      fixed
        .slice(Note)
        .all()
        .map((note) => note.text),
    ).toEqual(['first']);
  });

  it('a ToolInvoked without a ToolResult is told to use ToolResult.ok / ToolResult.error', () => {
    const advice = adviceOf(
      () =>
        new ToolInvoked({
          name: 'lookup',
          arguments: {},
          result: { success: true } as never,
          callId: 'c1',
          evaluationId: 'e1',
        } as never),
    );
    expectFollowable(advice, ['ToolResult.ok', 'ToolResult.error']);
    expect(ToolResult.ok(1).success).toBe(true);
  });

  it('an invalid token count is told to use TokenUsage.fromProviderUsage', () => {
    const advice = adviceOf(() => new TokenUsage({ inputTokens: -1 }));
    expectFollowable(advice, ['TokenUsage.fromProviderUsage']);
  });

  it('a deadline in the past is told to use Deadline.in', () => {
    expectFollowable(
      adviceOf(() => Deadline.at(0)),
      ['Deadline.in'],
    );
  });

  it('an unknown slice policy is told to use SlicePolicy.State or SlicePolicy.Log', () => {
    const advice = adviceOf(() => new Session().slice(Note).setPolicy('sometimes' as SlicePolicy));
    expectFollowable(advice, ['SlicePolicy.State', 'SlicePolicy.Log']);
  });

  it('a @Reducer without an event class is told to pass one, e.g. @Reducer(ToolInvoked)', () => {
    const advice = adviceOf(() => {
      class Counter {
        @Reducer(undefined as never)
        onEvent(): this {
          return this;
        }
      }
      return Counter;
    });
    expectFollowable(advice, ['Reducer', 'ToolInvoked']);
  });

  it('a section class without @Section is told to add it or use a MarkdownSection', () => {
    class Undecorated {}
    const advice = adviceOf(
      () => new Prompt({ ns: 'advice', key: 'section', sections: [Undecorated] }),
    );
    expectFollowable(advice, ['Section', 'MarkdownSection']);
  });

  it('a resource keyed by a string is told to create a ResourceToken', () => {
    const advice = adviceOf(() =>
      new ResourceRegistry().bind('store' as never, { create: () => ({}) }),
    );
    expectFollowable(advice, ['ResourceToken']);
  });

  it('an unknown planning strategy is told to use PlanningStrategy.REACT', () => {
    const advice = adviceOf(() => planningGuidance('guess' as PlanningStrategy));
    expectFollowable(advice, ['PlanningStrategy.REACT']);
  });

  it('an async subscriber is told how to subscribe a synchronous one', () => {
    const advice = adviceOf(() =>
      new InProcessDispatcher().subscribe(undefined as never, () => undefined),
    );
    expectFollowable(advice, ['ToolInvoked']);
  });

  it('a params class without decorators is told to add @IsString() (class-validator)', () => {
    class Loose {
      text = '';
    }
    const advice = adviceOf(
      () =>
        new ToolDefinition({
          name: 'loose',
          description: 'Takes undecorated params.',
          params: Loose,
          handler: () => ToolResult.ok(null),
        }),
    );
    expectFollowable(advice, ['IsString']);
    expect(typeof IsString).toBe('function');
  });

  it('a NestJS module given no adapter is told to pass OpenAIAdapter or a ScriptedAdapter factory', () => {
    const advice = adviceOf(() => AffordanceModule.forRoot({ adapter: 42 as never }));
    expectFollowable(advice, ['OpenAIAdapter', 'ScriptedAdapter']);
  });

  it('an evaluation with no adapter bound in the container is told to bind one, e.g. OpenAIAdapter', async () => {
    const runtime = installAffordance(new Container());
    const section = new MarkdownSection({ key: 'intro', title: 'Intro', template: 'Answer.' });
    const prompt = new Prompt({ ns: 'advice', key: 'adapter', sections: [section] });
    const rejection = await runtime.evaluate(prompt).then(
      () => undefined,
      (error: unknown) => error,
    );
    const advice = adviceOf(() => {
      throw rejection;
    });
    expectFollowable(advice, ['ProviderAdapter', 'OpenAIAdapter']);
  });

  it('a prompt whose output class has no decorators is told to add @IsString() (class-validator)', () => {
    class Answer {
      text = '';
    }
    const section = new MarkdownSection({ key: 'intro', title: 'Intro', template: 'Answer.' });
    const advice = adviceOf(
      () => new Prompt({ ns: 'advice', key: 'output', sections: [section], output: Answer }),
    );
    expectFollowable(advice, ['IsString']);
  });
});
