import { Injectable, Module } from '@nestjs/common';
import type { INestApplicationContext } from '@nestjs/common';
import { IsInt, IsString, Min } from 'class-validator';

import {
  type ApprovalDecision,
  ConfigurationError,
  type EvaluationState,
  EvaluationStateError,
  EvaluationStateStore,
  InMemoryEvaluationStateStore,
  Prompt,
  type PromptResponse,
  Section,
  Session,
  Tool,
  type ToolContext,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { AffordanceModule, AffordanceService } from 'affordance/nest';
import type { ProviderRequest } from 'affordance/provider';
import { type ScriptedTurn, TEST_STATE_SECRET } from 'affordance/testing';

import { catchError, catchRejection } from '../support/catch-error.js';
import { createContext } from '../support/nest-http.js';
import { Caller, type HttpRequest } from '../support/nest-caller.js';
import { ScriptPerEvaluation } from '../support/script-per-evaluation.js';

class RefundParams {
  @IsString() orderId!: string;
  @IsInt() @Min(1) amount!: number;
}

/** What the refund tool did, in order: a Nest singleton the tests read. */
@Injectable()
class Ledger {
  readonly entries: string[] = [];
}

/** Request-scoped through `Caller`: a resumed call shows whose request it ran in. */
@Section({ key: 'refunds', title: 'Refunds', template: 'Refund orders when asked.' })
class RefundSection {
  constructor(
    private readonly caller: Caller,
    private readonly ledger: Ledger,
  ) {}

  @Tool({
    name: 'refund_order',
    description: 'Refund an order.',
    approval: (params: RefundParams) => params.amount > 100,
  })
  refund(params: RefundParams, _context: ToolContext): ToolResult {
    this.ledger.entries.push(`${params.orderId} ${params.amount} for ${this.caller.name}`);
    return ToolResult.ok(undefined, `Refunded ${params.amount} on ${params.orderId}.`);
  }
}

const refundPrompt = new Prompt({ ns: 'test/nest', key: 'refunds', sections: [RefundSection] });

/** The tool messages each final turn read, by the input that started its evaluation. */
const finalToolMessages = new Map<string, string[]>();

/** `refund <amount>`: one refund call of that amount (call id `r1`), then an answer. */
function scriptFor(input: string): ScriptedTurn[] {
  const amount = Number(/refund (\d+)/.exec(input)?.[1] ?? '0');
  return [
    { toolCalls: [{ name: 'refund_order', callId: 'r1', arguments: { orderId: 'A-1', amount } }] },
    {
      text: 'Refund handled.',
      expect: (request: ProviderRequest) => {
        finalToolMessages.set(input, toolMessages(request));
      },
    },
  ];
}

function toolMessages(request: ProviderRequest): string[] {
  return request.messages.flatMap((message) => (message.role === 'tool' ? [message.content] : []));
}

/** A controller-like consumer: injects the store by its class, as an application's controller would. */
@Injectable()
class Approvals {
  constructor(readonly store: EvaluationStateStore) {}
}

function refundModule(options: { stateStore?: EvaluationStateStore } = {}) {
  @Module({
    imports: [
      AffordanceModule.forRoot({
        adapter: () => new ScriptPerEvaluation(scriptFor),
        prompts: [refundPrompt],
        runtime: { stateSecret: TEST_STATE_SECRET },
        ...options,
      }),
    ],
    providers: [Caller, Ledger, RefundSection, Approvals],
  })
  class RefundModule {}
  return RefundModule;
}

function request(caller: string): HttpRequest {
  return { headers: { 'x-caller': caller } };
}

function pausedState(response: PromptResponse): EvaluationState {
  if (response.status !== 'interrupted') throw new Error('the evaluation did not pause');
  return response.interruption.state;
}

describe('AffordanceService.resume', () => {
  let app: INestApplicationContext;
  let affordance: AffordanceService;
  let ledger: Ledger;

  beforeAll(async () => {
    app = await createContext(refundModule());
    affordance = app.get(AffordanceService);
    ledger = app.get(Ledger);
  });

  afterAll(async () => {
    await app.close();
  });

  /** Starts `refund <amount>` as `ann` and returns the paused state and its session. */
  async function pause(input: string): Promise<{ state: EvaluationState; session: Session }> {
    const session = new Session();
    const response = await affordance.evaluate(refundPrompt, {
      request: request('ann'),
      session,
      input,
    });
    return { state: pausedState(response), session };
  }

  it('should provide an in-memory EvaluationStateStore that providers inject by its class', () => {
    const store = app.get(EvaluationStateStore);

    expect(store).toBeInstanceOf(InMemoryEvaluationStateStore);
    expect(app.get(Approvals).store).toBe(store);
  });

  it("should resume a paused evaluation from the store, running the approved call in the approver's request", async () => {
    const before = ledger.entries.length;
    const { state, session } = await pause('refund 500');
    const store = app.get(Approvals).store;
    const stateId = await store.save(state);
    // Nothing ran while the call waited.
    expect(ledger.entries).toHaveLength(before);

    const taken = await store.take(stateId);
    if (taken === undefined) throw new Error('the store lost the state');
    const response = await affordance.resume(
      refundPrompt,
      taken,
      [{ callId: 'r1', approved: true }],
      {
        request: request('bob'),
        session,
      },
    );

    expect(response.status).toBe('completed');
    expect(response.text).toBe('Refund handled.');
    expect(response.evaluationId).toBe(state.evaluationId);
    // The approved call ran in the Nest context of the resuming request.
    expect(ledger.entries.slice(before)).toEqual(['A-1 500 for bob']);
    expect(
      session
        .slice(ToolInvoked)
        .all()
        .map((call) => call.outcome),
    ).toEqual(['success']);
    expect(await store.take(stateId)).toBeUndefined();
  });

  it('should let the model read the message of a rejected call, running nothing', async () => {
    const before = ledger.entries.length;
    const { state, session } = await pause('refund 900');

    const response = await affordance.resume(
      refundPrompt,
      state,
      [{ callId: 'r1', approved: false, message: 'Over the limit for this customer.' }],
      { request: request('bob'), session },
    );

    expect(response.status).toBe('completed');
    expect(ledger.entries).toHaveLength(before);
    expect(response.toolCalls.map((call) => call.event.outcome)).toEqual(['denied']);
    expect(finalToolMessages.get('refund 900')?.at(-1)).toContain(
      'Over the limit for this customer.',
    );
  });

  it('should refuse decisions for an unknown call before running anything, and resume once corrected', async () => {
    const before = ledger.entries.length;
    const { state, session } = await pause('refund 300');
    const version = session.version;

    const error = await catchRejection(EvaluationStateError, () =>
      affordance.resume(refundPrompt, state, [{ callId: 'r9', approved: true }], {
        request: request('bob'),
        session,
      }),
    );

    expect(error.problem).toContain("the decision for call 'r9' names no pending call");
    expect(session.version).toBe(version);
    expect(ledger.entries).toHaveLength(before);
    const done = await affordance.resume(refundPrompt, state, [{ callId: 'r1', approved: true }], {
      request: request('carol'),
      session,
    });
    expect(done.status).toBe('completed');
    expect(ledger.entries.slice(before)).toEqual(['A-1 300 for carol']);
  });

  it('should not pause a call its approval rule lets through', async () => {
    const before = ledger.entries.length;

    const response = await affordance.evaluate(refundPrompt, {
      request: request('dan'),
      input: 'refund 40',
    });

    expect(response.status).toBe('completed');
    expect(ledger.entries.slice(before)).toEqual(['A-1 40 for dan']);
  });

  describe('through stream({ resume })', () => {
    it("should stream the rest of the evaluation, running the approved call in the reader's request", async () => {
      const before = ledger.entries.length;
      const { state, session } = await pause('refund 700');
      const decisions: ApprovalDecision[] = [{ callId: 'r1', approved: true }];

      const parts: string[] = [];
      let answer: string | null = null;
      for await (const part of affordance.stream(refundPrompt, {
        request: request('erin'),
        session,
        resume: { state, decisions },
      })) {
        parts.push(
          part.type === 'tool-call-end' ? `${part.type}:${part.event.outcome}` : part.type,
        );
        if (part.type === 'answer') answer = part.response.text;
      }

      expect(parts[0]).toBe('tool-call-end:success');
      expect(parts.at(-1)).toBe('answer');
      expect(answer).toBe('Refund handled.');
      expect(ledger.entries.slice(before)).toEqual(['A-1 700 for erin']);
    });

    it('should end with one error part holding the EvaluationStateError of a refused resume', async () => {
      const { state, session } = await pause('refund 800');
      const parts: string[] = [];
      let refused: unknown;

      for await (const part of affordance.stream(refundPrompt, {
        request: request('erin'),
        session: new Session(),
        resume: { state, decisions: [{ callId: 'r1', approved: true }] },
      })) {
        parts.push(part.type);
        if (part.type === 'error') refused = part.error;
      }

      expect(parts).toEqual(['error']);
      expect(EvaluationStateError.is(refused)).toBe(true);
      expect(String(refused)).toContain('the state belongs to session');
      // The refused stream changed nothing: the right session still resumes it.
      const done = await affordance.resume(
        refundPrompt,
        state,
        [{ callId: 'r1', approved: true }],
        {
          session,
        },
      );
      expect(done.status).toBe('completed');
    });
  });
});

describe('AffordanceModule stateStore option', () => {
  class CountingStore extends InMemoryEvaluationStateStore {
    saves = 0;
    override save(state: EvaluationState): Promise<string> {
      this.saves += 1;
      return super.save(state);
    }
  }

  it('should provide the store given to forRoot', async () => {
    const store = new CountingStore();
    const app = await createContext(refundModule({ stateStore: store }));
    try {
      const injected = app.get(Approvals).store;
      const paused = await app
        .get(AffordanceService)
        .evaluate(refundPrompt, { request: request('ann'), input: 'refund 200' });
      await injected.save(pausedState(paused));

      expect(injected).toBe(store);
      expect(store.saves).toBe(1);
      expect(store.size).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('should provide the store the forRootAsync factory returns', async () => {
    const store = new CountingStore();
    @Module({
      imports: [
        AffordanceModule.forRootAsync({
          useFactory: () => ({
            adapter: () => new ScriptPerEvaluation(scriptFor),
            stateStore: store,
          }),
        }),
      ],
      providers: [Approvals],
    })
    class AsyncModule {}
    const app = await createContext(AsyncModule);
    try {
      expect(app.get(Approvals).store).toBe(store);
    } finally {
      await app.close();
    }
  });

  it('should give each application its own in-memory store by default', async () => {
    const first = await createContext(refundModule());
    const second = await createContext(refundModule());
    try {
      expect(first.get(EvaluationStateStore)).not.toBe(second.get(EvaluationStateStore));
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('should reject a stateStore that is not a store when the module is declared', () => {
    const error = catchError(ConfigurationError, () =>
      AffordanceModule.forRoot({
        adapter: () => new ScriptPerEvaluation(scriptFor),
        stateStore: { save: () => Promise.resolve('x') } as never,
      }),
    );

    expect(error.subject).toBe('AffordanceModule.forRoot');
    expect(error.problem).toBe(
      'options.stateStore must be an EvaluationStateStore (save, take and peek), got an object without take, peek.',
    );
    expect(error.fix).toContain('extending EvaluationStateStore');
  });

  it('should reject a stateStore returned by the forRootAsync factory that is not a store', async () => {
    @Module({
      imports: [
        AffordanceModule.forRootAsync({
          useFactory: () => ({
            adapter: () => new ScriptPerEvaluation(scriptFor),
            stateStore: 'redis' as never,
          }),
        }),
      ],
    })
    class BrokenModule {}

    const error = await catchRejection(ConfigurationError, () => createContext(BrokenModule));

    expect(error.subject).toBe('AffordanceModule.forRootAsync');
    expect(error.problem).toContain('got string');
  });
});
