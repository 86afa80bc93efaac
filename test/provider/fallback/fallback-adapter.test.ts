import 'reflect-metadata';

import { Container } from 'inversify';

import {
  type EvaluationState,
  installAffordance,
  MarkdownSection,
  Prompt,
  PromptEvaluationError,
  PromptExecuted,
  Session,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import {
  type FallbackEvent,
  FallbackAdapter,
  type ProviderRequest,
  type ProviderStreamPart,
  providerFailureKind,
} from 'affordance/provider';
import { ManualClock, TEST_STATE_SECRET } from 'affordance/testing';
import { IsString } from 'class-validator';

import { answer, callTurn, httpError, MemberStub, refused } from './member-adapter.js';

class OrderParams {
  @IsString() orderId!: string;
}

function deskPrompt(approval: boolean, ledger: string[] = []): Prompt {
  const tools = [
    new ToolDefinition({
      name: 'refund_order',
      description: 'Refund an order.',
      params: OrderParams,
      approval,
      handler: (params) => {
        ledger.push(`refund ${params.orderId}`);
        return ToolResult.ok(null, `Refunded ${params.orderId}.`);
      },
    }),
  ];
  return new Prompt({
    ns: 'support',
    key: 'refunds',
    sections: [new MarkdownSection({ key: 'desk', title: 'Desk', template: 'Refund.', tools })],
  });
}

function runtime() {
  return installAffordance(new Container(), { stateSecret: TEST_STATE_SECRET });
}

function request(
  clock = new ManualClock(),
  signal = new AbortController().signal,
): ProviderRequest {
  return {
    prompt: { name: 'tests/fallback', ns: 'tests', key: 'fallback', label: 'tests/fallback' },
    messages: [{ role: 'system', content: 'Answer.' }],
    tools: [],
    toolChoice: 'auto',
    output: undefined,
    turn: 0,
    evaluationId: 'ev-1',
    signal,
    deadline: undefined,
    clock,
  };
}

async function drain(parts: AsyncIterable<ProviderStreamPart>, seen: ProviderStreamPart[]) {
  for await (const part of parts) seen.push(part);
}

const reasoning = { type: 'reasoning', id: 'rs_1', encrypted_content: 'gAAAA-openai-only' };

describe('FallbackAdapter: moving to the next provider', () => {
  it('sends to the first member only while it answers, and names who served each turn', async () => {
    const first = new MemberStub('openai', 'gpt-test', [answer('one')]);
    const second = new MemberStub('anthropic', 'claude-test', []);
    const adapter = new FallbackAdapter([first, second]);
    const turn = await adapter.request(request());
    expect(turn.text).toBe('one');
    expect([turn.provider, turn.model]).toEqual(['openai', 'gpt-test']);
    expect(second.requests).toHaveLength(0);
  });

  it.each([
    ['a 429', httpError(429), 'rate-limit'],
    ['a 503', httpError(503), 'overloaded'],
    ['an Anthropic 529', httpError(529), 'overloaded'],
    ['a 500', httpError(500), 'server-error'],
    ['a 504', httpError(504), 'timeout'],
    ['a refused connection', refused(), 'connection'],
    [
      'an adapter error naming the status in its payload',
      new PromptEvaluationError('OpenAI Responses request failed', {
        phase: 'request',
        providerPayload: { status: 429, attempts: 1 },
      }),
      'rate-limit',
    ],
  ])('moves on after %s, and reports the fallback', async (_what, error, kind) => {
    const events: FallbackEvent[] = [];
    const first = new MemberStub('openai', 'gpt-test', [{ throws: error }]);
    const second = new MemberStub('anthropic', 'claude-test', [answer('from claude')]);
    const adapter = new FallbackAdapter([first, second], { onEvent: (e) => events.push(e) });
    const turn = await adapter.request(request());
    expect(turn.text).toBe('from claude');
    expect([turn.provider, turn.model]).toEqual(['anthropic', 'claude-test']);
    expect(providerFailureKind(error)).toBe(kind);
    expect(events).toEqual([{ type: 'fallback', turn: 0, member: 'openai/gpt-test', kind, error }]);
  });

  it('throws at once what does not warrant a fallback (a 400), and never asks the next', async () => {
    const error = httpError(400, 'bad schema');
    const first = new MemberStub('openai', 'gpt-test', [{ throws: error }]);
    const second = new MemberStub('anthropic', 'claude-test', [answer('unused')]);
    const adapter = new FallbackAdapter([first, second]);
    await expect(adapter.request(request())).rejects.toBe(error);
    expect(second.requests).toHaveLength(0);
  });

  it('falls back only on the kinds listed in fallbackOn, or as a predicate says', async () => {
    const limited = httpError(429);
    const onlyOutages = new FallbackAdapter(
      [
        new MemberStub('openai', 'a', [{ throws: limited }]),
        new MemberStub('anthropic', 'b', [answer('b')]),
      ],
      { fallbackOn: ['overloaded', 'connection'] },
    );
    await expect(onlyOutages.request(request())).rejects.toBe(limited);

    const unauthorized = httpError(401);
    const byPredicate = new FallbackAdapter(
      [
        new MemberStub('openai', 'a', [{ throws: unauthorized }]),
        new MemberStub('anthropic', 'b', [answer('b')]),
      ],
      {
        fallbackOn: (error, kind) =>
          kind !== undefined || (error as { status?: number }).status === 401,
      },
    );
    expect((await byPredicate.request(request())).text).toBe('b');
  });

  it('never falls back on a cancelled request', async () => {
    const controller = new AbortController();
    const error = httpError(503);
    const first = new MemberStub('openai', 'a', [{ throws: error }]);
    const second = new MemberStub('anthropic', 'b', [answer('b')]);
    controller.abort(new Error('cancelled'));
    const adapter = new FallbackAdapter([first, second]);
    await expect(adapter.request(request(new ManualClock(), controller.signal))).rejects.toBe(
      error,
    );
    expect(second.requests).toHaveLength(0);
  });

  it('names every member when none answered', async () => {
    const adapter = new FallbackAdapter([
      new MemberStub('openai', 'a', [{ throws: httpError(503, 'busy') }]),
      new MemberStub('anthropic', 'b', [{ throws: refused() }]),
    ]);
    const error = await adapter.request(request()).catch((e: unknown) => e);
    expect(PromptEvaluationError.is(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain('openai/a failed (overloaded): busy');
    expect(message).toContain('anthropic/b failed (connection): fetch failed');
    expect(message).toContain('Fix:');
  });
});

describe('FallbackAdapter: streams', () => {
  it('moves on when the first member fails before its first part', async () => {
    const first = new MemberStub('openai', 'a', [{ throws: httpError(429) }]);
    const second = new MemberStub('anthropic', 'b', [answer('Hello there')]);
    const seen: ProviderStreamPart[] = [];
    await drain(new FallbackAdapter([first, second]).stream(request()), seen);
    expect(seen.map((part) => part.type)).toEqual(['text-delta', 'turn']);
    const last = seen.at(-1) as Extract<ProviderStreamPart, { type: 'turn' }>;
    expect([last.turn.text, last.turn.provider]).toEqual(['Hello there', 'anthropic']);
  });

  it('never moves on after a part reached the caller: the failure is thrown as it was', async () => {
    const broke = httpError(503, 'stream broke off');
    const first = new MemberStub('openai', 'a', [
      { partsThenThrow: [{ type: 'text-delta', delta: 'Hel' }], throws: broke },
    ]);
    const second = new MemberStub('anthropic', 'b', [answer('never sent')]);
    const seen: ProviderStreamPart[] = [];
    await expect(drain(new FallbackAdapter([first, second]).stream(request()), seen)).rejects.toBe(
      broke,
    );
    expect(seen).toEqual([{ type: 'text-delta', delta: 'Hel' }]);
    expect(second.requests).toHaveLength(0);
  });
});

describe('FallbackAdapter: circuit breaker', () => {
  it('opens after failureThreshold failures, skips the member, probes it after coolDownMs, closes on an answer', async () => {
    const clock = new ManualClock();
    const events: FallbackEvent[] = [];
    const first = new MemberStub('openai', 'a', [
      { throws: httpError(503) },
      { throws: httpError(503) },
    ]);
    const second = new MemberStub('anthropic', 'b', []);
    const adapter = new FallbackAdapter([first, second], {
      clock,
      circuitBreaker: { failureThreshold: 2, coolDownMs: 10_000 },
      onEvent: (event) => {
        if (event.type === 'circuit') events.push(event);
      },
    });
    second.push(answer('b1'), answer('b2'), answer('b3'), answer('b4'));
    await adapter.request(request(clock));
    expect(adapter.circuits().get('openai/a')).toBe('closed');
    await adapter.request(request(clock));
    expect(adapter.circuits().get('openai/a')).toBe('open');
    const opened = clock.now();

    // Open: the first member is not asked at all.
    clock.advance(9_999);
    expect((await adapter.request(request(clock))).text).toBe('b3');
    expect(first.requests).toHaveLength(2);

    // Cooled down: one probe; it fails, so the circuit opens again.
    clock.advance(1);
    first.push({ throws: refused() });
    expect((await adapter.request(request(clock))).text).toBe('b4');
    expect(first.requests).toHaveLength(3);
    expect(adapter.circuits().get('openai/a')).toBe('open');

    // Cooled down again: the probe answers, the circuit closes.
    clock.advance(10_000);
    first.push(answer('a is back'), answer('a again'));
    expect((await adapter.request(request(clock))).text).toBe('a is back');
    expect((await adapter.request(request(clock))).text).toBe('a again');
    expect(adapter.circuits().get('openai/a')).toBe('closed');

    expect(
      events.map((e) => e.type === 'circuit' && [e.state, e.at - opened, e.openUntil]),
    ).toEqual([
      ['open', 0, opened + 10_000],
      ['half-open', 10_000, undefined],
      ['open', 10_000, opened + 20_000],
      ['half-open', 20_000, undefined],
      ['closed', 20_000, undefined],
    ]);
  });

  it('sends one probe at a time while half-open', async () => {
    const clock = new ManualClock();
    let release: (value: ReturnType<typeof answer>) => void = () => undefined;
    const first = new MemberStub('openai', 'a', [{ throws: httpError(503) }]);
    const second = new MemberStub('anthropic', 'b', [answer('b1'), answer('b2')]);
    const adapter = new FallbackAdapter([first, second], {
      clock,
      circuitBreaker: { failureThreshold: 1, coolDownMs: 5 },
    });
    await adapter.request(request(clock));
    clock.advance(5);
    const slow = new Promise<ReturnType<typeof answer>>((resolve) => {
      release = resolve;
    });
    first.request = (sent) => {
      first.requests.push(sent);
      return slow;
    };
    const probe = adapter.request(request(clock));
    // A second request while the probe is out goes to the next member.
    expect((await adapter.request(request(clock))).text).toBe('b2');
    release(answer('probe answered'));
    expect((await probe).text).toBe('probe answered');
    expect(adapter.circuits().get('openai/a')).toBe('closed');
  });

  it('refuses with the cooling time when every circuit is open', async () => {
    const clock = new ManualClock();
    const adapter = new FallbackAdapter(
      [
        new MemberStub('openai', 'a', [{ throws: httpError(503) }]),
        new MemberStub('anthropic', 'b', [{ throws: httpError(529) }]),
      ],
      { clock, circuitBreaker: { failureThreshold: 1, coolDownMs: 60_000 } },
    );
    await expect(adapter.request(request(clock))).rejects.toThrow(/No provider/);
    clock.advance(1_000);
    const error = (await adapter.request(request(clock)).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('openai/a was skipped: its circuit is open for 59000 ms more');
    expect(error.message).toContain('anthropic/b was skipped');
  });
});

describe('FallbackAdapter: the conversation across providers', () => {
  it('keeps provider items for the member that produced them, drops them for another, and says so', async () => {
    const events: FallbackEvent[] = [];
    const ledger: string[] = [];
    const openai = new MemberStub('openai', 'gpt-test', [
      callTurn('call_1', 'refund_order', { orderId: 'A-1' }, [reasoning]),
      { throws: httpError(429) },
    ]);
    const anthropic = new MemberStub('anthropic', 'claude-test', [answer('Refunded A-1.')]);
    const adapter = new FallbackAdapter([openai, anthropic], {
      onEvent: (event) => events.push(event),
    });
    const session = new Session();
    const response = await runtime().evaluate(deskPrompt(false, ledger), { adapter, session });

    expect(response.text).toBe('Refunded A-1.');
    expect(ledger).toEqual(['refund A-1']);
    // The second turn went to openai first with its own reasoning item, unwrapped...
    const toOpenAI = openai.requests[1]?.messages.find((m) => m.role === 'assistant');
    expect(toOpenAI).toMatchObject({ providerItems: [reasoning] });
    // ...then to anthropic without it: the call and its result carried as neutral messages.
    const toAnthropic = anthropic.requests[0]?.messages ?? [];
    expect(toAnthropic.map((m) => m.role)).toEqual(['system', 'assistant', 'tool']);
    expect(toAnthropic[1]).toMatchObject({ providerItems: [], toolCalls: [{ callId: 'call_1' }] });
    expect(JSON.stringify(toAnthropic)).not.toContain('gAAAA');
    expect(events.filter((e) => e.type === 'items-dropped')).toEqual([
      {
        type: 'items-dropped',
        turn: 1,
        member: 'anthropic/claude-test',
        servedBy: 'openai/gpt-test',
        count: 1,
        itemTypes: ['reasoning'],
      },
    ]);
    const executed = session.view.slice(PromptExecuted).latest();
    expect([executed?.adapter, executed?.provider, executed?.model]).toEqual([
      'fallback',
      'anthropic',
      'claude-test',
    ]);
  });

  it('resumes on provider B an approval pause made on provider A', async () => {
    const ledger: string[] = [];
    const openai = new MemberStub('openai', 'gpt-test', [
      callTurn('call_9', 'refund_order', { orderId: 'B-2' }, [reasoning]),
    ]);
    const session = new Session();
    const paused = await runtime().evaluate(deskPrompt(true, ledger), {
      adapter: new FallbackAdapter([openai, new MemberStub('anthropic', 'claude-test', [])]),
      session,
    });
    expect(paused.status).toBe('interrupted');
    const saved = JSON.stringify(paused.interruption?.state);
    expect(saved).toContain('gAAAA-openai-only');

    // A fresh process: OpenAI refuses connections now; Anthropic serves the resumed turn.
    const events: FallbackEvent[] = [];
    const down = new MemberStub('openai', 'gpt-test', [{ throws: refused() }]);
    const anthropic = new MemberStub('anthropic', 'claude-test', [answer('Refunded B-2.')]);
    const done = await runtime().resume(
      deskPrompt(true, ledger),
      JSON.parse(saved) as EvaluationState,
      [{ callId: 'call_9', approved: true }],
      {
        adapter: new FallbackAdapter([down, anthropic], { onEvent: (e) => events.push(e) }),
        session,
      },
    );
    expect(done.status).toBe('completed');
    expect(done.text).toBe('Refunded B-2.');
    expect(ledger).toEqual(['refund B-2']);
    // OpenAI was offered its own item back; Anthropic never saw it.
    expect(JSON.stringify(down.requests[0]?.messages)).toContain('gAAAA-openai-only');
    expect(JSON.stringify(anthropic.requests[0]?.messages)).not.toContain('gAAAA');
    expect(events.map((e) => e.type)).toEqual(['fallback', 'items-dropped']);
  });
});

describe('FallbackAdapter: capabilities and tool schemas', () => {
  it('offers what every member honours, and streams when any member streams', () => {
    const strict = new MemberStub('openai', 'a', [], {
      strictTools: true,
      nativeTools: true,
      structuredOutput: 'native',
      streaming: true,
    });
    const plain = new MemberStub('plain', 'b', [], { parallelToolCalls: false });
    const adapter = new FallbackAdapter([strict, plain]);
    expect(adapter.capabilities).toMatchObject({
      strictTools: false,
      nativeTools: false,
      parallelToolCalls: false,
      structuredOutput: 'text',
      streaming: true,
    });
    const tool = deskPrompt(false).render().tools[0] as ToolDefinition;
    expect(adapter.toolSpec(tool).strict).toBe(false);
    expect(new FallbackAdapter([strict, strict]).toolSpec(tool).strict).toBe(true);
  });

  it('refuses an empty list and an unknown failure kind with a fix', () => {
    expect(() => new FallbackAdapter([])).toThrow(/at least one adapter.*Fix/s);
    expect(
      () =>
        new FallbackAdapter([new MemberStub('a', undefined, [])], {
          fallbackOn: ['rate_limit' as never],
        }),
    ).toThrow(/fallbackOn must list failure kinds/);
  });
});
