import 'reflect-metadata';

import { Container } from 'inversify';

import {
  ConfigurationError,
  installAffordance,
  MarkdownSection,
  NativeTool,
  Prompt,
  PromptExecuted,
  Session,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import {
  type FallbackEvent,
  type ProviderAdapter,
  type ProviderRequest,
  RoutingAdapter,
} from 'affordance/provider';
import { TEST_STATE_SECRET } from 'affordance/testing';

import { answer, callTurn, MemberStub } from './member-adapter.js';

function prompt(ns: string, tools: ToolDefinition[] = []): Prompt {
  return new Prompt({
    ns,
    key: 'ask',
    sections: [new MarkdownSection({ key: 'main', title: 'Main', template: 'Help.', tools })],
  });
}

const lookup = new ToolDefinition({
  name: 'lookup',
  description: 'Look something up.',
  handler: () => ToolResult.ok({ found: true }, 'Found.'),
});

function runtime() {
  return installAffordance(new Container(), { stateSecret: TEST_STATE_SECRET });
}

describe('RoutingAdapter', () => {
  it('routes each request by its prompt: a cheap model for triage, a strong one for the rest', async () => {
    const cheap = new MemberStub('openai', 'gpt-mini', [answer('triaged')]);
    const strong = new MemberStub('anthropic', 'claude-big', [answer('solved')]);
    const adapter = new RoutingAdapter({
      routes: { cheap, strong },
      route: (request) => (request.prompt.ns === 'triage' ? 'cheap' : 'strong'),
    });
    const session = new Session();
    expect((await runtime().evaluate(prompt('triage'), { adapter, session })).text).toBe('triaged');
    expect((await runtime().evaluate(prompt('support'), { adapter, session })).text).toBe('solved');
    const executed = session.view.slice(PromptExecuted).all();
    expect(executed.map((event) => [event.adapter, event.provider, event.model])).toEqual([
      ['routing', 'openai', 'gpt-mini'],
      ['routing', 'anthropic', 'claude-big'],
    ]);
  });

  it('routes by the tools offered and the turn, carrying the conversation across members', async () => {
    const events: FallbackEvent[] = [];
    const reasoning = { type: 'reasoning', encrypted_content: 'gAAAA-only-for-openai' };
    const tooled = new MemberStub('openai', 'gpt-tools', [
      callTurn('call_1', 'lookup', {}, [reasoning]),
    ]);
    const writer = new MemberStub('anthropic', 'claude-writer', [answer('Here it is.')]);
    const seen: string[] = [];
    const route = (request: ProviderRequest): 'tools' | 'writer' => {
      const key = request.turn === 0 && request.tools.length > 0 ? 'tools' : 'writer';
      seen.push(`${request.turn}:${key}`);
      return key;
    };
    const adapter = new RoutingAdapter({
      routes: { tools: tooled, writer },
      route,
      onEvent: (event) => events.push(event),
    });
    const response = await runtime().evaluate(prompt('support', [lookup]), { adapter });
    expect(response.text).toBe('Here it is.');
    expect(seen).toEqual(['0:tools', '1:writer']);
    const toWriter = writer.requests[0]?.messages ?? [];
    expect(toWriter.map((m) => m.role)).toEqual(['system', 'assistant', 'tool']);
    expect(JSON.stringify(toWriter)).not.toContain('gAAAA');
    expect(events).toEqual([
      {
        type: 'items-dropped',
        turn: 1,
        member: 'anthropic/claude-writer',
        servedBy: 'openai/gpt-tools',
        count: 1,
        itemTypes: ['reasoning'],
      },
    ]);
  });

  it('refuses a route key that is not a route, naming the keys', async () => {
    const adapter = new RoutingAdapter({
      routes: { a: new MemberStub('a', undefined, []) },
      route: () => 'b' as 'a',
    });
    const error = await runtime()
      .evaluate(prompt('x'), { adapter })
      .catch((e: unknown) => e);
    expect(String(error)).toContain("chose 'b' for turn 0 of 'x/ask', which is not a route");
    expect(String(error)).toContain("Return one of the route keys: 'a'");
    expect(
      () => new RoutingAdapter({ routes: {} as Record<'a', ProviderAdapter>, route: () => 'a' }),
    ).toThrow(ConfigurationError);
  });

  it('checks a prompt against every route: a native tool needs every member to run it', async () => {
    const native = new NativeTool({
      name: 'web_search',
      type: 'web_search',
      description: 'Search.',
    });
    const adapter = new RoutingAdapter<'a' | 'b'>({
      routes: {
        a: new MemberStub('a', undefined, [], { nativeTools: true }),
        b: new MemberStub('b', undefined, []),
      },
      route: () => 'a',
    });
    await expect(runtime().evaluate(prompt('x', [native]), { adapter })).rejects.toThrow(
      /Adapter 'b' cannot offer the provider-executed tool 'web_search'/,
    );
  });
});
