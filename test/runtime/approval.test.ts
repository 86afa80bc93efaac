import { IsInt, IsString, Min } from 'class-validator';
import { Container } from 'inversify';

import {
  AffordanceRuntime,
  type ApprovalDecision,
  Budget,
  Deadline,
  EvaluationStateError,
  type EvaluationState,
  installAffordance,
  MarkdownSection,
  PolicyDecision,
  PromptExecuted,
  Prompt,
  type PromptResponse,
  type RuntimeOptions,
  Session,
  type ToolContext,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import {
  ManualClock,
  ScriptedAdapter,
  type ScriptedTurn,
  TEST_STATE_SECRET,
} from 'affordance/testing';

import { toolMessages } from '../support/conversation.js';

class OrderParams {
  @IsString() orderId!: string;
}

class RefundParams {
  @IsString() orderId!: string;
  @IsInt() @Min(1) amount!: number;
}

/** A STATE slice the refund tool writes: shows what ran. */
class RefundIssued {
  constructor(
    readonly orderId: string,
    readonly amount: number,
  ) {}
}

/** What the handlers did, in order, across every runtime of a test. */
type Ledger = string[];

interface DeskOptions {
  readonly approval?: ToolDefinition<RefundParams>['approval'] | false;
  readonly extraTool?: boolean;
  readonly key?: string;
}

/** The support desk: read-only lookups, a refund that needs approval, a state-changing note. */
function desk(ledger: Ledger, options: DeskOptions = {}): Prompt {
  const tools: ToolDefinition[] = [
    new ToolDefinition({
      name: 'lookup_order',
      description: 'Look an order up.',
      params: OrderParams,
      readOnly: true,
      handler: (params) => {
        ledger.push(`lookup ${params.orderId}`);
        return ToolResult.ok({ orderId: params.orderId, total: 120 }, `Order ${params.orderId}.`);
      },
    }),
    new ToolDefinition({
      name: 'refund_order',
      description: 'Refund an order.',
      params: RefundParams,
      approval: options.approval ?? true,
      handler: (params, context) => {
        ledger.push(`refund ${params.orderId} ${params.amount}`);
        context.session.dispatch(new RefundIssued(params.orderId, params.amount));
        return ToolResult.ok(null, `Refunded ${params.amount} on ${params.orderId}.`);
      },
    }),
    new ToolDefinition({
      name: 'add_note',
      description: 'Add a note to an order.',
      params: OrderParams,
      handler: (params) => {
        ledger.push(`note ${params.orderId}`);
        return ToolResult.ok(null, `Noted ${params.orderId}.`);
      },
    }),
  ];
  if (options.extraTool === true) {
    tools.push(
      new ToolDefinition({
        name: 'close_ticket',
        description: 'Close the ticket.',
        handler: () => ToolResult.ok(null, 'Closed.'),
      }),
    );
  }
  return new Prompt({
    ns: 'support',
    key: options.key ?? 'refunds',
    sections: [
      new MarkdownSection({ key: 'desk', title: 'Desk', template: 'Handle refunds.', tools }),
    ],
  });
}

const refund = (callId: string, orderId: string, amount: number) => ({
  callId,
  name: 'refund_order',
  arguments: { orderId, amount },
});
const lookup = (callId: string, orderId: string) => ({
  callId,
  name: 'lookup_order',
  arguments: { orderId },
});
const note = (callId: string, orderId: string) => ({
  callId,
  name: 'add_note',
  arguments: { orderId },
});

/** The first turn of most tests: read, refund (approval), read, refund (approval), note. */
const mixedTurn: ScriptedTurn = {
  toolCalls: [
    lookup('c1', 'A-1'),
    refund('c2', 'A-1', 50),
    lookup('c3', 'B-2'),
    refund('c4', 'B-2', 700),
    note('c5', 'A-1'),
  ],
  usage: { inputTokens: 100, outputTokens: 20, reasoningTokens: 12 },
};
const answerTurn: ScriptedTurn = {
  text: 'Done.',
  usage: { inputTokens: 150, outputTokens: 5, reasoningTokens: 3 },
};

/** The error `promise` rejects with; fails when it resolves. */
async function rejected(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, but the promise resolved');
}

/** A fresh runtime on a fresh container, as another process would build it (with the same test secret). */
function freshRuntime(options: RuntimeOptions = {}): AffordanceRuntime {
  return installAffordance(new Container(), { stateSecret: TEST_STATE_SECRET, ...options });
}

/** What the session recorded, without ids, times and durations. */
function recorded(session: Session): unknown[] {
  return session.view
    .slice(ToolInvoked)
    .all()
    .map((event) => ({
      name: event.name,
      callId: event.callId,
      params: JSON.parse(JSON.stringify(event.params ?? null)) as unknown,
      outcome: event.outcome,
      message: event.renderedMessage,
    }));
}

function interrupted(response: PromptResponse): Extract<PromptResponse, { status: 'interrupted' }> {
  if (response.status !== 'interrupted') {
    throw new Error(`expected an interrupted response, got ${response.status}`);
  }
  return response;
}

/** Runs the desk to its first pause and returns the response, the session and the state as JSON text. */
async function pauseOnce(ledger: Ledger, turns: readonly ScriptedTurn[] = [mixedTurn]) {
  const session = new Session();
  const adapter = new ScriptedAdapter([...turns]);
  const response = interrupted(
    await freshRuntime().evaluate(desk(ledger), { adapter, session, input: 'Refund A-1 and B-2.' }),
  );
  return { response, session, saved: JSON.stringify(response.interruption.state), adapter };
}

describe('approval: pausing an evaluation', () => {
  it('runs the calls before the first pending one, then pauses with every pending call of the turn', async () => {
    const ledger: Ledger = [];
    const { response, session } = await pauseOnce(ledger);

    expect(ledger).toEqual(['lookup A-1']);
    expect(response.interruption.session).toBe(session);
    expect(response.toolCalls.map((call) => call.call.callId)).toEqual(['c1']);
    expect(response.text).toBeNull();
    expect(response.turns).toBe(1);
    const pending = response.interruption.pending;
    expect(pending.map((call) => [call.callId, call.name, call.reason])).toEqual([
      ['c2', 'refund_order', "Tool 'refund_order' needs a person's approval."],
      ['c4', 'refund_order', "Tool 'refund_order' needs a person's approval."],
    ]);
    expect(pending[0]?.params).toBeInstanceOf(RefundParams);
    expect(pending[1]?.params).toMatchObject({ orderId: 'B-2', amount: 700 });
    // Nothing of the pending or later calls ran or was recorded; the lookup was.
    expect(recorded(session).map((event) => (event as { callId: string }).callId)).toEqual(['c1']);
    expect(session.view.slice(RefundIssued).all()).toEqual([]);
  });

  it('saves a plain JSON state without class instances', async () => {
    const { response, saved } = await pauseOnce([]);
    const state = response.interruption.state;
    expect(JSON.parse(saved)).toEqual(state);
    const instances: string[] = [];
    const visit = (value: unknown, path: string): void => {
      if (typeof value !== 'object' || value === null) return;
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== Array.prototype) instances.push(path);
      for (const [key, inner] of Object.entries(value)) visit(inner, `${path}.${key}`);
    };
    visit(state, 'state');
    expect(instances).toEqual([]);
    expect(state.remaining.map((call) => call.callId)).toEqual(['c2', 'c3', 'c4', 'c5']);
    expect(state.pending.map((call) => call.params)).toEqual([
      { orderId: 'A-1', amount: 50 },
      { orderId: 'B-2', amount: 700 },
    ]);
    expect(state.usage).toEqual({
      inputTokens: 100,
      outputTokens: 20,
      cachedTokens: null,
      cacheWriteTokens: null,
      reasoningTokens: 12,
    });
    expect(state.integrity.algorithm).toBe('hmac-sha256');
  });

  it('asks for approval only when the predicate says so', async () => {
    const ledger: Ledger = [];
    const prompt = desk(ledger, {
      approval: (params: RefundParams, context: ToolContext) =>
        params.amount > 100 && context.callId.length > 0,
    });
    const adapter = new ScriptedAdapter([
      { toolCalls: [refund('small', 'A-1', 50), refund('large', 'B-2', 700)] },
    ]);
    const runtime = freshRuntime();
    const response = interrupted(await runtime.evaluate(prompt, { adapter }));
    expect(ledger).toEqual(['refund A-1 50']);
    expect(response.interruption.pending.map((call) => call.callId)).toEqual(['large']);
    // No session was passed: the interruption carries the one the runtime created, and resuming with it works.
    const done = await runtime.resume(
      prompt,
      response.interruption.state,
      [{ callId: 'large', approved: true }],
      { adapter: new ScriptedAdapter([answerTurn]), session: response.interruption.session },
    );
    expect(done.status).toBe('completed');
    expect(ledger).toEqual(['refund A-1 50', 'refund B-2 700']);
  });

  it('runs a read-only call that needs approval alone: no later call of its batch runs before the pause', async () => {
    const ledger: Ledger = [];
    const exportTool = new ToolDefinition({
      name: 'export_order',
      description: 'Export an order to the customer.',
      params: OrderParams,
      readOnly: true,
      approval: true,
      handler: (params) => {
        ledger.push(`export ${params.orderId}`);
        return ToolResult.ok(null, `Exported ${params.orderId}.`);
      },
    });
    const base = desk(ledger);
    const prompt = new Prompt({
      ns: 'support',
      key: 'exports',
      sections: [
        ...base.sections,
        new MarkdownSection({
          key: 'export',
          title: 'Export',
          template: 'Export.',
          tools: [exportTool],
        }),
      ],
    });
    const session = new Session();
    const turn: ScriptedTurn = {
      toolCalls: [
        lookup('r1', 'A-1'),
        { callId: 'r2', name: 'export_order', arguments: { orderId: 'A-1' } },
        lookup('r3', 'B-2'),
      ],
    };
    const paused = interrupted(
      await freshRuntime().evaluate(prompt, { adapter: new ScriptedAdapter([turn]), session }),
    );
    expect(ledger).toEqual(['lookup A-1']);
    await freshRuntime().resume(
      prompt,
      paused.interruption.state,
      [{ callId: 'r2', approved: true }],
      {
        adapter: new ScriptedAdapter([answerTurn]),
        session,
      },
    );
    expect(ledger).toEqual(['lookup A-1', 'export A-1', 'lookup B-2']);
    expect(recorded(session).map((event) => (event as { callId: string }).callId)).toEqual([
      'r1',
      'r2',
      'r3',
    ]);
  });

  it('pauses for a policy that asks for approval, with the policy reason', async () => {
    const ledger: Ledger = [];
    const base = desk(ledger, { approval: false });
    const prompt = new Prompt({
      ns: base.ns,
      key: base.key,
      sections: base.sections,
      policies: [
        {
          name: 'large_refunds',
          check: ({ tool, params }) =>
            tool.name === 'refund_order' && (params as RefundParams).amount > 500
              ? PolicyDecision.requireApproval('Refunds over 500 need a manager.')
              : PolicyDecision.allow(),
        },
      ],
    });
    const adapter = new ScriptedAdapter([mixedTurn]);
    const response = interrupted(await freshRuntime().evaluate(prompt, { adapter }));
    expect(ledger).toEqual(['lookup A-1', 'refund A-1 50', 'lookup B-2']);
    expect(response.interruption.pending.map((call) => [call.callId, call.reason])).toEqual([
      ['c4', 'Refunds over 500 need a manager.'],
    ]);
  });
});

describe('approval: resuming', () => {
  it('resumed in a fresh runtime, records the same events as an uninterrupted run', async () => {
    const ledger: Ledger = [];
    const { session, saved } = await pauseOnce(ledger);
    const decisions: ApprovalDecision[] = [
      { callId: 'c2', approved: true },
      { callId: 'c4', approved: true },
    ];
    const adapter = new ScriptedAdapter([answerTurn]);
    const done = await freshRuntime().resume(
      desk(ledger),
      JSON.parse(saved) as EvaluationState,
      decisions,
      { adapter, session },
    );

    const baselineLedger: Ledger = [];
    const baselineSession = new Session();
    const baseline = await freshRuntime().evaluate(desk(baselineLedger, { approval: false }), {
      adapter: new ScriptedAdapter([mixedTurn, answerTurn]),
      session: baselineSession,
      input: 'Refund A-1 and B-2.',
    });

    expect(done.status).toBe('completed');
    expect(done.text).toBe(baseline.text);
    expect(ledger).toEqual(baselineLedger);
    expect(recorded(session)).toEqual(recorded(baselineSession));
    expect(session.view.slice(RefundIssued).all()).toEqual(
      baselineSession.view.slice(RefundIssued).all(),
    );
    expect(done.toolCalls.map((call) => call.call.callId)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    expect(done.turns).toBe(2);
    expect(done.usage?.inputTokens).toBe(250);
    // Reasoning tokens counted before the pause survive the saved state.
    expect(done.usage?.reasoningTokens).toBe(12 + 3);
    expect(done.evaluationId).toBe((JSON.parse(saved) as EvaluationState).evaluationId);
    // The request after the resume carries the whole conversation, as the baseline's did.
    expect(toolMessages(adapter.requests[0])).toEqual(
      baseline.toolCalls.map((call) => [call.call.callId, call.message]),
    );
    const types = (s: Session) =>
      s.view
        .slice(ToolInvoked)
        .all()
        .map((event) => event.evaluationId === done.evaluationId);
    expect(types(session).every(Boolean)).toBe(true);
  });

  it('fails a rejected call with the person message, records it as denied and runs the rest', async () => {
    const ledger: Ledger = [];
    const { session, saved } = await pauseOnce(ledger);
    const adapter = new ScriptedAdapter([answerTurn]);
    const done = await freshRuntime().resume(
      desk(ledger),
      JSON.parse(saved) as EvaluationState,
      [
        { callId: 'c2', approved: true },
        { callId: 'c4', approved: false, message: 'Refunds over 500 need a manager.' },
      ],
      { adapter, session },
    );
    expect(done.status).toBe('completed');
    expect(ledger).toEqual(['lookup A-1', 'refund A-1 50', 'lookup B-2', 'note A-1']);
    const c4 = recorded(session).find((event) => (event as { callId: string }).callId === 'c4');
    expect(c4).toMatchObject({
      outcome: 'denied',
      message: "A person rejected this call of 'refund_order': Refunds over 500 need a manager.",
    });
    expect(toolMessages(adapter.requests[0])).toContainEqual([
      'c4',
      "A person rejected this call of 'refund_order': Refunds over 500 need a manager.",
    ]);
    expect(session.view.slice(RefundIssued).all()).toEqual([new RefundIssued('A-1', 50)]);
  });

  it('pauses again when a later turn needs approval, and carries the budget and turn count', async () => {
    const ledger: Ledger = [];
    const session = new Session();
    const first = interrupted(
      await freshRuntime().evaluate(desk(ledger), {
        adapter: new ScriptedAdapter([
          { toolCalls: [refund('r1', 'A-1', 10)], usage: { inputTokens: 40 } },
        ]),
        session,
        budget: new Budget({ maxInputTokens: 100 }),
      }),
    );
    const second = interrupted(
      await freshRuntime().resume(
        desk(ledger),
        first.interruption.state,
        [{ callId: 'r1', approved: true }],
        {
          adapter: new ScriptedAdapter([
            { toolCalls: [refund('r2', 'B-2', 20)], usage: { inputTokens: 40 } },
          ]),
          session,
        },
      ),
    );
    expect(second.turns).toBe(2);
    expect(second.interruption.state.budget).toEqual({
      maxTotalTokens: null,
      maxInputTokens: 100,
      maxOutputTokens: null,
    });
    expect(second.interruption.pending.map((call) => call.callId)).toEqual(['r2']);
    // 80 tokens used; the next request's 40 would pass the budget the evaluation started with.
    const error = await rejected(
      freshRuntime().resume(
        desk(ledger),
        second.interruption.state,
        [{ callId: 'r2', approved: true }],
        {
          adapter: new ScriptedAdapter([{ text: 'Done.', usage: { inputTokens: 40 } }]),
          session,
        },
      ),
    );
    expect(String(error)).toMatch(/budget|input tokens/i);
    expect(ledger).toEqual(['refund A-1 10', 'refund B-2 20']);
  });

  it('counts only the time the evaluation ran, not the hour it waited for a person', async () => {
    const clock = new ManualClock();
    const session = new Session();
    const ledger: Ledger = [];
    const runtime = (): AffordanceRuntime => freshRuntime({ clock });
    const slowTurn = (turn: ScriptedTurn): ScriptedTurn => ({
      ...turn,
      expect: () => {
        clock.advance(250);
      },
    });
    const paused = interrupted(
      await runtime().evaluate(desk(ledger), {
        adapter: new ScriptedAdapter([slowTurn({ toolCalls: [refund('t1', 'A-1', 5)] })]),
        session,
      }),
    );
    expect(paused.interruption.state.elapsedMs).toBe(250);
    clock.advance(3_600_000); // an hour until a person decides
    const done = await runtime().resume(
      desk(ledger),
      paused.interruption.state,
      [{ callId: 't1', approved: true }],
      {
        adapter: new ScriptedAdapter([slowTurn(answerTurn)]),
        session,
        deadline: Deadline.in(60_000, { clock }),
      },
    );
    expect(done.status).toBe('completed');
    expect(session.view.slice(PromptExecuted).latest()?.durationMs).toBe(500);
  });

  it('streams a pause as an interrupted part, and streams the resumed run', async () => {
    const ledger: Ledger = [];
    const session = new Session();
    const runtime = freshRuntime();
    const parts: string[] = [];
    let state: EvaluationState | undefined;
    for await (const part of runtime.stream(desk(ledger), {
      adapter: new ScriptedAdapter([mixedTurn]),
      session,
    })) {
      parts.push(part.type);
      if (part.type === 'interrupted') state = part.interruption.state;
    }
    expect(parts.at(-1)).toBe('interrupted');
    expect(parts.filter((type) => type === 'tool-call-end')).toHaveLength(1);
    if (state === undefined) throw new Error('no interrupted part');
    const ends: string[] = [];
    let answer: string | null = null;
    for await (const part of runtime.stream(desk(ledger), {
      adapter: new ScriptedAdapter([answerTurn]),
      session,
      resume: {
        state,
        decisions: [
          { callId: 'c2', approved: true },
          { callId: 'c4', approved: true },
        ],
      },
    })) {
      if (part.type === 'tool-call-end') ends.push(part.event.callId ?? '');
      if (part.type === 'answer') answer = part.response.text;
      if (part.type === 'error') throw part.error;
    }
    expect(ends).toEqual(['c2', 'c3', 'c4', 'c5']);
    expect(answer).toBe('Done.');
  });

  it('fails the enclosing call when a nested evaluation would pause', async () => {
    const ledger: Ledger = [];
    const child = desk(ledger, { key: 'child' });
    const parent = new Prompt({
      ns: 'support',
      key: 'parent',
      sections: [
        new MarkdownSection({
          key: 'delegate',
          title: 'Delegate',
          template: 'Delegate refunds.',
          tools: [
            new ToolDefinition({
              name: 'delegate',
              description: 'Delegate to the refunds desk.',
              handler: async (_params, context) => {
                const response = await context.evaluate(child, { session: context.session });
                return ToolResult.ok(null, response.text ?? '');
              },
            }),
          ],
        }),
      ],
    });
    const adapter = new ScriptedAdapter([
      { toolCalls: [{ callId: 'd1', name: 'delegate', arguments: {} }] },
      { toolCalls: [refund('n1', 'A-1', 10)] },
      { text: 'Could not delegate.' },
    ]);
    const response = await freshRuntime().evaluate(parent, { adapter });
    expect(response.status).toBe('completed');
    expect(response.toolCalls[0]?.message).toMatch(
      /nested evaluation of support\/child paused for approval of 'refund_order'.*Fix: put the approval rule on the outer tool/,
    );
    expect(ledger).toEqual([]);
  });
});

describe('approval: refused resumes change nothing', () => {
  async function refused(
    change: (
      state: EvaluationState,
      session: Session,
    ) => {
      state?: unknown;
      decisions?: unknown;
      prompt?: Prompt;
      session?: Session | undefined;
      runtime?: AffordanceRuntime;
      adapter?: ScriptedAdapter;
    },
  ): Promise<{ error: unknown; ledger: Ledger; versionBefore: number; session: Session }> {
    const ledger: Ledger = [];
    const { session, saved } = await pauseOnce(ledger);
    const state = JSON.parse(saved) as EvaluationState;
    const given = change(state, session);
    const versionBefore = session.version;
    const ledgerBefore = ledger.length;
    const adapter = given.adapter ?? new ScriptedAdapter([answerTurn]);
    const error = await rejected(
      (given.runtime ?? freshRuntime()).resume(
        given.prompt ?? desk(ledger),
        (given.state ?? state) as EvaluationState,
        (given.decisions ?? [
          { callId: 'c2', approved: true },
          { callId: 'c4', approved: true },
        ]) as ApprovalDecision[],
        { adapter, session: 'session' in given ? given.session : session },
      ),
    );
    expect(session.version).toBe(versionBefore);
    expect(ledger).toHaveLength(ledgerBefore);
    expect(adapter.requests).toHaveLength(0);
    return { error, ledger, versionBefore, session };
  }

  it('refuses an altered state', async () => {
    const { error } = await refused((state) => {
      const altered = JSON.parse(JSON.stringify(state)) as { remaining: { arguments: unknown }[] };
      const call = altered.remaining.find((_, index) => index === 2);
      if (call !== undefined) call.arguments = JSON.stringify({ orderId: 'B-2', amount: 70000 });
      return { state: altered };
    });
    expect(EvaluationStateError.is(error)).toBe(true);
    expect(String(error)).toMatch(/altered after it was saved.*Fix: Resume the state exactly/);
  });

  it('refuses a stale state (the session moved on) and a state already resumed', async () => {
    const stale = await refused((_state, session) => {
      session.dispatch(new RefundIssued('Z-9', 1));
      return {};
    });
    expect(String(stale.error)).toMatch(/stale: session .* changed since the evaluation paused/);

    const ledger: Ledger = [];
    const { session, saved } = await pauseOnce(ledger);
    const decisions = [
      { callId: 'c2', approved: true },
      { callId: 'c4', approved: false },
    ];
    const runtime = freshRuntime();
    await runtime.resume(desk(ledger), JSON.parse(saved) as EvaluationState, decisions, {
      adapter: new ScriptedAdapter([answerTurn]),
      session,
    });
    const ran = [...ledger];
    const again = await rejected(
      runtime.resume(desk(ledger), JSON.parse(saved) as EvaluationState, decisions, {
        adapter: new ScriptedAdapter([answerTurn]),
        session,
      }),
    );
    expect(EvaluationStateError.is(again)).toBe(true);
    expect(String(again)).toMatch(/already resumed/);
    expect(ledger).toEqual(ran);
  });

  it('refuses a second resume of the same state while the first runs', async () => {
    const ledger: Ledger = [];
    const { session, saved } = await pauseOnce(ledger);
    const runtime = freshRuntime();
    const decisions = [
      { callId: 'c2', approved: true },
      { callId: 'c4', approved: true },
    ];
    const state = JSON.parse(saved) as EvaluationState;
    const first = runtime.resume(desk(ledger), state, decisions, {
      adapter: new ScriptedAdapter([answerTurn]),
      session,
    });
    const second = await rejected(
      runtime.resume(desk(ledger), state, decisions, {
        adapter: new ScriptedAdapter([answerTurn]),
        session,
      }),
    );
    expect((await first).status).toBe('completed');
    expect(EvaluationStateError.is(second)).toBe(true);
    expect(ledger.filter((entry) => entry.startsWith('refund'))).toEqual([
      'refund A-1 50',
      'refund B-2 700',
    ]);
  });

  it('refuses decisions for unknown calls, missing decisions and duplicates; the state stays resumable', async () => {
    const unknown = await refused(() => ({
      decisions: [
        { callId: 'c2', approved: true },
        { callId: 'c4', approved: true },
        { callId: 'c9', approved: true },
      ],
    }));
    expect(String(unknown.error)).toMatch(/call 'c9' names no pending call \(pending: c2, c4\)/);
    const missing = await refused(() => ({ decisions: [{ callId: 'c2', approved: true }] }));
    expect(String(missing.error)).toMatch(/no decision was given for pending call\(s\) c4/);
    const twice = await refused(() => ({
      decisions: [
        { callId: 'c2', approved: true },
        { callId: 'c2', approved: false },
        { callId: 'c4', approved: true },
      ],
    }));
    expect(String(twice.error)).toMatch(/call 'c2' is decided twice/);
    const malformed = await refused(() => ({ decisions: [{ callId: 'c2', approved: 'yes' }] }));
    expect(String(malformed.error)).toMatch(/not \{ callId: string, approved: boolean \}/);

    // The refused attempts changed nothing: the same state still resumes.
    const ledger: Ledger = [];
    const { session, saved } = await pauseOnce(ledger);
    const state = JSON.parse(saved) as EvaluationState;
    const unknownCall = await rejected(
      freshRuntime().resume(desk(ledger), state, [{ callId: 'c7', approved: true }], {
        adapter: new ScriptedAdapter([]),
        session,
      }),
    );
    expect(EvaluationStateError.is(unknownCall)).toBe(true);
    const done = await freshRuntime().resume(
      desk(ledger),
      state,
      [
        { callId: 'c2', approved: true },
        { callId: 'c4', approved: true },
      ],
      { adapter: new ScriptedAdapter([answerTurn]), session },
    );
    expect(done.status).toBe('completed');
  });

  it('refuses another prompt, changed tools, another provider and another session', async () => {
    const other = await refused(() => ({ prompt: desk([], { key: 'other' }) }));
    expect(String(other.error)).toMatch(/saved by prompt support\/refunds/);
    const changed = await refused(() => ({ prompt: desk([], { extraTool: true }) }));
    expect(String(changed.error)).toMatch(/the prompt's tools changed since the evaluation paused/);
    const provider = await refused(() => {
      const adapter = new ScriptedAdapter([answerTurn]);
      Object.defineProperty(adapter, 'name', { value: 'other-provider' });
      return { adapter };
    });
    expect(String(provider.error)).toMatch(/saved with the 'scripted' adapter/);
    const noSession = await refused(() => ({ session: undefined }));
    expect(String(noSession.error)).toMatch(/no session was given.*Fix: Pass the session/);
    const wrongSession = await refused(() => ({ session: new Session() }));
    expect(String(wrongSession.error)).toMatch(/the state belongs to session/);
    const notAState = await refused(() => ({ state: { hello: 'world' } }));
    expect(String(notAState.error)).toMatch(/not a saved evaluation state/);
    const newer = await refused((state) => ({ state: { ...state, version: 2 } }));
    expect(String(newer.error)).toMatch(/layout version 2/);
  });

  it('signs states with stateSecret and refuses unsigned or foreign-signed ones, unless accept-forgeable', async () => {
    const secret = 'a-long-secret-for-tests-only';
    const ledger: Ledger = [];
    const session = new Session();
    const signed = interrupted(
      await freshRuntime({ stateSecret: secret }).evaluate(desk(ledger), {
        adapter: new ScriptedAdapter([mixedTurn]),
        session,
      }),
    ).interruption.state;
    expect(signed.integrity.algorithm).toBe('hmac-sha256');
    const decisions = [
      { callId: 'c2', approved: true },
      { callId: 'c4', approved: true },
    ];
    const noSecret = await rejected(
      installAffordance(new Container()).resume(desk(ledger), signed, decisions, {
        adapter: new ScriptedAdapter([]),
        session,
      }),
    );
    expect(String(noSecret)).toMatch(/the state is signed, and this runtime has no stateSecret/);
    const otherSecret = await rejected(
      freshRuntime({ stateSecret: 'another-long-secret-value' }).resume(
        desk(ledger),
        signed,
        decisions,
        { adapter: new ScriptedAdapter([]), session },
      ),
    );
    expect(String(otherSecret)).toMatch(/altered after it was saved/);
    const forgeable = (): AffordanceRuntime =>
      installAffordance(new Container(), { unsignedStates: 'accept-forgeable' });
    const plainSession = new Session();
    const plain = interrupted(
      await forgeable().evaluate(desk([]), {
        adapter: new ScriptedAdapter([mixedTurn]),
        session: plainSession,
      }),
    ).interruption.state;
    expect(plain.integrity.algorithm).toBe('sha256');
    const unsigned = await rejected(
      freshRuntime({ stateSecret: secret }).resume(desk([]), plain, decisions, {
        adapter: new ScriptedAdapter([]),
        session: plainSession,
      }),
    );
    expect(String(unsigned)).toMatch(
      /not signed .*resumes only states signed with its stateSecret/,
    );
    const accepted = await forgeable().resume(desk([]), plain, decisions, {
      adapter: new ScriptedAdapter([answerTurn]),
      session: plainSession,
    });
    expect(accepted.status).toBe('completed');
    const done = await freshRuntime({ stateSecret: secret }).resume(
      desk(ledger),
      signed,
      decisions,
      {
        adapter: new ScriptedAdapter([answerTurn]),
        session,
      },
    );
    expect(done.status).toBe('completed');
    expect(() => freshRuntime({ stateSecret: 'short' })).toThrow(/at least 16 characters/);
  });
});
