import { OpenAIAdapter, type OpenAIApi } from 'affordance/openai';
import type {
  AdapterHarness,
  FedBackToolResult,
  ScriptedToolCall,
  ScriptedTurn,
} from 'affordance/testing';

import { chatTurnChunks, chatTurnJson, type ChatTurn } from '../support/chat-turn-stream.js';
import { functionCall, message, responseBody, usage } from '../support/openai-payloads.js';
import { OpenAITestServer, type Reply } from '../support/openai-test-server.js';
import type { Json } from '../support/recording-replay.js';
import { responsesStreamEvents } from '../support/responses-stream-events.js';

/*
 * A conformance harness for OpenAIAdapter: a server on 127.0.0.1 answers each
 * request with the next scripted turn in OpenAI's wire format, as JSON or, when
 * the request asks to stream, as server-sent events. A harness for another
 * provider has the same three parts: turn → wire answer (whole and streamed),
 * the server queue (plus a `hang` reply), and reading tool results back out
 * of a request body.
 */

/** What the model's text is for a turn: its `text`, or the JSON of its structured answer. */
const textOf = (turn: ScriptedTurn): string | undefined =>
  turn.text ?? (turn.parsed === undefined ? undefined : JSON.stringify(turn.parsed));

/** A call's arguments as the provider sends them: JSON text, or the scripted string verbatim. */
const argumentsOf = (call: ScriptedToolCall): string =>
  call.arguments === undefined
    ? '{}'
    : typeof call.arguments === 'string'
      ? call.arguments
      : JSON.stringify(call.arguments);

/** The turn's calls with their ids (`call_<turn>_<position>` when the script gives none). */
const callsOf = (turn: ScriptedTurn, index: number) =>
  (turn.toolCalls ?? []).map((call, position) => ({
    id: call.callId ?? `call_${index + 1}_${position + 1}`,
    name: call.name,
    args: argumentsOf(call),
  }));

/** The Responses API answer to request `index` (from 0): whole, or as its event stream. */
function responsesReply(turn: ScriptedTurn, index: number, stream: boolean): Reply {
  const text = textOf(turn);
  const output = [
    ...(text === undefined ? [] : [message(text)]),
    ...callsOf(turn, index).map((call) => functionCall(call.name, call.args, call.id)),
  ];
  const counts = turn.usage ?? {};
  const body = responseBody(output, {
    usage: usage(counts.inputTokens ?? 0, counts.outputTokens ?? 0, counts.cachedTokens ?? 0),
  });
  return stream ? { sse: responsesStreamEvents(body) } : { json: body };
}

/** The Chat Completions answer to request `index` (from 0): whole, or as its chunks. */
function chatReply(turn: ScriptedTurn, index: number, stream: boolean): Reply {
  const content = textOf(turn);
  const chat: ChatTurn = {
    ...(content === undefined ? {} : { content }),
    calls: callsOf(turn, index),
    promptTokens: turn.usage?.inputTokens ?? 0,
    completionTokens: turn.usage?.outputTokens ?? 0,
  };
  return stream ? { sse: chatTurnChunks(chat) } : { json: chatTurnJson(chat) };
}

/** The `function_call_output` items of a Responses request body. */
function responsesToolResults(body: unknown): FedBackToolResult[] {
  const input = (body as Json)['input'];
  return (Array.isArray(input) ? (input as Json[]) : [])
    .filter((item) => item['type'] === 'function_call_output')
    .map((item) => ({ callId: String(item['call_id']), content: String(item['output']) }));
}

/** The `tool` messages of a Chat Completions request body. */
function chatToolResults(body: unknown): FedBackToolResult[] {
  const messages = (body as Json)['messages'];
  return (Array.isArray(messages) ? (messages as Json[]) : [])
    .filter((item) => item['role'] === 'tool')
    .map((item) => ({ callId: String(item['tool_call_id']), content: String(item['content']) }));
}

/** The conformance harness of `OpenAIAdapter` speaking `api`, against a local OpenAI test server. */
export function openAIHarness(api: OpenAIApi): AdapterHarness {
  const reply = api === 'chat' ? chatReply : responsesReply;
  return {
    name: `OpenAIAdapter (${api})`,
    async open(script, options = {}) {
      const server = await OpenAITestServer.start();
      server.reply(
        ...script.map(
          (turn, index) => (request: { body: Json }) =>
            reply(turn, index, request.body['stream'] === true),
        ),
      );
      if (options.hang === true) server.reply({ hang: true });
      // No retries: a request past the script gets the server's 500, which would otherwise be retried.
      const adapter = new OpenAIAdapter(server.client(), {
        model: 'gpt-test',
        api,
        retry: { maxRetries: 0 },
      });
      return {
        adapter,
        requests: () => server.requests.map((request) => request.body),
        async close() {
          const problems = server.problems();
          await server.close();
          if (problems.length > 0) {
            throw new Error(`The OpenAI test server found problems: ${problems.join('; ')}`);
          }
        },
      };
    },
    toolResultsOf: api === 'chat' ? chatToolResults : responsesToolResults,
  };
}
