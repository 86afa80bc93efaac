import { IsString } from 'class-validator';
import { Container } from 'inversify';

import {
  type EvaluationCheckpoint,
  EvaluationStateError,
  type EvaluationState,
  installAffordance,
  MarkdownSection,
  Prompt,
  PromptExecuted,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
  type ToolCallOutcome,
} from 'affordance';
import type { ProviderToolCall } from 'affordance/provider';
import { ScriptedAdapter, type ScriptedTurn, TEST_STATE_SECRET } from 'affordance/testing';

class OrderParams {
  @IsString() orderId!: string;
}

/** A STATE slice the state-changing tools write. */
class Shipped {
  constructor(readonly orderId: string) {}
}

/** What the handlers did, across every "process" of a test. */
type Ledger = string[];

interface DeskOptions {
  /** Makes `ship` hang after it ran, as a process killed mid-call would; called when it does. */
  readonly hangInShip?: () => void;
}

function desk(ledger: Ledger, options: DeskOptions = {}): Prompt {
  const tools = [
    new ToolDefinition({
      name: 'charge',
      description: 'Charge an order.',
      params: OrderParams,
      handler: (params) => {
        ledger.push(`charge ${params.orderId}`);
        return ToolResult.ok(null, `Charged ${params.orderId}.`);
      },
    }),
    new ToolDefinition({
      name: 'ship',
      description: 'Ship an order.',
      params: OrderParams,
      handler: async (params, context) => {
        ledger.push(`ship ${params.orderId}`);
        context.session.dispatch(new Shipped(params.orderId));
        if (options.hangInShip !== undefined) {
          options.hangInShip();
          await new Promise<never>(() => undefined);
        }
        return ToolResult.ok(null, `Shipped ${params.orderId}.`);
      },
    }),
    new ToolDefinition({
      name: 'lookup',
      description: 'Look an order up.',
      params: OrderParams,
      readOnly: true,
      handler: (params) => {
        ledger.push(`lookup ${params.orderId}`);
        return ToolResult.ok(null, `Order ${params.orderId} is open.`);
      },
    }),
  ];
  return new Prompt({
    ns: 'shop',
    key: 'orders',
    sections: [
      new MarkdownSection({ key: 'desk', title: 'Desk', template: 'Handle orders.', tools }),
    ],
  });
}

const call = (callId: string, name: string, orderId: string): ProviderToolCall => ({
  callId,
  name,
  arguments: { orderId },
});
const workTurn: ScriptedTurn = {
  toolCalls: [call('c1', 'charge', 'A-1'), call('c2', 'ship', 'A-1')],
};
const answer: ScriptedTurn = { text: 'All done.' };

/**
 * A checkpoint that keeps what a durable store would: the turn's state, the
 * started call ids, and a copy of the session as of the last `callsRecorded`
 * (or `turnStarted`). `crashAt` makes the "process" die at that point.
 */
class Recorder implements EvaluationCheckpoint {
  readonly log: string[] = [];
  state: EvaluationState | undefined;
  started: string[] = [];
  committed: Session | undefined;

  constructor(
    private readonly session: Session,
    private readonly crashAt?: (point: string) => boolean,
  ) {}

  turnStarted(state: EvaluationState): void {
    this.state = JSON.parse(JSON.stringify(state)) as EvaluationState;
    this.started = [];
    this.#commit(`turn ${state.turn}: ${state.remaining.map((c) => c.callId).join(',')}`);
  }

  callsStarting(calls: readonly ProviderToolCall[]): void {
    this.started.push(...calls.map((c) => c.callId));
    this.#point(`starting ${calls.map((c) => c.callId).join(',')}`);
  }

  callsRecorded(outcomes: readonly ToolCallOutcome[]): void {
    this.#commit(
      `recorded ${outcomes.map((o) => `${o.call.callId}:${o.event.outcome}`).join(',')}`,
    );
  }

  #commit(point: string): void {
    this.committed = this.session.clone({ sessionId: this.session.sessionId });
    this.#point(point);
  }

  #point(point: string): void {
    this.log.push(point);
    if (this.crashAt?.(point) === true) throw new Error(`process died at "${point}"`);
  }
}

function fresh() {
  return installAffordance(new Container(), { stateSecret: TEST_STATE_SECRET });
}

/** Runs `prompt` until the "process" dies: the run fails, or a handler hangs (`hung` resolves). */
async function runUntilCrash(
  recorder: Recorder,
  session: Session,
  prompt: Prompt,
  turns: ScriptedTurn[],
  hung: Promise<void> = new Promise<void>(() => undefined),
): Promise<string> {
  const adapter = new ScriptedAdapter(turns);
  const run = fresh().evaluate(prompt, { adapter, session, input: 'Go.', checkpoint: recorder });
  // A hanging handler never settles the run: it stands for a process that was killed.
  return await Promise.race([
    run.then(
      () => 'completed',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    ),
    hung.then(() => 'hung'),
  ]);
}

function recovered(committed: Session | undefined): Session {
  if (committed === undefined) throw new Error('nothing was committed');
  return committed;
}

describe('evaluation checkpoints', () => {
  it('are told of each turn before its calls, each batch before it starts and after it is recorded', async () => {
    const ledger: Ledger = [];
    const session = new Session();
    const recorder = new Recorder(session);
    const adapter = new ScriptedAdapter([
      {
        toolCalls: [
          call('r1', 'lookup', 'A-1'),
          call('r2', 'lookup', 'B-2'),
          call('c1', 'charge', 'A-1'),
        ],
      },
      answer,
    ]);
    const response = await fresh().evaluate(desk(ledger), {
      adapter,
      session,
      input: 'Go.',
      checkpoint: recorder,
    });
    expect(response.text).toBe('All done.');
    expect(recorder.log).toEqual([
      'turn 0: r1,r2,c1',
      'starting r1,r2',
      'recorded r1:success,r2:success',
      'starting c1',
      'recorded c1:success',
    ]);
    // The turn's state is plain JSON that waits on nobody: every call remains, none is pending.
    expect(recorder.state?.pending).toEqual([]);
    expect(recorder.state?.remaining.map((c) => c.callId)).toEqual(['r1', 'r2', 'c1']);
  });

  it('recovers after a crash mid-call: recorded calls are not run again, the interrupted one is recorded unknown', async () => {
    const ledger: Ledger = [];
    const session = new Session();
    const recorder = new Recorder(session);
    let hang = (): void => undefined;
    const hung = new Promise<void>((resolve) => {
      hang = resolve;
    });
    const outcome = await runUntilCrash(
      recorder,
      session,
      desk(ledger, {
        hangInShip: () => {
          hang();
        },
      }),
      [workTurn, answer],
      hung,
    );
    expect(outcome).toBe('hung');
    expect(ledger).toEqual(['charge A-1', 'ship A-1']);
    expect(recorder.started).toEqual(['c1', 'c2']);

    // Another process: the session as last committed, the turn's state and the started ids.
    const durable = recovered(recorder.committed);
    const seen: string[][] = [];
    const adapter = new ScriptedAdapter([
      {
        ...answer,
        expect: (request) => {
          seen.push(request.messages.filter((m) => m.role === 'tool').map((m) => m.content));
        },
      },
    ]);
    const response = await fresh().evaluate(desk(ledger), {
      adapter,
      session: durable,
      input: 'Go.',
      resume: {
        state: recorder.state as EvaluationState,
        decisions: [],
        recovery: { startedCalls: recorder.started },
      },
    });

    expect(response.status).toBe('completed');
    expect(response.text).toBe('All done.');
    expect(ledger).toEqual(['charge A-1', 'ship A-1']);
    const records = durable.view.slice(ToolInvoked).all();
    expect(records.map((event) => [event.callId, event.outcome])).toEqual([
      ['c1', 'success'],
      ['c2', 'unknown'],
    ]);
    expect(records[1]?.renderedMessage).toMatch(/interrupted.*may or may not have taken effect/);
    // The model reads the recorded result of c1 and the interruption of c2.
    expect(seen).toEqual([['Charged A-1.', records[1]?.renderedMessage]]);
    // What the killed call wrote was never committed.
    expect(durable.view.slice(Shipped).all()).toEqual([]);
    expect(response.toolCalls.map((outcome) => outcome.call.callId)).toEqual(['c1', 'c2']);
    expect(durable.view.slice(PromptExecuted).all()).toHaveLength(1);
    expect(durable.view.slice(PromptExecuted).latest()?.evaluationId).toBe(
      recorder.state?.evaluationId,
    );
  });

  it('recovers after a crash before any call started: every call runs, once', async () => {
    const ledger: Ledger = [];
    const session = new Session();
    const recorder = new Recorder(session, (point) => point === 'starting c1');
    const outcome = await runUntilCrash(recorder, session, desk(ledger), [workTurn, answer]);
    expect(outcome).toBe('process died at "starting c1"');
    expect(ledger).toEqual([]);
    // The process died before the mark of c1's start was stored: nothing had started, so everything runs.
    const durable = recovered(recorder.committed);
    const response = await fresh().evaluate(desk(ledger), {
      adapter: new ScriptedAdapter([answer]),
      session: durable,
      resume: {
        state: recorder.state as EvaluationState,
        decisions: [],
        recovery: { startedCalls: [] },
      },
    });
    expect(response.text).toBe('All done.');
    expect(ledger).toEqual(['charge A-1', 'ship A-1']);
    expect(
      durable.view
        .slice(ToolInvoked)
        .all()
        .map((event) => event.outcome),
    ).toEqual(['success', 'success']);
    expect(durable.view.slice(Shipped).all()).toEqual([new Shipped('A-1')]);
  });

  it('recovers after every call was recorded: asks the model again and runs nothing twice', async () => {
    const ledger: Ledger = [];
    const session = new Session();
    const recorder = new Recorder(session, (point) => point === 'recorded c2:success');
    const outcome = await runUntilCrash(recorder, session, desk(ledger), [workTurn, answer]);
    expect(outcome).toBe('process died at "recorded c2:success"');
    const durable = recovered(recorder.committed);
    const seen: string[][] = [];
    const response = await fresh().evaluate(desk(ledger), {
      adapter: new ScriptedAdapter([
        {
          ...answer,
          expect: (request) => {
            seen.push(request.messages.filter((m) => m.role === 'tool').map((m) => m.content));
          },
        },
      ]),
      session: durable,
      resume: {
        state: recorder.state as EvaluationState,
        decisions: [],
        recovery: { startedCalls: recorder.started },
      },
    });
    expect(response.text).toBe('All done.');
    expect(ledger).toEqual(['charge A-1', 'ship A-1']);
    expect(seen).toEqual([['Charged A-1.', 'Shipped A-1.']]);
    expect(durable.view.slice(Shipped).all()).toEqual([new Shipped('A-1')]);
    expect(durable.view.slice(ToolInvoked).all()).toHaveLength(2);
  });

  it('refuses a recovery whose startedCalls is not a list of ids, before anything runs', async () => {
    const ledger: Ledger = [];
    const session = new Session();
    const recorder = new Recorder(session, (point) => point === 'starting c1');
    await runUntilCrash(recorder, session, desk(ledger), [workTurn, answer]);
    const durable = recovered(recorder.committed);
    const adapter = new ScriptedAdapter([answer]);
    const error = await fresh()
      .evaluate(desk(ledger), {
        adapter,
        session: durable,
        resume: {
          state: recorder.state as EvaluationState,
          decisions: [],
          recovery: { startedCalls: 'c1' as unknown as string[] },
        },
      })
      .catch((caught: unknown) => caught);
    expect(EvaluationStateError.is(error)).toBe(true);
    expect((error as EvaluationStateError).problem).toMatch(/startedCalls must be an array/);
    expect(adapter.remaining).toBe(1);
    expect(ledger).toEqual([]);
  });

  it('are told the same points by a streamed evaluation', async () => {
    const session = new Session();
    const recorder = new Recorder(session);
    const stream = fresh().stream(desk([]), {
      adapter: new ScriptedAdapter([workTurn, answer]),
      session,
      input: 'Go.',
      checkpoint: recorder,
    });
    const types: string[] = [];
    for await (const part of stream) types.push(part.type);
    expect(types.at(-1)).toBe('answer');
    expect(recorder.log).toEqual([
      'turn 0: c1,c2',
      'starting c1',
      'recorded c1:success',
      'starting c2',
      'recorded c2:success',
    ]);
  });

  it('a checkpoint that throws ends the evaluation with its error', async () => {
    const ledger: Ledger = [];
    const session = new Session();
    const recorder = new Recorder(session, (point) => point.startsWith('turn 0'));
    const outcome = await runUntilCrash(recorder, session, desk(ledger), [workTurn, answer]);
    expect(outcome).toBe('process died at "turn 0: c1,c2"');
    expect(ledger).toEqual([]);
  });
});
