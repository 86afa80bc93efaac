import 'reflect-metadata';

import { IsString } from 'class-validator';
import { Container } from 'inversify';

import {
  Describe,
  installAffordance,
  Prompt,
  ProviderAdapter,
  Section,
  Session,
  Tool,
  ToolContext,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import {
  providerCapabilities,
  type ProviderCapabilities,
  type ProviderRequest,
  type ProviderTurn,
  TokenUsage,
} from 'affordance/provider';

/*
 * A complete provider adapter written against the seam alone: a "model" that calls the first
 * tool it is offered with the arguments it is given, then answers with what the tool said.
 * Everything else (the loop, schemas, validation, usage totals, events) is the runtime's.
 */
class RelayAdapter extends ProviderAdapter {
  override readonly name = 'relay';
  override readonly capabilities: ProviderCapabilities = providerCapabilities({
    strictTools: true,
    parallelToolCalls: false,
  });
  readonly seen: ProviderRequest[] = [];

  constructor(private readonly args: object) {
    super();
  }

  override request(request: ProviderRequest): Promise<ProviderTurn> {
    this.seen.push(request);
    const usage = new TokenUsage({ inputTokens: 10, outputTokens: 2 });
    const last = request.messages.at(-1);
    const tool = request.tools[0];
    if (last?.role === 'tool') {
      return Promise.resolve({ text: `The tool said: ${last.content}`, usage });
    }
    if (tool === undefined) return Promise.resolve({ text: 'No tools.', usage });
    const call = {
      callId: `call_${request.turn}`,
      name: tool.name,
      arguments: JSON.stringify(this.args),
    };
    return Promise.resolve({ toolCalls: [call], usage });
  }
}

class GreetParams {
  @Describe('Who to greet') @IsString() name!: string;
}

@Section({ key: 'greeter', title: 'Greeter', template: 'Greet people with the greet tool.' })
class GreeterSection {
  @Tool({ name: 'greet', description: 'Greets someone by name.', params: GreetParams })
  greet(params: GreetParams, _context: ToolContext): ToolResult<string> {
    return ToolResult.ok(`Hello, ${params.name}!`);
  }
}

const prompt = new Prompt({ ns: 'tests', key: 'relay', sections: [GreeterSection] });

describe('a minimal adapter written against affordance/provider', () => {
  it('runs a prompt with a tool call, through the runtime the user already has', async () => {
    const container = new Container();
    const runtime = installAffordance(container);
    const adapter = new RelayAdapter({ name: 'Ada' });
    container.bind(ProviderAdapter).toConstantValue(adapter);
    const session = new Session();

    const response = await runtime.evaluate(prompt, { session });

    expect(response.text).toMatch(/^The tool said: [^]*Hello, Ada!$/);
    expect(response.turns).toBe(2);
    expect(response.usage?.inputTokens).toBe(20);
    expect(response.usage?.outputTokens).toBe(4);
    const invoked = session.slice(ToolInvoked).all();
    expect(invoked.map((event) => [event.name, event.outcome, event.adapter])).toEqual([
      ['greet', 'success', 'relay'],
    ]);
    expect(adapter.seen.map((request) => request.turn)).toEqual([0, 1]);
  });

  it('is offered each tool with the schema the runtime chose from its capabilities', async () => {
    const runtime = installAffordance(new Container());
    const adapter = new RelayAdapter({ name: 'Grace' });

    await runtime.evaluate(prompt, { adapter });

    const spec = adapter.seen[0]?.tools[0];
    expect(spec?.name).toBe('greet');
    expect(spec?.strict).toBe(true);
    expect(spec?.parameters).toMatchObject({
      type: 'object',
      required: ['name'],
      additionalProperties: false,
    });
    expect(adapter.seen[0]?.prompt).toEqual({
      name: 'relay',
      ns: 'tests',
      key: 'relay',
      label: 'tests/relay',
    });
  });

  it('gets validation failures back as tool results, never as its own problem', async () => {
    const runtime = installAffordance(new Container());
    const adapter = new RelayAdapter({ name: 42 });

    const response = await runtime.evaluate(prompt, { adapter });

    const toolMessage = adapter.seen[1]?.messages.at(-1);
    expect(toolMessage?.role).toBe('tool');
    expect(response.toolCalls[0]?.event.outcome).toBe('failure');
    expect(toolMessage?.role === 'tool' ? toolMessage.content : '').toContain('name');
    expect(response.text).toContain('name');
  });
});
