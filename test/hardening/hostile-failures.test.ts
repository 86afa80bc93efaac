import { IsString } from 'class-validator';

import {
  MarkdownSection,
  Prompt,
  ProviderAdapter,
  Session,
  SliceOp,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { providerCapabilities, type ProviderRequest, type ProviderTurn } from 'affordance/provider';
import { createTestRuntime } from 'affordance/testing';
import { Container } from 'inversify';
import { installAffordance } from 'affordance';

import { toolMessages } from '../support/conversation.js';

/** Values a handler, reducer or subscriber might throw, each built to break a naive describer. */
const thrown: [string, () => unknown][] = [
  ['a BigInt', () => 10n ** 30n],
  [
    'a cyclic object',
    () => {
      const value: Record<string, unknown> = {};
      value['self'] = value;
      return value;
    },
  ],
  ['a null-prototype object', () => Object.create(null) as object],
  [
    'an Error whose message getter throws',
    () => {
      const error = new Error('hidden');
      Object.defineProperty(error, 'message', {
        get() {
          throw new Error('no message for you');
        },
      });
      return error;
    },
  ],
  [
    'a value whose toJSON throws',
    () => ({
      toJSON() {
        throw new Error('no JSON');
      },
    }),
  ],
  [
    'a value whose toString throws',
    () => ({
      toString() {
        throw new Error('no string');
      },
      [Symbol.toPrimitive]() {
        throw new Error('no primitive');
      },
    }),
  ],
  [
    'a Proxy whose every trap throws',
    () =>
      new Proxy(
        {},
        {
          get() {
            throw new Error('trap: get');
          },
          getPrototypeOf() {
            throw new Error('trap: getPrototypeOf');
          },
          ownKeys() {
            throw new Error('trap: ownKeys');
          },
          getOwnPropertyDescriptor() {
            throw new Error('trap: getOwnPropertyDescriptor');
          },
          has() {
            throw new Error('trap: has');
          },
        },
      ),
  ],
  ['undefined', () => undefined],
  ['a 10 MB message', () => new Error('x'.repeat(10_000_000))],
];

function promptWith(tools: ToolDefinition[]): Prompt {
  return new Prompt({
    ns: 'hardening',
    key: 'hostile',
    sections: [new MarkdownSection({ key: 'work', title: 'Work', template: 'Work.', tools })],
  });
}

class Marker {
  constructor(readonly by: string) {}
}

describe('A handler that throws anything gives a failed result, never a rejected evaluation', () => {
  it.each(thrown)('%s', async (_label, make) => {
    const tool = new ToolDefinition({
      name: 'explode',
      description: 'Throws.',
      handler: () => {
        throw make();
      },
    });
    const session = new Session();
    const { adapter, evaluate } = createTestRuntime({
      script: [{ toolCalls: [{ name: 'explode', callId: 'c1' }] }, { text: 'recovered' }],
    });
    const response = await evaluate(promptWith([tool]), { session });
    expect(response.text).toBe('recovered');
    const [[callId, message] = []] = toolMessages(adapter.requests[1]);
    expect(callId).toBe('c1');
    expect(message).toMatch(/^Tool 'explode' execution failed: /);
    expect(message?.length).toBeLessThanOrEqual(2_100);
    const records = session.slice(ToolInvoked).all();
    expect(records.map((event) => event.outcome)).toEqual(['failure']);
  });
});

describe('A reducer or subscriber that throws anything is recorded, never a rejected evaluation', () => {
  it.each(thrown)('%s', async (_label, make) => {
    const tool = new ToolDefinition({
      name: 'mark',
      description: 'Marks.',
      handler: () => ToolResult.ok(new Marker('tool'), 'marked'),
    });
    const session = new Session();
    session.slice(Marker).register(ToolInvoked, () => {
      throw make();
    });
    session.dispatcher.subscribe(ToolInvoked, () => {
      throw make();
    });
    const { adapter, evaluate } = createTestRuntime({
      script: [{ toolCalls: [{ name: 'mark', callId: 'c1' }] }, { text: 'recovered' }],
    });
    const response = await evaluate(promptWith([tool]), { session });
    expect(response.text).toBe('recovered');
    const [[, message] = []] = toolMessages(adapter.requests[1]);
    expect(message).toMatch(/^Reducer errors prevented applying tool result: /);
    expect(message?.length).toBeLessThanOrEqual(8_200);
    // The reducer on ToolInvoked replaced the default fan-out; nothing else was stored.
    expect(session.slice(Marker).all()).toEqual([]);
  });

  it('keeps SliceOp usable by a reducer that does not throw', () => {
    const session = new Session();
    session.slice(Marker).register(ToolInvoked, () => SliceOp.append(new Marker('reducer')));
    expect(session.slice(Marker).all()).toEqual([]);
  });
});

class QueryParams {
  @IsString() query!: string;
}

/** An adapter that hands the runtime already-decoded arguments: here, hostile ones. */
class DecodedArgumentsAdapter extends ProviderAdapter {
  readonly name = 'decoded';
  override readonly capabilities = providerCapabilities();
  readonly sent: ProviderRequest[] = [];
  #turn = 0;

  constructor(private readonly argumentsFor: () => unknown) {
    super();
  }

  override request(request: ProviderRequest): Promise<ProviderTurn> {
    this.sent.push(request);
    this.#turn += 1;
    if (this.#turn > 1) return Promise.resolve({ text: 'recovered' });
    return Promise.resolve({
      toolCalls: [
        { callId: 'p1', name: 'search', arguments: this.argumentsFor() },
        { callId: 'p2', name: 'ping', arguments: this.argumentsFor() },
      ],
    });
  }
}

describe('Hostile decoded arguments from an adapter give failed calls, never a rejected evaluation', () => {
  it.each(thrown.filter(([label]) => label.includes('Proxy') || label.includes('getter')))(
    '%s',
    async (_label, make) => {
      const search = new ToolDefinition({
        name: 'search',
        description: 'Searches.',
        params: QueryParams,
        handler: (params: QueryParams) => ToolResult.ok(null, params.query),
      });
      const ping = new ToolDefinition({
        name: 'ping',
        description: 'Takes no arguments.',
        handler: () => ToolResult.ok(null, 'pong'),
      });
      const runtime = installAffordance(new Container());
      const adapter = new DecodedArgumentsAdapter(make);
      const session = new Session();
      const response = await runtime.evaluate(promptWith([search, ping]), { session, adapter });
      expect(response.text).toBe('recovered');
      const messages = toolMessages(adapter.sent[1]);
      expect(messages.map(([callId]) => callId)).toEqual(['p1', 'p2']);
      for (const [, message] of messages) expect(message).toMatch(/^Tool validation failed: /);
      expect(
        session
          .slice(ToolInvoked)
          .all()
          .map((event) => event.outcome),
      ).toEqual(['failure', 'failure']);
    },
  );
});
