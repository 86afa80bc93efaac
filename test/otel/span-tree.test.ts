import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { Container } from 'inversify';

import { installAffordance, type PromptResponse, Session } from 'affordance';
import { ScriptedAdapter } from 'affordance/testing';

import {
  ANSWER,
  ChargeAttempted,
  deskPrompt,
  deskScript,
  INPUT,
  MARK,
  ModelledScriptedAdapter,
} from './otel-desk.js';
import {
  CONTENT_KEYS,
  eventNames,
  everyAttribute,
  InMemoryOtel,
  isChildOf,
  only,
  spanTree,
} from './otel-harness.js';

/** Evaluates the desk with its two-turn script under `otel`, content capture as given. */
async function traceDesk(otel: InMemoryOtel, captureContent?: boolean) {
  const runtime = installAffordance(new Container(), {
    telemetry: otel.telemetry(captureContent === undefined ? {} : { captureContent }),
  });
  const adapter = new ModelledScriptedAdapter(deskScript());
  const session = new Session();
  const response = await runtime.evaluate(deskPrompt(), { adapter, session, input: INPUT });
  adapter.assertDone();
  return { response, session, spans: otel.spans() };
}

const DESK_TREE = [
  'invoke_agent desk/orders [internal]',
  '  chat scripted-model-1 [client]',
  '  execute_tool lookup_order [internal]',
  '  execute_tool charge_card [internal]',
  '  execute_tool close_account [internal]',
  '  execute_tool research [internal]',
  '    invoke_agent desk/research [internal]',
  '      chat scripted-model-1 [client]',
  '  chat scripted-model-1 [client]',
];

describe('otel: the spans of an evaluation', () => {
  it('nests a request and a call per turn under the evaluation, and a nested evaluation under its call', async () => {
    const otel = new InMemoryOtel();
    const { response } = await traceDesk(otel);

    expect(response.status).toBe('completed');
    expect(spanTree(otel.spans())).toEqual(DESK_TREE);
  });

  it('tags the evaluation span with the conventions and the session and evaluation ids', async () => {
    const otel = new InMemoryOtel();
    const { response, session, spans } = await traceDesk(otel);
    const agent = only(spans, 'invoke_agent desk/orders');

    expect(agent.kind).toBe(SpanKind.INTERNAL);
    expect(agent.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'scripted-model-1',
      'gen_ai.agent.name': 'desk/orders',
      'gen_ai.conversation.id': session.sessionId,
      'gen_ai.output.type': 'text',
      'affordance.evaluation.id': response.evaluationId,
      'affordance.session.id': session.sessionId,
      'affordance.evaluation.streamed': false,
      'affordance.evaluation.resumed': false,
      'affordance.evaluation.status': 'completed',
      'affordance.evaluation.turns': 2,
      // The evaluation's own requests: the nested evaluation's usage is its own.
      'gen_ai.usage.input_tokens': 320,
      'gen_ai.usage.output_tokens': 42,
      'gen_ai.usage.cache_read.input_tokens': 50,
      'gen_ai.usage.cache_creation.input_tokens': 10,
      'gen_ai.usage.reasoning.output_tokens': 9 + 4,
    });
    expect(response.usage?.inputTokens).toBe(320);
    expect(agent.status.code).toBe(SpanStatusCode.UNSET);
    expect(agent.parentSpanContext).toBeUndefined();
  });

  it('records each request: model, finish reason, usage, and the turn', async () => {
    const otel = new InMemoryOtel();
    const { response, spans } = await traceDesk(otel);
    const agent = only(spans, 'invoke_agent desk/orders');
    const chats = spans.filter((span) => span.name.startsWith('chat') && isChildOf(span, agent));

    expect(chats.map((span) => span.attributes)).toEqual([
      expect.objectContaining({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'scripted',
        'gen_ai.request.model': 'scripted-model-1',
        'gen_ai.response.finish_reasons': ['tool_calls'],
        'gen_ai.usage.input_tokens': 120,
        'gen_ai.usage.output_tokens': 30,
        'gen_ai.usage.cache_read.input_tokens': 50,
        'gen_ai.usage.cache_creation.input_tokens': 10,
        'gen_ai.usage.reasoning.output_tokens': 9,
        'affordance.turn': 0,
        'affordance.response.tool_calls': 4,
        'affordance.evaluation.id': response.evaluationId,
      }),
      expect.objectContaining({
        'gen_ai.response.finish_reasons': ['stop'],
        'gen_ai.usage.input_tokens': 200,
        'gen_ai.usage.reasoning.output_tokens': 4,
        'affordance.turn': 1,
        'affordance.response.tool_calls': 0,
      }),
    ]);
    expect(chats.map((span) => span.kind)).toEqual([SpanKind.CLIENT, SpanKind.CLIENT]);
  });

  it('records each tool call: id, outcome, error type, and denials and rollbacks as events', async () => {
    const otel = new InMemoryOtel();
    const { session, spans } = await traceDesk(otel);
    const call = (name: string) => only(spans, `execute_tool ${name}`);

    expect(call('lookup_order').attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup_order',
      'gen_ai.tool.call.id': 'c1',
      'gen_ai.tool.type': 'function',
      'affordance.tool.outcome': 'success',
    });
    expect(call('lookup_order').attributes['error.type']).toBeUndefined();
    expect(call('lookup_order').status.code).toBe(SpanStatusCode.UNSET);

    // The handler wrote state, then threw: the call failed and its write was undone.
    expect(call('charge_card').attributes).toMatchObject({
      'gen_ai.tool.call.id': 'c2',
      'affordance.tool.outcome': 'failure',
      'error.type': 'tool_error',
    });
    expect(call('charge_card').status.code).toBe(SpanStatusCode.ERROR);
    expect(eventNames(call('charge_card'))).toEqual(['affordance.tool.rolled_back']);
    expect(session.view.slice(ChargeAttempted).all()).toEqual([]);

    expect(call('close_account').attributes).toMatchObject({
      'affordance.tool.outcome': 'denied',
      'error.type': 'denied',
    });
    const denial = call('close_account').events.find(
      (event) => event.name === 'affordance.tool.denied',
    );
    expect(denial?.attributes).toEqual({ 'affordance.denied_by': 'policy' });

    expect(call('research').attributes['affordance.tool.outcome']).toBe('success');
  });

  it('makes the nested evaluation a child of the call that started it, with its own id', async () => {
    const otel = new InMemoryOtel();
    const { response, session, spans } = await traceDesk(otel);
    const nested = only(spans, 'invoke_agent desk/research');

    expect(isChildOf(nested, only(spans, 'execute_tool research'))).toBe(true);
    expect(nested.spanContext().traceId).toBe(
      only(spans, 'invoke_agent desk/orders').spanContext().traceId,
    );
    const nestedId = nested.attributes['affordance.evaluation.id'];
    expect(typeof nestedId).toBe('string');
    expect(nestedId).not.toBe(response.evaluationId);
    // context.evaluate without a session opens a new one.
    expect(nested.attributes['gen_ai.conversation.id']).not.toBe(session.sessionId);
    expect(nested.attributes['gen_ai.usage.input_tokens']).toBe(40);
  });

  it('records no content by default: no content attribute, and no text of the conversation anywhere', async () => {
    const otel = new InMemoryOtel();
    await traceDesk(otel);
    const pairs = everyAttribute(otel.spans());

    expect(pairs.length).toBeGreaterThan(50);
    expect(pairs.filter(([key]) => CONTENT_KEYS.includes(key))).toEqual([]);
    expect(pairs.filter(([, value]) => JSON.stringify(value).includes(MARK))).toEqual([]);
    for (const span of otel.spans()) {
      expect(JSON.stringify(span.status)).not.toContain(MARK);
      expect(JSON.stringify(span.status)).not.toContain('card declined');
    }
  });

  it('records content when asked: prompt, messages, arguments, results and the denial', async () => {
    const otel = new InMemoryOtel();
    const { spans } = await traceDesk(otel, true);
    const agent = only(spans, 'invoke_agent desk/orders');
    const [firstChat] = spans.filter((span) => isChildOf(span, agent));

    expect(String(agent.attributes['gen_ai.system_instructions'])).toContain(
      `Settle orders carefully (${MARK}).`,
    );
    expect(JSON.parse(String(agent.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: INPUT }] },
    ]);
    expect(JSON.parse(String(agent.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: ANSWER }], finish_reason: 'stop' },
    ]);
    const output = JSON.parse(String(firstChat?.attributes['gen_ai.output.messages'])) as {
      parts: { type: string; name?: string }[];
    }[];
    expect(output[0]?.parts.map((part) => part.name)).toEqual([
      'lookup_order',
      'charge_card',
      'close_account',
      'research',
    ]);
    const lookup = only(spans, 'execute_tool lookup_order');
    expect(JSON.parse(String(lookup.attributes['gen_ai.tool.call.arguments']))).toEqual({
      orderId: `ORD-${MARK}`,
    });
    expect(lookup.attributes['gen_ai.tool.call.result']).toBe(`Order ORD-${MARK} is paid.`);
    const denial = only(spans, 'execute_tool close_account').events.find(
      (event) => event.name === 'affordance.tool.denied',
    );
    expect(String(denial?.attributes?.['affordance.denial.message'])).toContain(
      `Only staff close accounts (${MARK}).`,
    );
  });
});

describe('otel: a failed evaluation', () => {
  /** A desk whose model has nothing scripted: the first request fails. */
  async function failOnce(captureContent: boolean) {
    const otel = new InMemoryOtel();
    const runtime = installAffordance(new Container(), {
      telemetry: otel.telemetry({ captureContent }),
    });
    const error = await runtime
      .evaluate(deskPrompt(), { adapter: new ScriptedAdapter([]), input: INPUT })
      .then(
        (response: PromptResponse) => response,
        (thrown: unknown) => thrown,
      );
    return { error, spans: otel.spans() };
  }

  it('marks the request and the evaluation failed with error.type and phase, without the message', async () => {
    const { error, spans } = await failOnce(false);

    expect(error).toBeInstanceOf(Error);
    expect(spanTree(spans)).toEqual(['invoke_agent desk/orders [internal]', '  chat [client]']);
    const [agent, chat] = spans;
    expect(agent?.attributes).toMatchObject({
      'error.type': 'PromptEvaluationError',
      'affordance.error.phase': 'request',
      'affordance.evaluation.status': 'failed',
    });
    expect(chat?.attributes['error.type']).toBe('ScriptMismatchError');
    expect(agent?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'PromptEvaluationError' });
    expect(agent?.events).toEqual([]);
  });

  it('records the message as an exception event when content is captured', async () => {
    const { error, spans } = await failOnce(true);
    const [agent] = spans;

    expect(agent?.status.message).toBe((error as Error).message);
    expect(eventNames(agent as never)).toEqual(['exception']);
  });
});
