import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createGroq } from '@ai-sdk/groq';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { AiSdkLanguageModel } from 'affordance/ai-sdk';
import { createOpenAICompatible as createOpenAICompatibleV2 } from 'ai-sdk-openai-compatible-v1';
import type { FedBackToolResult } from 'affordance/testing';

import type { Json, WireRequest } from './ai-sdk-test-server.js';

/*
 * The wires the AI SDK tests replay, written from each provider's published
 * API reference: Gemini `generateContent` / `streamGenerateContent?alt=sse`,
 * Mistral chat completions, the Chat Completions wire that Ollama, vLLM and
 * LM Studio serve (through @ai-sdk/openai-compatible), and Groq's
 * OpenAI-compatible API (usage of a stream in `x_groq`).
 */

/** A recognisable API key: no error, event or payload may ever show it. */
export const TEST_AI_SDK_KEY = 'test-key-do-not-leak-0123456789abcdef';

/** One tool call as a wire sends it: `arguments` an object, or raw text (malformed JSON). */
export interface WireCall {
  readonly callId: string;
  readonly name: string;
  readonly arguments: unknown;
}

/** One answer, in the terms every wire can send. */
export interface WireTurn {
  readonly text?: string | undefined;
  readonly reasoning?: string | undefined;
  readonly toolCalls?: readonly WireCall[] | undefined;
  readonly inputTokens?: number | undefined;
  readonly outputTokens?: number | undefined;
  readonly cachedTokens?: number | undefined;
  readonly reasoningTokens?: number | undefined;
}

/** A provider's HTTP API as the tests replay it. */
export interface Wire {
  /** Short name for test titles: `gemini`, `mistral`, `openai-compatible`, `groq`. */
  readonly name: string;
  /** The provider package. */
  readonly packageName: string;
  /** What the wire replays, for the docs table. */
  readonly replays: string;
  /** The model object of the provider package, sending to `origin`. */
  model(origin: string): AiSdkLanguageModel;
  /** Whether `request` asks for a stream. */
  isStream(request: WireRequest): boolean;
  /** The whole answer's body. */
  whole(turn: WireTurn): Json;
  /** The streamed answer's `data:` entries. */
  events(turn: WireTurn): unknown[];
  /** An error body with `message` (Gemini: with a `RetryInfo` of `retryDelay` seconds when given). */
  error(status: number, message: string, retryDelay?: string): Json;
  /** The tool results a request body carries back. */
  toolResultsOf(body: unknown): FedBackToolResult[];
  /** What is wrong with a request: its path, its credentials. */
  check(request: WireRequest): string[];
}

const argsObject = (args: unknown): unknown => (args === undefined ? {} : args);
const argsText = (args: unknown): string =>
  typeof args === 'string' ? args : JSON.stringify(args ?? {});
const pieces = (text: string): string[] => text.match(/\S+\s*|\s+/g) ?? [];

// ---------------------------------------------------------------- Gemini

function geminiUsage(turn: WireTurn): Json {
  const input = turn.inputTokens ?? 0;
  const output = turn.outputTokens ?? 0;
  const usage: Json = {
    promptTokenCount: input,
    candidatesTokenCount: output - (turn.reasoningTokens ?? 0),
    totalTokenCount: input + output,
  };
  if (turn.cachedTokens !== undefined) usage['cachedContentTokenCount'] = turn.cachedTokens;
  if (turn.reasoningTokens !== undefined) usage['thoughtsTokenCount'] = turn.reasoningTokens;
  return usage;
}

function geminiParts(turn: WireTurn): Json[] {
  const parts: Json[] = [];
  if (turn.reasoning !== undefined) parts.push({ text: turn.reasoning, thought: true });
  if (turn.text !== undefined && turn.text !== '') parts.push({ text: turn.text });
  for (const call of turn.toolCalls ?? []) {
    // Gemini sends decoded args; a malformed string is sent as a string value.
    parts.push({
      functionCall: { id: call.callId, name: call.name, args: argsObject(call.arguments) },
      thoughtSignature: `sig-${call.callId}`,
    });
  }
  return parts;
}

const geminiMeta = { modelVersion: 'gemini-test-001', responseId: 'resp-gemini-1' };

export const geminiWire: Wire = {
  name: 'gemini',
  packageName: '@ai-sdk/google',
  replays: 'Gemini API `generateContent` and `streamGenerateContent?alt=sse`',
  model: (origin) =>
    createGoogleGenerativeAI({ apiKey: TEST_AI_SDK_KEY, baseURL: `${origin}/v1beta` })(
      'gemini-test',
    ),
  isStream: (request) => request.path.endsWith(':streamGenerateContent'),
  whole: (turn) => ({
    candidates: [
      { content: { role: 'model', parts: geminiParts(turn) }, finishReason: 'STOP', index: 0 },
    ],
    usageMetadata: geminiUsage(turn),
    ...geminiMeta,
  }),
  events: (turn) => {
    const chunk = (parts: Json[]): Json => ({
      candidates: [{ content: { role: 'model', parts }, index: 0 }],
      ...geminiMeta,
    });
    const events: Json[] = [];
    if (turn.reasoning !== undefined) events.push(chunk([{ text: turn.reasoning, thought: true }]));
    for (const piece of pieces(turn.text ?? '')) events.push(chunk([{ text: piece }]));
    const calls = geminiParts({ toolCalls: turn.toolCalls });
    if (calls.length > 0) events.push(chunk(calls));
    events.push({
      candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: geminiUsage(turn),
      ...geminiMeta,
    });
    return events;
  },
  error: (status, message, retryDelay) => ({
    error: {
      code: status,
      message,
      status:
        status === 429 ? 'RESOURCE_EXHAUSTED' : status === 400 ? 'INVALID_ARGUMENT' : 'INTERNAL',
      ...(retryDelay === undefined
        ? {}
        : { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay }] }),
    },
  }),
  toolResultsOf: (body) => {
    const results: FedBackToolResult[] = [];
    for (const content of ((body as Json)['contents'] ?? []) as Json[]) {
      for (const part of (content['parts'] ?? []) as Json[]) {
        const response = part['functionResponse'] as Json | undefined;
        if (response === undefined) continue;
        const value = (response['response'] as Json)['content'];
        results.push({ callId: String(response['id']), content: String(value) });
      }
    }
    return results;
  },
  check: (request) => [
    ...(request.path === '/v1beta/models/gemini-test:generateContent' ||
    (request.path === '/v1beta/models/gemini-test:streamGenerateContent' &&
      request.query.get('alt') === 'sse')
      ? []
      : [`unexpected ${request.method} ${request.path}?${request.query.toString()}`]),
    ...(request.headers['x-goog-api-key'] === TEST_AI_SDK_KEY ? [] : ['no x-goog-api-key']),
    ...(Array.isArray(request.body['contents']) ? [] : ['no contents']),
  ],
};

// ---------------------------------------------------------------- Chat Completions

/** How one Chat Completions dialect differs. */
interface ChatDialect {
  readonly name: string;
  readonly packageName: string;
  readonly replays: string;
  readonly path: string;
  readonly model: (origin: string) => AiSdkLanguageModel;
  /** Where a streamed answer's usage goes: a last chunk without choices, or Groq's `x_groq`. */
  readonly streamUsage: 'chunk' | 'final' | 'x_groq';
  /** Tool calls streamed whole (Mistral) or as a start and argument pieces. */
  readonly streamCalls: 'whole' | 'pieces';
  /** The message field of reasoning text (Mistral: `thinking` content chunks). */
  readonly reasoning: 'reasoning_content' | 'reasoning' | 'thinking';
}

function chatUsage(turn: WireTurn): Json {
  const input = turn.inputTokens ?? 0;
  const output = turn.outputTokens ?? 0;
  const usage: Json = {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
  };
  if (turn.cachedTokens !== undefined)
    usage['prompt_tokens_details'] = { cached_tokens: turn.cachedTokens };
  if (turn.reasoningTokens !== undefined)
    usage['completion_tokens_details'] = { reasoning_tokens: turn.reasoningTokens };
  return usage;
}

const finishOf = (turn: WireTurn): string =>
  (turn.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop';

function chatMessage(dialect: ChatDialect, turn: WireTurn): Json {
  const message: Json = { role: 'assistant', content: turn.text ?? null };
  if (turn.reasoning !== undefined) {
    if (dialect.reasoning === 'thinking') {
      message['content'] = [
        { type: 'thinking', thinking: [{ type: 'text', text: turn.reasoning }] },
        { type: 'text', text: turn.text ?? '' },
      ];
    } else {
      message[dialect.reasoning] = turn.reasoning;
    }
  }
  const calls = turn.toolCalls ?? [];
  if (calls.length > 0) {
    message['tool_calls'] = calls.map((call) => ({
      id: call.callId,
      type: 'function',
      function: { name: call.name, arguments: argsText(call.arguments) },
    }));
  }
  return message;
}

function chatWire(dialect: ChatDialect): Wire {
  const meta = { id: `cmpl-${dialect.name}-1`, created: 1_750_000_000, model: 'test-model' };
  const chunk = (delta: Json, finish: string | null = null): Json => ({
    ...meta,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  return {
    name: dialect.name,
    packageName: dialect.packageName,
    replays: dialect.replays,
    model: dialect.model,
    isStream: (request) => request.body['stream'] === true,
    whole: (turn) => ({
      ...meta,
      object: 'chat.completion',
      choices: [{ index: 0, message: chatMessage(dialect, turn), finish_reason: finishOf(turn) }],
      usage: chatUsage(turn),
    }),
    events: (turn) => {
      const events: unknown[] = [chunk({ role: 'assistant', content: '' })];
      if (turn.reasoning !== undefined) {
        events.push(
          chunk(
            dialect.reasoning === 'thinking'
              ? {
                  content: [
                    { type: 'thinking', thinking: [{ type: 'text', text: turn.reasoning }] },
                  ],
                }
              : { [dialect.reasoning]: turn.reasoning },
          ),
        );
      }
      for (const piece of pieces(turn.text ?? '')) events.push(chunk({ content: piece }));
      (turn.toolCalls ?? []).forEach((call, index) => {
        const text = argsText(call.arguments);
        if (dialect.streamCalls === 'whole') {
          events.push(
            chunk({
              tool_calls: [{ id: call.callId, function: { name: call.name, arguments: text } }],
            }),
          );
          return;
        }
        events.push(
          chunk({
            tool_calls: [
              {
                index,
                id: call.callId,
                type: 'function',
                function: { name: call.name, arguments: '' },
              },
            ],
          }),
        );
        for (let at = 0; at < text.length; at += 8) {
          events.push(
            chunk({ tool_calls: [{ index, function: { arguments: text.slice(at, at + 8) } }] }),
          );
        }
      });
      const last = chunk({}, finishOf(turn));
      if (dialect.streamUsage === 'final') last['usage'] = chatUsage(turn);
      if (dialect.streamUsage === 'x_groq')
        last['x_groq'] = { id: 'req_groq_1', usage: chatUsage(turn) };
      events.push(last);
      if (dialect.streamUsage === 'chunk') {
        events.push({
          ...meta,
          object: 'chat.completion.chunk',
          choices: [],
          usage: chatUsage(turn),
        });
      }
      events.push('[DONE]');
      return events;
    },
    error: (status, message) => ({
      error: {
        message,
        type: status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error',
        code: status,
      },
    }),
    toolResultsOf: (body) =>
      (((body as Json)['messages'] ?? []) as Json[])
        .filter((message) => message['role'] === 'tool')
        .map((message) => ({
          callId: String(message['tool_call_id']),
          content: String(message['content']),
        })),
    check: (request) => [
      ...(request.method === 'POST' && request.path === dialect.path
        ? []
        : [`unexpected ${request.method} ${request.path}`]),
      ...(request.headers.authorization === `Bearer ${TEST_AI_SDK_KEY}`
        ? []
        : ['no Authorization: Bearer <test key>']),
      ...(Array.isArray(request.body['messages']) ? [] : ['no messages']),
    ],
  };
}

export const mistralWire: Wire = chatWire({
  name: 'mistral',
  packageName: '@ai-sdk/mistral',
  replays: 'Mistral `POST /v1/chat/completions`, whole and streamed',
  path: '/v1/chat/completions',
  model: (origin) =>
    createMistral({ apiKey: TEST_AI_SDK_KEY, baseURL: `${origin}/v1` })('mistral-test'),
  streamUsage: 'final',
  streamCalls: 'whole',
  reasoning: 'thinking',
});

export const openAICompatibleWire: Wire = chatWire({
  name: 'openai-compatible',
  packageName: '@ai-sdk/openai-compatible',
  replays: 'Chat Completions as Ollama, vLLM and LM Studio serve it (`/v1/chat/completions`)',
  path: '/v1/chat/completions',
  model: (origin) =>
    createOpenAICompatible({
      name: 'ollama',
      apiKey: TEST_AI_SDK_KEY,
      baseURL: `${origin}/v1`,
      includeUsage: true,
      supportsStructuredOutputs: true,
    }).chatModel('llama-test'),
  streamUsage: 'chunk',
  streamCalls: 'pieces',
  reasoning: 'reasoning_content',
});

export const groqWire: Wire = chatWire({
  name: 'groq',
  packageName: '@ai-sdk/groq',
  replays: 'Groq `POST /openai/v1/chat/completions` (streamed usage in `x_groq`)',
  path: '/openai/v1/chat/completions',
  model: (origin) =>
    createGroq({ apiKey: TEST_AI_SDK_KEY, baseURL: `${origin}/openai/v1` })('groq-test'),
  streamUsage: 'x_groq',
  streamCalls: 'pieces',
  reasoning: 'reasoning',
});

/**
 * The same Chat Completions wire through `@ai-sdk/openai-compatible` 1 (the
 * `ai` 5 line), whose model objects speak the `v2` specification.
 */
export const openAICompatibleV2Wire: Wire = chatWire({
  name: 'openai-compatible-v2',
  packageName: '@ai-sdk/openai-compatible@1 (specification v2)',
  replays: 'Chat Completions (`/v1/chat/completions`), through a v2 model object',
  path: '/v1/chat/completions',
  model: (origin) =>
    createOpenAICompatibleV2({
      name: 'ollama',
      apiKey: TEST_AI_SDK_KEY,
      baseURL: `${origin}/v1`,
      includeUsage: true,
      supportsStructuredOutputs: true,
    }).chatModel('llama-test'),
  streamUsage: 'chunk',
  streamCalls: 'pieces',
  reasoning: 'reasoning_content',
});

/** Every wire the AI SDK tests replay. */
export const wires: readonly Wire[] = [
  geminiWire,
  mistralWire,
  openAICompatibleWire,
  groqWire,
  openAICompatibleV2Wire,
];
