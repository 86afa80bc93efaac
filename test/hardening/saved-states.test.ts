import { createHash } from 'node:crypto';

import { IsInt, IsString, Min } from 'class-validator';
import { Container } from 'inversify';

import {
  AffordanceError,
  ConfigurationError,
  type EvaluationState,
  EvaluationStateError,
  installAffordance,
  MarkdownSection,
  Prompt,
  type PromptResponse,
  type RuntimeOptions,
  Session,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import { InMemorySessionStore, SessionCodec, SessionPersistence } from 'affordance/durable';
import { createTestRuntime, ScriptedAdapter } from 'affordance/testing';

import { catchRejection } from '../support/catch-error.js';

class RefundParams {
  @IsString() orderId!: string;
  @IsInt() @Min(1) amount!: number;
}

/** A refunds desk whose refund needs a person's approval; `ran` is what the handler received. */
function refundsDesk(ran: string[]): Prompt {
  return new Prompt({
    ns: 'hardening',
    key: 'refunds',
    sections: [
      new MarkdownSection({
        key: 'desk',
        title: 'Desk',
        template: 'Handle refunds.',
        tools: [
          new ToolDefinition({
            name: 'refund_order',
            description: 'Refund an order.',
            params: RefundParams,
            approval: true,
            handler: (params) => {
              ran.push(`refund ${params.orderId} ${params.amount}`);
              return ToolResult.ok(null, `Refunded ${params.amount}.`);
            },
          }),
        ],
      }),
    ],
  });
}

const refundTurn = {
  toolCalls: [
    { callId: 'call_1', name: 'refund_order', arguments: { orderId: 'A-1', amount: 10 } },
  ],
};
const approve = [{ callId: 'call_1', approved: true }];
const answer = () => new ScriptedAdapter([{ text: 'Refunded.' }]);

/** Pauses the desk at the refund and returns the state as JSON text, as a client would hold it. */
async function pause(
  prompt: Prompt,
  session: Session,
  runtime: RuntimeOptions = {},
): Promise<string> {
  const { evaluate } = createTestRuntime({ script: [refundTurn], runtime });
  const response = await evaluate(prompt, { session, input: 'Refund A-1.' });
  if (response.status !== 'interrupted') throw new Error('expected a pause for approval');
  return JSON.stringify(response.interruption.state);
}

/** What an attacker computes: the unkeyed SHA-256 of the state's canonical JSON (sorted keys). */
function redigest(state: Json): EvaluationState {
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
    );
  };
  const { integrity: _, ...body } = state;
  const digest = createHash('sha256')
    .update(JSON.stringify(sorted(body)), 'utf8')
    .digest('hex');
  return { ...body, integrity: { algorithm: 'sha256', digest } } as unknown as EvaluationState;
}

/** A saved state as parsed JSON, edited the way whoever holds it could. */
interface Json {
  remaining: { arguments: unknown }[];
  pending: { arguments: unknown; params: { amount: number } }[];
  messages: { role: string; toolCalls?: { arguments: unknown }[] }[];
  session: unknown;
  [field: string]: unknown;
}

/** The first (the refund's) entry of `list`. */
function first<T>(list: readonly T[] | undefined): T {
  const item = list?.[0];
  if (item === undefined) throw new Error('expected the refund call');
  return item;
}

/** The refund call of the conversation's last assistant message (what the model sent). */
function assistantCall(state: Json): { arguments: unknown } {
  const assistant = state.messages.filter((message) => message.role === 'assistant');
  return first(assistant.at(-1)?.toolCalls);
}

/** The state with the refund's amount changed wherever `where` says. */
function withAmount(saved: string, amount: number, where: 'everywhere' | 'remaining'): Json {
  const state = JSON.parse(saved) as Json;
  // The model's arguments are kept as the JSON text it sent.
  const sent = JSON.stringify({ orderId: 'A-1', amount });
  first(state.remaining).arguments = sent;
  if (where === 'everywhere') {
    first(state.pending).arguments = sent;
    first(state.pending).params.amount = amount;
    assistantCall(state).arguments = sent;
  }
  return state;
}

/** The `EvaluationStateError` `resume` rejects with (the test fails on anything else, e.g. a raw `TypeError`). */
async function refused(resume: () => Promise<PromptResponse>): Promise<EvaluationStateError> {
  return await catchRejection(EvaluationStateError, resume);
}

describe('A saved evaluation state cannot be forged by whoever holds it', () => {
  it('a runtime without stateSecret refuses to hand out a state anyone could alter, naming the option', async () => {
    const ran: string[] = [];
    const runtime = installAffordance(new Container());
    const error = await catchRejection(ConfigurationError, () =>
      runtime.evaluate(refundsDesk(ran), {
        adapter: new ScriptedAdapter([refundTurn]),
        input: 'Refund A-1.',
      }),
    );
    expect(error.message).toContain('stateSecret');
    expect(error.message).toContain("unsignedStates: 'accept-forgeable'");
    expect(ran).toEqual([]);
  });

  it('a runtime without stateSecret refuses an unsigned state whose amount was changed 10 → 99999 and re-digested', async () => {
    const ran: string[] = [];
    const prompt = refundsDesk(ran);
    const session = new Session();
    const saved = await pause(prompt, session, { unsignedStates: 'accept-forgeable' });
    const forged = redigest(withAmount(saved, 99999, 'everywhere'));

    const runtime = installAffordance(new Container());
    const error = await refused(() =>
      runtime.resume(prompt, forged, approve, { adapter: answer(), session }),
    );
    expect(error.problem).toContain('no stateSecret');
    expect(error.fix).toContain('stateSecret');
    expect(ran).toEqual([]);
  });

  it('a signing runtime refuses the amount changed 10 → 99999, re-digested or with the old signature', async () => {
    const ran: string[] = [];
    const prompt = refundsDesk(ran);
    const session = new Session();
    const saved = await pause(prompt, session);
    expect((JSON.parse(saved) as EvaluationState).integrity.algorithm).toBe('hmac-sha256');
    const { runtime } = createTestRuntime();

    const redigested = redigest(withAmount(saved, 99999, 'everywhere'));
    const unsigned = await refused(() =>
      runtime.resume(prompt, redigested, approve, { adapter: answer(), session }),
    );
    expect(unsigned.problem).toContain('not signed');
    const resigned = Object.assign({}, redigested, {
      integrity: { algorithm: 'hmac-sha256', digest: redigested.integrity.digest },
    });
    const altered = await refused(() =>
      runtime.resume(prompt, resigned, approve, { adapter: answer(), session }),
    );
    expect(altered.problem).toContain('altered');
    expect(ran).toEqual([]);

    const done = await runtime.resume(prompt, JSON.parse(saved) as EvaluationState, approve, {
      adapter: answer(),
      session,
    });
    expect(done.status).toBe('completed');
    expect(ran).toEqual(['refund A-1 10']);
  });

  it('refuses a state whose remaining call differs from the pending one the approver saw (10 shown, 77777 run)', async () => {
    const ran: string[] = [];
    const prompt = refundsDesk(ran);
    const session = new Session();
    const loose = { unsignedStates: 'accept-forgeable' } as const;
    const saved = await pause(prompt, session, loose);
    const forged = redigest(withAmount(saved, 77777, 'remaining'));
    expect(forged.pending[0]?.arguments).toBe('{"orderId":"A-1","amount":10}');

    // Even a runtime that accepts forgeable states checks that what runs is what the approver saw.
    const { runtime } = createTestRuntime({ runtime: loose });
    const error = await refused(() =>
      runtime.resume(prompt, forged, approve, { adapter: answer(), session }),
    );
    expect(error.problem).toContain("call 'call_1'");
    expect(error.problem).toContain('pending');
    expect(ran).toEqual([]);

    // The conversation the model sent holds the same call: changing pending and remaining only is refused too.
    const both = JSON.parse(saved) as Json;
    const sent = JSON.stringify({ orderId: 'A-1', amount: 77777 });
    first(both.remaining).arguments = sent;
    first(both.pending).arguments = sent;
    const conversation = await refused(() =>
      runtime.resume(prompt, redigest(both), approve, { adapter: answer(), session }),
    );
    expect(conversation.problem).toContain('conversation');
    expect(ran).toEqual([]);
  });

  it("refuses a state relabelled with another session's id and version, re-digested or not", async () => {
    const ran: string[] = [];
    const prompt = refundsDesk(ran);
    const saved = await pause(prompt, new Session());
    const other = new Session();
    const relabelled = JSON.parse(saved) as Json;
    relabelled.session = { sessionId: other.sessionId, version: other.version };
    const { runtime } = createTestRuntime();

    const kept = await refused(() =>
      runtime.resume(prompt, relabelled as unknown as EvaluationState, approve, {
        adapter: answer(),
        session: other,
      }),
    );
    expect(kept.problem).toContain('altered');
    const redigested = await refused(() =>
      runtime.resume(prompt, redigest(relabelled), approve, { adapter: answer(), session: other }),
    );
    expect(redigested.problem).toContain('not signed');
    expect(ran).toEqual([]);
    expect(other.version).toBe(0);
  });
});

describe('Resume decisions and saved states are checked before anything runs', () => {
  it('refuses a decision whose message is not a string, or longer than a model-facing text may be', async () => {
    const ran: string[] = [];
    const prompt = refundsDesk(ran);
    const session = new Session();
    const state = JSON.parse(await pause(prompt, session)) as EvaluationState;
    const { runtime } = createTestRuntime();
    const reject = (message: unknown) => [{ callId: 'call_1', approved: false, message }] as never;

    const notText = await refused(() =>
      runtime.resume(prompt, state, reject({ reason: 'no' }), { adapter: answer(), session }),
    );
    expect(notText.problem).toContain("message of the decision for call 'call_1'");
    const huge = await refused(() =>
      runtime.resume(prompt, state, reject('x'.repeat(5_000_000)), { adapter: answer(), session }),
    );
    expect(huge.problem).toContain('5000000 characters');
    expect(huge.problem).toContain('8000');
    expect(session.version).toBe(state.session.version);
  });

  it('refuses a state nested 200,000 levels deep with its own error, not a RangeError', async () => {
    const prompt = refundsDesk([]);
    const session = new Session();
    const state = JSON.parse(await pause(prompt, session)) as Json;
    let deep: unknown = 1;
    for (let level = 0; level < 200_000; level += 1) deep = [deep];
    first(state.remaining).arguments = deep;
    const { runtime } = createTestRuntime();

    const error = await refused(() =>
      runtime.resume(prompt, state as unknown as EvaluationState, approve, {
        adapter: answer(),
        session,
      }),
    );
    expect(AffordanceError.is(error)).toBe(true);
    expect(error.problem).toContain('nested deeper than');
  });
});

describe('Resuming in a second process says which session is wrong', () => {
  it('names a new, empty session (not "already resumed") and how to bring the right one', async () => {
    const ran: string[] = [];
    const prompt = refundsDesk(ran);
    const session = new Session();
    const saved = await pause(prompt, session);

    // The second process builds a session with the same id instead of loading the stored one.
    const { runtime } = createTestRuntime();
    const fresh = new Session({ sessionId: session.sessionId });
    const error = await refused(() =>
      runtime.resume(prompt, JSON.parse(saved) as EvaluationState, approve, {
        adapter: answer(),
        session: fresh,
      }),
    );
    expect(error.message).not.toContain('already resumed');
    expect(error.problem).toContain('not the session the evaluation paused in');
    expect(error.problem).toContain('new, empty session');
    expect(error.fix).toContain('affordance/durable');
    expect(error.fix).toContain('same Session instance');
    expect(ran).toEqual([]);
  });

  it('resumes from the session persisted with affordance/durable and opened anew, once', async () => {
    const ran: string[] = [];
    const prompt = refundsDesk(ran);
    const store = new InMemorySessionStore();
    const persistence = () =>
      new SessionPersistence({ store, codec: new SessionCodec({ classes: [RefundParams] }) });
    const first = await persistence().open('desk-1');
    const saved = await pause(prompt, first.session);
    await first.commit();

    // The second process opens the stored session: another Session object, loaded from the store.
    const { runtime } = createTestRuntime();
    const second = await persistence().open('desk-1');
    expect(second.session).not.toBe(first.session);
    const response = await runtime.resume(prompt, JSON.parse(saved) as EvaluationState, approve, {
      adapter: answer(),
      session: second.session,
    });
    expect(response.status).toBe('completed');
    expect(response.text).toBe('Refunded.');
    expect(ran).toEqual(['refund A-1 10']);
    await second.commit();

    // Opened once more after that resume was committed, the session has moved on: the same state is stale.
    const third = await persistence().open('desk-1');
    const error = await refused(() =>
      runtime.resume(prompt, JSON.parse(saved) as EvaluationState, approve, {
        adapter: answer(),
        session: third.session,
      }),
    );
    expect(error.problem).toContain('stale');
    expect(ran).toEqual(['refund A-1 10']);
  });
});
