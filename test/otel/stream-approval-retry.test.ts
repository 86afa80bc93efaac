import { SpanStatusCode } from '@opentelemetry/api';
import { Container } from 'inversify';

import {
  type ApprovalDecision,
  type EvaluationState,
  installAffordance,
  MarkdownSection,
  Prompt,
  Session,
  ToolResult,
} from 'affordance';
import { recordRetry } from 'affordance/otel';
import {
  ProviderAdapter,
  providerCapabilities,
  type ProviderRequest,
  type ProviderTurn,
  requestFailure,
  SecretRedactor,
  sendWithRetries,
} from 'affordance/provider';
import { TEST_STATE_SECRET } from 'affordance/testing';

import {
  ANSWER,
  deskPrompt,
  deskScript,
  INPUT,
  lookup,
  MARK,
  ModelledScriptedAdapter,
  refund,
} from './otel-desk.js';
import {
  CONTENT_KEYS,
  eventNames,
  everyAttribute,
  InMemoryOtel,
  only,
  spanTree,
} from './otel-harness.js';

describe('otel: a streamed evaluation', () => {
  it('has the same span tree as evaluate, flagged streamed', async () => {
    const otel = new InMemoryOtel();
    const runtime = installAffordance(new Container(), {
      telemetry: otel.telemetry(),
      stateSecret: TEST_STATE_SECRET,
    });
    const adapter = new ModelledScriptedAdapter(deskScript());
    let answer: string | null = null;
    let deltas = 0;
    for await (const part of runtime.stream(deskPrompt(), { adapter, input: INPUT })) {
      if (part.type === 'text-delta') deltas += 1;
      else if (part.type === 'answer') answer = part.response.text;
      else if (part.type === 'error') throw part.error;
    }
    const spans = otel.spans();

    expect(answer).toBe(ANSWER);
    expect(deltas).toBeGreaterThan(1);
    expect(spanTree(spans)).toEqual([
      'invoke_agent desk/orders [internal]',
      '  chat scripted-model-1 [client]',
      '  execute_tool lookup_order [internal]',
      '  execute_tool charge_card [internal]',
      '  execute_tool close_account [internal]',
      '  execute_tool research [internal]',
      '    invoke_agent desk/research [internal]',
      '      chat scripted-model-1 [client]',
      '  chat scripted-model-1 [client]',
    ]);
    expect(only(spans, 'invoke_agent desk/orders').attributes).toMatchObject({
      'affordance.evaluation.streamed': true,
      'affordance.evaluation.status': 'completed',
      'gen_ai.usage.output_tokens': 42,
    });
    // The nested evaluation runs through context.evaluate, not streamed.
    expect(only(spans, 'invoke_agent desk/research').attributes).toMatchObject({
      'affordance.evaluation.streamed': false,
    });
    expect(everyAttribute(spans).filter(([key]) => CONTENT_KEYS.includes(key))).toEqual([]);
  });
});

describe('otel: pausing for approval and resuming', () => {
  /** Pauses at a refund over 100 after a lookup, then resumes with `decision`. */
  async function pauseAndResume(decision: Omit<ApprovalDecision, 'callId'>) {
    const otel = new InMemoryOtel();
    const runtime = installAffordance(new Container(), {
      telemetry: otel.telemetry(),
      stateSecret: TEST_STATE_SECRET,
    });
    const adapter = new ModelledScriptedAdapter([
      { toolCalls: [lookup('c1'), refund('c2', 500)], usage: { inputTokens: 90, outputTokens: 9 } },
      { text: ANSWER, usage: { inputTokens: 130, outputTokens: 4 } },
    ]);
    const session = new Session();
    const prompt = deskPrompt();
    const paused = await runtime.evaluate(prompt, { adapter, session, input: INPUT });
    if (paused.status !== 'interrupted') throw new Error('expected a pause');
    const pausedSpans = otel.spans();
    otel.exporter.reset();
    // The state goes through JSON, as it would to another process.
    const state = JSON.parse(JSON.stringify(paused.interruption.state)) as EvaluationState;
    const done = await runtime.resume(prompt, state, [Object.assign({ callId: 'c2' }, decision)], {
      adapter,
      session,
    });
    adapter.assertDone();
    return { paused, done, pausedSpans, resumedSpans: otel.spans() };
  }

  it('ends the paused evaluation with a pause event and the pending call with a request for approval', async () => {
    const { paused, pausedSpans } = await pauseAndResume({ approved: true });

    expect(spanTree(pausedSpans)).toEqual([
      'invoke_agent desk/orders [internal]',
      '  chat scripted-model-1 [client]',
      '  execute_tool lookup_order [internal]',
      '  execute_tool refund_order [internal]',
    ]);
    const agent = only(pausedSpans, 'invoke_agent desk/orders');
    expect(agent.attributes).toMatchObject({
      'affordance.evaluation.status': 'interrupted',
      'affordance.evaluation.id': paused.evaluationId,
      'gen_ai.usage.input_tokens': 90,
    });
    expect(agent.status.code).toBe(SpanStatusCode.UNSET);
    expect(agent.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        'affordance.evaluation.paused',
        { 'affordance.pending.calls': 1, 'affordance.pending.tools': ['refund_order'] },
      ],
    ]);
    const pending = only(pausedSpans, 'execute_tool refund_order');
    expect(pending.attributes['affordance.tool.outcome']).toBe('pending');
    expect(pending.attributes['error.type']).toBeUndefined();
    // The reason may quote the arguments: content, left out by default.
    expect(pending.events.map((event) => [event.name, event.attributes])).toEqual([
      ['affordance.approval.requested', {}],
    ]);
  });

  it('traces the resumed run as the same evaluation, with the approval on the call', async () => {
    const { paused, done, resumedSpans } = await pauseAndResume({ approved: true });

    expect(done.status).toBe('completed');
    expect(spanTree(resumedSpans)).toEqual([
      'invoke_agent desk/orders [internal]',
      '  execute_tool refund_order [internal]',
      '  chat scripted-model-1 [client]',
    ]);
    const agent = only(resumedSpans, 'invoke_agent desk/orders');
    expect(agent.attributes).toMatchObject({
      'affordance.evaluation.id': paused.evaluationId,
      'affordance.evaluation.resumed': true,
      'affordance.evaluation.status': 'completed',
      'affordance.evaluation.turns': 2,
    });
    expect(eventNames(agent)).toEqual(['affordance.evaluation.resumed']);
    const call = only(resumedSpans, 'execute_tool refund_order');
    expect(call.attributes).toMatchObject({
      'gen_ai.tool.call.id': 'c2',
      'affordance.tool.outcome': 'success',
    });
    expect(call.events.map((event) => [event.name, event.attributes])).toEqual([
      ['affordance.approval.decided', { 'affordance.approval.approved': true }],
    ]);
  });

  it('records a rejection as a denial by a person', async () => {
    const { resumedSpans } = await pauseAndResume({
      approved: false,
      message: `Too much (${MARK}).`,
    });
    const call = only(resumedSpans, 'execute_tool refund_order');

    expect(call.attributes).toMatchObject({
      'affordance.tool.outcome': 'denied',
      'error.type': 'denied',
    });
    expect(call.events.map((event) => [event.name, event.attributes])).toEqual([
      ['affordance.approval.decided', { 'affordance.approval.approved': false }],
      ['affordance.tool.denied', { 'affordance.denied_by': 'person' }],
      ['affordance.tool.rolled_back', {}],
    ]);
    expect(JSON.stringify(resumedSpans.map((span) => span.attributes))).not.toContain(MARK);
  });
});

/** An adapter whose first attempt fails with a retryable error, sent through sendWithRetries. */
class FlakyAdapter extends ProviderAdapter {
  override readonly name = 'flaky';
  override readonly capabilities = providerCapabilities();
  attempts = 0;

  override async request(request: ProviderRequest): Promise<ProviderTurn> {
    return await sendWithRetries(
      () => {
        this.attempts += 1;
        if (this.attempts === 1) return Promise.reject(new Error('overloaded'));
        return Promise.resolve<ProviderTurn>({ text: 'Fine.', finishReason: 'stop' });
      },
      {
        provider: 'Flaky',
        api: 'Test',
        prompt: request.prompt.label,
        signal: request.signal,
        deadline: request.deadline,
        clock: request.clock,
        retry: { initialDelayMs: 1, jitter: 0, onRetry: recordRetry },
        redactor: new SecretRedactor(() => []),
        classify: () => requestFailure({ retryable: true, reason: '529 overloaded' }),
        hint: () => '',
      },
    );
  }
}

describe('otel: provider retries', () => {
  it('records each retry as an event on the request span (recordRetry as onRetry)', async () => {
    const otel = new InMemoryOtel();
    const runtime = installAffordance(new Container(), {
      telemetry: otel.telemetry(),
      stateSecret: TEST_STATE_SECRET,
    });
    const adapter = new FlakyAdapter();
    const prompt = new Prompt({
      ns: 'flaky',
      key: 'ask',
      sections: [new MarkdownSection({ key: 'ask', title: 'Ask', template: 'Answer.' })],
    });
    const response = await runtime.evaluate(prompt, { adapter });
    const chat = only(otel.spans(), 'chat');

    expect(response.text).toBe('Fine.');
    expect(adapter.attempts).toBe(2);
    expect(chat.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        'affordance.provider.retry',
        {
          'affordance.retry.attempt': 1,
          'affordance.retry.delay_ms': 1,
          'affordance.retry.reason': '529 overloaded',
        },
      ],
    ]);
    expect(chat.attributes['gen_ai.provider.name']).toBe('flaky');
    expect(chat.attributes['gen_ai.request.model']).toBeUndefined();
  });
});

/** A provider that ran a web search itself, and failed a second one. */
class SearchingAdapter extends ProviderAdapter {
  override readonly name = 'searching';
  override readonly capabilities = providerCapabilities({ nativeTools: true });

  override request(): Promise<ProviderTurn> {
    return Promise.resolve({
      text: 'Sunny.',
      finishReason: 'stop',
      nativeCalls: [
        {
          callId: 'ws_1',
          name: 'web_search',
          arguments: { query: `weather ${MARK}` },
          result: ToolResult.ok({ hits: 3 }, `Three hits (${MARK}).`),
        },
        {
          callId: 'ws_2',
          name: 'web_search',
          arguments: { query: 'again' },
          result: ToolResult.error('Search unavailable.'),
        },
      ],
    });
  }
}

describe('otel: calls the provider ran itself', () => {
  it('records each as an execute_tool span of type extension under the evaluation', async () => {
    const otel = new InMemoryOtel();
    const runtime = installAffordance(new Container(), {
      telemetry: otel.telemetry(),
      stateSecret: TEST_STATE_SECRET,
    });
    const prompt = new Prompt({
      ns: 'weather',
      key: 'ask',
      sections: [new MarkdownSection({ key: 'ask', title: 'Ask', template: 'Answer.' })],
    });
    await runtime.evaluate(prompt, { adapter: new SearchingAdapter() });
    const spans = otel.spans();

    expect(spanTree(spans)).toEqual([
      'invoke_agent weather/ask [internal]',
      '  chat [client]',
      '  execute_tool web_search [internal]',
      '  execute_tool web_search [internal]',
    ]);
    const [first, second] = spans.filter((span) => span.name === 'execute_tool web_search');
    expect(first?.attributes).toMatchObject({
      'gen_ai.tool.type': 'extension',
      'gen_ai.tool.call.id': 'ws_1',
      'affordance.tool.outcome': 'success',
    });
    expect(second?.attributes).toMatchObject({
      'gen_ai.tool.call.id': 'ws_2',
      'affordance.tool.outcome': 'failure',
      'error.type': 'tool_error',
    });
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain(MARK);
    const calls = await otel.histogram('gen_ai.execute_tool.duration');
    expect(calls.map((point) => point.attributes['gen_ai.tool.type'])).toEqual([
      'extension',
      'extension',
    ]);
  });
});
