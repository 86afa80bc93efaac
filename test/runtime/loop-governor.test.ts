import { IsString } from 'class-validator';

import {
  ConfigurationError,
  DEFAULT_LOOP_GOVERNOR,
  installAffordance,
  LoopIntervention,
  LoopStoppedError,
  MarkdownSection,
  Prompt,
  PromptEvaluationError,
  type RuntimeOptions,
  Session,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import {
  ProviderAdapter,
  providerCapabilities,
  type ProviderRequest,
  type ProviderTurn,
} from 'affordance/provider';
import { createTestRuntime, type ScriptedTurn } from 'affordance/testing';
import { Container } from 'inversify';

import { catchRejection } from '../support/catch-error.js';
import { eventNames, InMemoryOtel, only } from '../otel/otel-harness.js';

class FindParams {
  @IsString() id!: string;
}

/** A note a state-changing tool adds: a successful call puts it in its own slice. */
class Note {
  text!: string;
}

/** A model that answers every request with the same call, forever. */
class RepeatingModel extends ProviderAdapter {
  override readonly name = 'repeating';
  override readonly capabilities = providerCapabilities({});
  readonly requests: ProviderRequest[] = [];

  constructor(private readonly call: { name: string; arguments: unknown }) {
    super();
  }

  override request(request: ProviderRequest): Promise<ProviderTurn> {
    this.requests.push(request);
    const n = this.requests.length;
    return Promise.resolve({
      toolCalls: [
        { callId: `call_${n}`, name: this.call.name, arguments: encoded(this.call.arguments) },
      ],
      finishReason: 'tool_calls',
    });
  }
}

/** JSON text for plain arguments; anything JSON cannot write is handed over decoded, as it is. */
function encoded(value: unknown): unknown {
  try {
    return JSON.stringify(value);
  } catch {
    return value;
  }
}

function prompt(): Prompt {
  const find = new ToolDefinition({
    name: 'find_order',
    description: 'Find an order by id.',
    params: FindParams,
    readOnly: true,
    handler: (params: FindParams) => {
      if (params.id === 'known') return ToolResult.ok({ id: 'known', status: 'shipped' }, 'Found.');
      throw new Error(`no order '${params.id}'`);
    },
  });
  const note = new ToolDefinition({
    name: 'add_note',
    description: 'Add a note.',
    params: FindParams,
    handler: (params: FindParams) =>
      ToolResult.ok(Object.assign(new Note(), { text: params.id }), 'Noted.'),
  });
  return new Prompt({
    ns: 'test',
    key: 'governor',
    sections: [
      new MarkdownSection({
        key: 'orders',
        title: 'Orders',
        template: 'Find orders.',
        tools: [find, note],
      }),
    ],
  });
}

function runtimeWith(options: RuntimeOptions = {}) {
  return createTestRuntime({ runtime: options }).runtime;
}

/** The user messages of a request after the first (what the runtime added to the conversation). */
function addedUserMessages(request: ProviderRequest): string[] {
  return request.messages
    .slice(1)
    .filter((message) => message.role === 'user')
    .map((message) => (message as { content: string }).content);
}

describe('the loop governor', () => {
  it('stops a model that repeats a failing call forever, after telling it once', async () => {
    const model = new RepeatingModel({ name: 'find_order', arguments: { id: 'missing' } });
    const session = new Session();
    const runtime = runtimeWith({ maxTurns: 50 });

    const error = await catchRejection(LoopStoppedError, () =>
      runtime.evaluate(prompt(), { adapter: model, session }),
    );

    const limit = DEFAULT_LOOP_GOVERNOR.repeatedFailures + 1;
    expect(model.requests).toHaveLength(limit);
    expect(error.reason).toBe('repeated-failure');
    expect(error.tool).toBe('find_order');
    expect(error.turns).toBe(limit);
    expect(error.phase).toBe('governor');
    expect(PromptEvaluationError.is(error)).toBe(true);
    expect(error.message).toContain('Fix:');
    // Told exactly once, in the request after the threshold was reached, and in every later one.
    const told = model.requests.map(addedUserMessages);
    expect(told.slice(0, limit - 1).every((messages) => messages.length === 0)).toBe(true);
    expect(told[limit - 1]).toHaveLength(1);
    expect(told[limit - 1]?.[0]).toContain(
      `has now failed ${DEFAULT_LOOP_GOVERNOR.repeatedFailures} times`,
    );
    const interventions = session.slice(LoopIntervention).all();
    expect(interventions.map((event) => [event.action, event.reason, event.turn])).toEqual([
      ['warned', 'repeated-failure', limit - 2],
      ['stopped', 'repeated-failure', limit - 1],
    ]);
    expect(interventions[0]?.message).toBe(told[limit - 1]?.[0]);
  });

  it('compares arguments it cannot read without failing the evaluation otherwise', async () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trap');
        },
        get: () => {
          throw new Error('trap');
        },
      },
    );
    const model = new RepeatingModel({ name: 'find_order', arguments: hostile });
    const error = await catchRejection(LoopStoppedError, () =>
      runtimeWith().evaluate(prompt(), { adapter: model }),
    );
    expect(error.reason).toBe('repeated-failure');
  });

  it('tells calls apart by their arguments: failing calls that differ are no repeat', async () => {
    /** Calls find_order with another missing id on requests 1 to 3, then with one id, its keys in either order. */
    class WanderingModel extends RepeatingModel {
      override request(request: ProviderRequest): Promise<ProviderTurn> {
        this.requests.push(request);
        const n = this.requests.length;
        const id = n >= 4 ? 'same' : `missing-${n}`;
        const text = n % 2 === 0 ? `{"id":"${id}","note":"a"}` : `{"note":"a","id":"${id}"}`;
        return Promise.resolve({
          toolCalls: [{ callId: `call_${n}`, name: 'find_order', arguments: text }],
          finishReason: 'tool_calls',
        });
      }
    }
    const model = new WanderingModel({ name: 'find_order', arguments: {} });
    const session = new Session();

    await catchRejection(LoopStoppedError, () =>
      runtimeWith({ maxTurns: 50, governor: { idleTurns: 50 } }).evaluate(prompt(), {
        adapter: model,
        session,
      }),
    );

    // Three distinct failures, then the same one until the threshold: warned and stopped on those alone.
    const interventions = session.slice(LoopIntervention).all();
    const limit = DEFAULT_LOOP_GOVERNOR.repeatedFailures;
    expect(interventions.map((event) => [event.action, event.reason, event.turn])).toEqual([
      ['warned', 'repeated-failure', 3 + limit - 1],
      ['stopped', 'repeated-failure', 3 + limit],
    ]);
  });

  it('follows repeatedFailures given per evaluation, over the runtime default', async () => {
    const model = new RepeatingModel({ name: 'find_order', arguments: { id: 'missing' } });
    const runtime = runtimeWith({ governor: { repeatedFailures: 5 } });
    await catchRejection(LoopStoppedError, () =>
      runtime.evaluate(prompt(), { adapter: model, governor: { repeatedFailures: 2 } }),
    );
    expect(model.requests).toHaveLength(3);
  });

  it('stops a model whose calls return nothing new, with reason no-progress', async () => {
    const model = new RepeatingModel({ name: 'find_order', arguments: { id: 'known' } });
    const session = new Session();
    const runtime = runtimeWith({ governor: { idleTurns: 2 } });
    const error = await catchRejection(LoopStoppedError, () =>
      runtime.evaluate(prompt(), { adapter: model, session }),
    );
    // The first call's result is new; the next two are idle (the second warns); the third stops.
    expect(model.requests).toHaveLength(4);
    expect(error.reason).toBe('no-progress');
    expect(error.tool).toBeUndefined();
    expect(addedUserMessages(model.requests[3] as ProviderRequest)[0]).toContain(
      'changed nothing and returned nothing new',
    );
    expect(
      session
        .slice(LoopIntervention)
        .all()
        .map((event) => event.action),
    ).toEqual(['warned', 'stopped']);
  });

  it('counts a turn that changes session state as progress', async () => {
    const script: ScriptedTurn[] = [
      ...Array.from({ length: 6 }, () => ({
        toolCalls: [{ name: 'add_note', arguments: { id: 'same' } }],
      })),
      { text: 'Six notes.' },
    ];
    const agent = createTestRuntime({ script, runtime: { governor: { idleTurns: 1 } } });
    const session = new Session();
    const response = await agent.evaluate(prompt(), { session });
    expect(response.text).toBe('Six notes.');
    expect(session.slice(Note).all()).toHaveLength(6);
    expect(session.slice(LoopIntervention).all()).toEqual([]);
  });

  it('lets a model that repeats a failing call run to maxTurns when turned off', async () => {
    const model = new RepeatingModel({ name: 'find_order', arguments: { id: 'missing' } });
    const runtime = runtimeWith({ maxTurns: 8, governor: { enabled: false } });
    const error = await catchRejection(PromptEvaluationError, () =>
      runtime.evaluate(prompt(), { adapter: model }),
    );
    expect(LoopStoppedError.is(error)).toBe(false);
    expect(error.message).toContain('maxTurns');
    expect(model.requests).toHaveLength(8);
  });

  it('tells the model in the last request maxTurns allows to answer now', async () => {
    const call = { toolCalls: [{ name: 'add_note', arguments: { id: 'a' } }] };
    const agent = createTestRuntime({ script: [call, call, { text: 'Done.' }] });
    await agent.evaluate(prompt(), { maxTurns: 3, session: new Session() });
    const told = agent.adapter.requests.map(addedUserMessages);
    expect(told[0]).toEqual([]);
    expect(told[1]).toEqual([]);
    expect(told[2]).toHaveLength(1);
    expect(told[2]?.[0]).toContain('answer now');
  });

  it('sends no last-turn notice when lastTurnNotice is false', async () => {
    const call = { toolCalls: [{ name: 'add_note', arguments: { id: 'a' } }] };
    const agent = createTestRuntime({ script: [call, { text: 'Done.' }] });
    const session = new Session();
    await agent.evaluate(prompt(), { maxTurns: 2, session, governor: { lastTurnNotice: false } });
    expect(agent.adapter.requests.map(addedUserMessages)).toEqual([[], []]);
    expect(session.slice(LoopIntervention).all()).toEqual([]);
  });

  it('refuses a threshold that is not a positive integer, naming the option', () => {
    expect(() => installAffordance(new Container(), { governor: { idleTurns: 0 } })).toThrow(
      ConfigurationError,
    );
    expect(() =>
      installAffordance(new Container(), { governor: { repeatedFailures: 1.5 } }),
    ).toThrow(/governor\.repeatedFailures/);
  });

  it('adds each intervention to the evaluation span', async () => {
    const otel = new InMemoryOtel();
    const model = new RepeatingModel({ name: 'find_order', arguments: { id: 'missing' } });
    const runtime = runtimeWith({ telemetry: otel.telemetry() });
    await catchRejection(LoopStoppedError, () => runtime.evaluate(prompt(), { adapter: model }));
    const span = only(otel.spans(), 'invoke_agent test/governor');
    expect(eventNames(span).filter((name) => name === 'affordance.loop.intervention')).toHaveLength(
      2,
    );
    const actions = span.events
      .filter((event) => event.name === 'affordance.loop.intervention')
      .map((event) => [
        event.attributes?.['affordance.loop.action'],
        event.attributes?.['affordance.loop.tool'],
      ]);
    expect(actions).toEqual([
      ['warned', 'find_order'],
      ['stopped', 'find_order'],
    ]);
    expect(span.attributes['affordance.error.phase']).toBe('governor');
  });
});
