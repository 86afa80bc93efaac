import { AnthropicAdapter } from 'affordance/anthropic';
import type { AdapterHarness, FedBackToolResult, ScriptedTurn } from 'affordance/testing';

import { message, messageEvents, text, usage } from '../support/anthropic-payloads.js';
import { type AnthropicReply, AnthropicTestServer } from '../support/anthropic-test-server.js';
import type { Json } from '../support/recording-replay.js';

/*
 * The conformance harness of AnthropicAdapter, shaped like the OpenAI one: a
 * server on 127.0.0.1 answers each request with the next scripted turn as a
 * Messages API body, or as its event stream when the request asks to stream.
 */

/** What the model's text is for a turn: its `text`, or the JSON of its structured answer. */
const textOf = (turn: ScriptedTurn): string | undefined =>
  turn.text ?? (turn.parsed === undefined ? undefined : JSON.stringify(turn.parsed));

/**
 * A scripted call's `input`. The API sends decoded JSON; a scripted string that
 * is not JSON (a malformed-arguments check) is sent as that string, which the
 * adapter hands on as text for the runtime to reject.
 */
function inputOf(args: unknown): unknown {
  if (args === undefined) return {};
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

/** The Messages API answer to request `index` (from 0): whole, or as its event stream. */
function reply(turn: ScriptedTurn, index: number, stream: boolean): AnthropicReply {
  const content: Json[] = [];
  const said = textOf(turn);
  if (said !== undefined && said !== '') content.push(text(said));
  (turn.toolCalls ?? []).forEach((call, position) => {
    const id = call.callId ?? `toolu_${index + 1}_${position + 1}`;
    content.push({ type: 'tool_use', id, name: call.name, input: inputOf(call.arguments) });
  });
  const counts = turn.usage ?? {};
  const cached = counts.cachedTokens ?? 0;
  // Anthropic counts cache reads apart from input_tokens.
  const body = message(content, {
    usage: usage((counts.inputTokens ?? 0) - cached, counts.outputTokens ?? 0, cached),
  });
  return stream ? { events: messageEvents(body) } : { json: body };
}

/** The `tool_result` blocks of a Messages request body. */
function toolResultsOf(body: unknown): FedBackToolResult[] {
  const messages = (body as Json)['messages'];
  const results: FedBackToolResult[] = [];
  for (const entry of Array.isArray(messages) ? (messages as Json[]) : []) {
    const blocks = entry['content'];
    for (const block of Array.isArray(blocks) ? (blocks as Json[]) : []) {
      if (block['type'] !== 'tool_result') continue;
      const value = block['content'];
      const content = Array.isArray(value)
        ? (value as Json[])
            .map((part) => (typeof part['text'] === 'string' ? part['text'] : ''))
            .join('')
        : String(value);
      results.push({ callId: String(block['tool_use_id']), content });
    }
  }
  return results;
}

/** The conformance harness of `AnthropicAdapter`, against a local Anthropic test server. */
export function anthropicHarness(): AdapterHarness {
  return {
    name: 'AnthropicAdapter',
    async open(script, options = {}) {
      const server = await AnthropicTestServer.start();
      const malformed = script.some((turn) =>
        (turn.toolCalls ?? []).some((call) => typeof inputOf(call.arguments) === 'string'),
      );
      server.reply(
        ...script.map(
          (turn, index) => (request: { body: Json }) =>
            reply(turn, index, request.body['stream'] === true),
        ),
      );
      if (options.hang === true) server.reply({ hang: true });
      // No retries: a request past the script gets the server's error, which would otherwise be retried.
      const adapter = new AnthropicAdapter(server.client(), {
        model: 'claude-test',
        retry: { maxRetries: 0 },
      });
      return {
        adapter,
        requests: () => server.requests.map((request) => request.body),
        async close() {
          // A scripted malformed-arguments call is served as a string `input`, which the real API
          // never sends; the adapter replaying that block unchanged is the harness's own doing.
          const problems = server
            .problems()
            .filter((problem) => !(malformed && problem.endsWith('.input: expected an object')));
          await server.close();
          if (problems.length > 0) {
            throw new Error(`The Anthropic test server found problems: ${problems.join('; ')}`);
          }
        },
      };
    },
    toolResultsOf,
  };
}
