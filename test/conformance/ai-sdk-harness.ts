import { AiSdkAdapter } from 'affordance/ai-sdk';
import type { AdapterHarness, ScriptedTurn } from 'affordance/testing';

import { type WireRequest, WireTestServer } from '../support/ai-sdk-test-server.js';
import type { Wire, WireTurn } from '../support/ai-sdk-wires.js';

/*
 * The conformance harness of AiSdkAdapter over one provider package: a server
 * on 127.0.0.1 answers each request with the next scripted turn in the
 * provider's wire format, whole or as its event stream when the request asks
 * to stream.
 */

/** A scripted turn in wire terms (a structured answer is the JSON text of the message). */
function wireTurn(turn: ScriptedTurn, index: number): WireTurn {
  return {
    text: turn.text ?? (turn.parsed === undefined ? undefined : JSON.stringify(turn.parsed)),
    toolCalls: (turn.toolCalls ?? []).map((call, position) => ({
      callId: call.callId ?? `call_${index + 1}_${position + 1}`,
      name: call.name,
      arguments: call.arguments,
    })),
    inputTokens: turn.usage?.inputTokens,
    outputTokens: turn.usage?.outputTokens,
    cachedTokens: turn.usage?.cachedTokens,
  };
}

/** The conformance harness of `AiSdkAdapter` over `wire`'s provider package. */
export function aiSdkHarness(wire: Wire): AdapterHarness {
  return {
    name: `AiSdkAdapter (${wire.packageName})`,
    async open(script, options = {}) {
      const server = await WireTestServer.start(wire.check);
      server.reply(
        ...script.map((turn, index) => (request: WireRequest) => {
          const answer = wireTurn(turn, index);
          return wire.isStream(request)
            ? { events: wire.events(answer) }
            : { json: wire.whole(answer) };
        }),
      );
      if (options.hang === true) server.reply({ hang: true });
      // No retries: a request past the script gets the server's 400.
      const adapter = new AiSdkAdapter({
        model: wire.model(server.origin),
        retry: { maxRetries: 0 },
      });
      return {
        adapter,
        requests: () => server.requests.map((request) => request.body),
        async close() {
          const problems = server.problems();
          await server.close();
          if (problems.length > 0) {
            throw new Error(`The ${wire.name} test server found problems: ${problems.join('; ')}`);
          }
        },
      };
    },
    toolResultsOf: (body) => wire.toolResultsOf(body),
  };
}
