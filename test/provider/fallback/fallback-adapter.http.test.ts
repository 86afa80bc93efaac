import 'reflect-metadata';

import { createServer } from 'node:net';

import { IsString } from 'class-validator';
import { Container } from 'inversify';

import {
  type EvaluationState,
  installAffordance,
  MarkdownSection,
  Prompt,
  PromptExecuted,
  Session,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import { AnthropicAdapter } from 'affordance/anthropic';
import { OpenAIAdapter } from 'affordance/openai';
import { type FallbackEvent, FallbackAdapter, providerFailureKind } from 'affordance/provider';
import { TEST_STATE_SECRET } from 'affordance/testing';

import * as claude from '../../support/anthropic-payloads.js';
import { AnthropicTestServer, errorBody } from '../../support/anthropic-test-server.js';
import * as gpt from '../../support/openai-payloads.js';
import { OpenAITestServer } from '../../support/openai-test-server.js';
import { responsesStreamEvents } from '../../support/responses-stream-events.js';

class OrderParams {
  @IsString() orderId!: string;
}

const ledger: string[] = [];
const prompt = new Prompt({
  ns: 'support',
  key: 'refunds',
  sections: [
    new MarkdownSection({
      key: 'desk',
      title: 'Desk',
      template: 'Refund orders when asked.',
      tools: [
        new ToolDefinition({
          name: 'refund_order',
          description: 'Refund an order.',
          params: OrderParams,
          handler: (params) => {
            ledger.push(`refund ${params.orderId}`);
            return ToolResult.ok(null, `Refunded ${params.orderId}.`);
          },
        }),
      ],
    }),
  ],
});

let openaiServer: OpenAITestServer;
let anthropicServer: AnthropicTestServer;

beforeEach(async () => {
  ledger.length = 0;
  openaiServer = await OpenAITestServer.start();
  anthropicServer = await AnthropicTestServer.start();
});

afterEach(async () => {
  expect(openaiServer.problems()).toEqual([]);
  expect(anthropicServer.problems()).toEqual([]);
  await openaiServer.close();
  await anthropicServer.close();
});

/** The real adapters over the real SDKs; the first one moves on at its first failure. */
function adapters(openaiBaseURL?: string) {
  const openai = new OpenAIAdapter(
    openaiServer.client(openaiBaseURL === undefined ? {} : { baseURL: openaiBaseURL }),
    { model: 'gpt-test', retry: { maxRetries: 0 } },
  );
  const anthropic = new AnthropicAdapter(anthropicServer.client(), {
    model: 'claude-test',
    maxTokens: 1024,
    retry: { maxRetries: 0 },
  });
  return { openai, anthropic };
}

/** A base URL where nothing listens: a port taken, then freed. */
async function refusingBaseURL(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return `http://127.0.0.1:${port}/v1`;
}

function runtime() {
  return installAffordance(new Container(), { stateSecret: TEST_STATE_SECRET });
}

describe('FallbackAdapter over the real OpenAI and Anthropic SDKs, on 127.0.0.1', () => {
  it('OpenAI answers a tool call, then is rate limited (429): Claude finishes, without OpenAI reasoning', async () => {
    const reasoning = gpt.reasoning('Refund it.');
    openaiServer.reply(
      {
        json: gpt.responseBody([
          reasoning,
          gpt.functionCall('refund_order', { orderId: 'A-1' }, 'call_a1'),
        ]),
      },
      {
        status: 429,
        headers: { 'retry-after': '20' },
        json: {
          error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' },
        },
      },
    );
    anthropicServer.reply({ json: claude.messageBody({ text: 'Refunded A-1.' }) });
    const events: FallbackEvent[] = [];
    const { openai, anthropic } = adapters();
    const adapter = new FallbackAdapter([openai, anthropic], { onEvent: (e) => events.push(e) });
    const session = new Session();

    const response = await runtime().evaluate(prompt, { adapter, session, input: 'Refund A-1.' });

    expect(response.text).toBe('Refunded A-1.');
    expect(ledger).toEqual(['refund A-1']);
    // OpenAI's second request carried its own reasoning item back.
    expect(JSON.stringify(openaiServer.requests[1]?.body['input'])).toContain(
      String(reasoning['encrypted_content']),
    );
    // Claude got the call and its result as Messages API blocks, and no OpenAI item.
    const sent = anthropicServer.requests[0]?.body ?? {};
    expect(JSON.stringify(sent)).not.toContain('gAAAA');
    expect(sent['messages']).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Refund A-1.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'call_a1', name: 'refund_order', input: { orderId: 'A-1' } },
        ],
      },
      {
        role: 'user',
        content: [expect.objectContaining({ type: 'tool_result', tool_use_id: 'call_a1' })],
      },
    ]);
    const fallback = events.find((e) => e.type === 'fallback');
    expect(fallback).toMatchObject({ member: 'openai/gpt-test', kind: 'rate-limit', turn: 1 });
    expect(events.find((e) => e.type === 'items-dropped')).toMatchObject({
      servedBy: 'openai/gpt-test',
      itemTypes: ['reasoning', 'function_call'],
    });
    const executed = session.view.slice(PromptExecuted).latest();
    expect([executed?.provider, executed?.model]).toEqual(['anthropic', 'claude-test']);
  });

  it('OpenAI refuses the connection: Claude answers, and the failure reads as `connection`', async () => {
    anthropicServer.reply({ json: claude.messageBody({ text: 'Hello from Claude.' }) });
    const events: FallbackEvent[] = [];
    const { openai, anthropic } = adapters(await refusingBaseURL());
    const adapter = new FallbackAdapter([openai, anthropic], { onEvent: (e) => events.push(e) });
    const response = await runtime().evaluate(prompt, { adapter, input: 'Hi.' });
    expect(response.text).toBe('Hello from Claude.');
    const fallback = events.find((e) => e.type === 'fallback');
    expect(fallback?.type === 'fallback' && fallback.kind).toBe('connection');
  });

  it('Claude is overloaded (529): OpenAI answers, and names the model that served', async () => {
    anthropicServer.reply({ status: 529, json: errorBody('overloaded_error', 'Overloaded') });
    openaiServer.reply({
      json: gpt.responseBody([gpt.message('Hello from GPT.')], { model: 'gpt-test-2026-01-01' }),
    });
    const { openai, anthropic } = adapters();
    const session = new Session();
    const response = await runtime().evaluate(prompt, {
      adapter: new FallbackAdapter([anthropic, openai]),
      session,
      input: 'Hi.',
    });
    expect(response.text).toBe('Hello from GPT.');
    const executed = session.view.slice(PromptExecuted).latest();
    expect([executed?.adapter, executed?.provider, executed?.model]).toEqual([
      'fallback',
      'openai',
      'gpt-test-2026-01-01',
    ]);
  });

  it('streamed: OpenAI 503 before the stream opens, so Claude streams the answer', async () => {
    openaiServer.reply({ status: 503, json: { error: { message: 'Service unavailable' } } });
    anthropicServer.reply({
      events: claude.messageEvents(claude.messageBody({ text: 'Streamed by Claude.' })),
    });
    const { openai, anthropic } = adapters();
    const parts = [];
    for await (const part of runtime().stream(prompt, {
      adapter: new FallbackAdapter([openai, anthropic]),
      input: 'Hi.',
    })) {
      parts.push(part);
    }
    const deltas = parts.flatMap((part) => (part.type === 'text-delta' ? [part.delta] : []));
    expect(deltas.join('')).toBe('Streamed by Claude.');
    const end = parts.find((part) => part.type === 'turn-end');
    expect(end).toMatchObject({ provider: 'anthropic', model: 'claude-test' });
    expect(parts.at(-1)?.type).toBe('answer');
  });

  it('streamed: an OpenAI stream that breaks after its first delta is not answered again by Claude', async () => {
    const events = responsesStreamEvents(gpt.responseBody([gpt.message('Hello there, friend.')]));
    const firstDelta = events.findIndex((event) => event.includes('response.output_text.delta'));
    openaiServer.reply({ sse: events, dropAfter: firstDelta + 1 });
    const { openai, anthropic } = adapters();
    const parts = [];
    for await (const part of runtime().stream(prompt, {
      adapter: new FallbackAdapter([openai, anthropic]),
      input: 'Hi.',
    })) {
      parts.push(part);
    }
    expect(parts.filter((part) => part.type === 'text-delta')).toHaveLength(1);
    const last = parts.at(-1);
    expect(last?.type).toBe('error');
    expect(last?.type === 'error' && String(last.error)).toMatch(/broke off/);
    expect(anthropicServer.requests).toHaveLength(0);
    expect(providerFailureKind(last?.type === 'error' ? last.error : undefined)).not.toBe(
      undefined,
    );
  });

  it('an approval pause on OpenAI is resumed on Claude while OpenAI refuses connections', async () => {
    const approvalPrompt = new Prompt({
      ns: 'support',
      key: 'approved-refunds',
      sections: [
        new MarkdownSection({
          key: 'desk',
          title: 'Desk',
          template: 'Refund orders when asked.',
          tools: [
            new ToolDefinition({
              name: 'refund_order',
              description: 'Refund an order.',
              params: OrderParams,
              approval: true,
              handler: (params) => {
                ledger.push(`refund ${params.orderId}`);
                return ToolResult.ok(null, `Refunded ${params.orderId}.`);
              },
            }),
          ],
        }),
      ],
    });
    const reasoning = gpt.reasoning('Needs approval.');
    openaiServer.reply({
      json: gpt.responseBody([
        reasoning,
        gpt.functionCall('refund_order', { orderId: 'B-2' }, 'call_b2'),
      ]),
    });
    const session = new Session();
    const first = adapters();
    const paused = await runtime().evaluate(approvalPrompt, {
      adapter: new FallbackAdapter([first.openai, first.anthropic]),
      session,
      input: 'Refund B-2.',
    });
    expect(paused.status).toBe('interrupted');
    const saved = JSON.stringify(paused.interruption?.state);
    expect(saved).toContain(String(reasoning['encrypted_content']));

    // Another process, later: OpenAI refuses connections; Claude serves the resumed turn.
    anthropicServer.reply({ json: claude.messageBody({ text: 'Refunded B-2.' }) });
    const later = adapters(await refusingBaseURL());
    const events: FallbackEvent[] = [];
    const done = await runtime().resume(
      approvalPrompt,
      JSON.parse(saved) as EvaluationState,
      [{ callId: 'call_b2', approved: true }],
      {
        adapter: new FallbackAdapter([later.openai, later.anthropic], {
          onEvent: (event) => events.push(event),
        }),
        session,
      },
    );

    expect(done.status).toBe('completed');
    expect(done.text).toBe('Refunded B-2.');
    expect(ledger).toEqual(['refund B-2']);
    const sent = anthropicServer.requests[0]?.body ?? {};
    expect(JSON.stringify(sent)).not.toContain('gAAAA');
    expect(sent['messages']).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Refund B-2.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'call_b2', name: 'refund_order', input: { orderId: 'B-2' } },
        ],
      },
      {
        role: 'user',
        content: [expect.objectContaining({ type: 'tool_result', tool_use_id: 'call_b2' })],
      },
    ]);
    expect(events.map((event) => event.type)).toEqual(['fallback', 'items-dropped']);
  });
});
