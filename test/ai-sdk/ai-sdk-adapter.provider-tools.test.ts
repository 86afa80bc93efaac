import { IsString } from 'class-validator';

import {
  ConfigurationError,
  MarkdownSection,
  NativeTool,
  Prompt,
  PromptValidationError,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { AiSdkAdapter } from 'affordance/ai-sdk';

import { type AiSdkHarness, startAiSdk } from '../support/ai-sdk-harness.js';
import type { Json } from '../support/ai-sdk-test-server.js';
import { geminiWire, mistralWire, type Wire } from '../support/ai-sdk-wires.js';
import { catchError } from '../support/catch-error.js';
import { collect, providerRequest } from '../support/openai-streams.js';

const harnesses: AiSdkHarness[] = [];
async function start(wire: Wire, options: Parameters<typeof startAiSdk>[1] = {}) {
  const harness = await startAiSdk(wire, options);
  harnesses.push(harness);
  return harness;
}
afterEach(async () => {
  for (const harness of harnesses.splice(0)) {
    await harness.server.close();
    expect(harness.server.problems()).toEqual([]);
  }
});

class LookupParams {
  @IsString() orderId!: string;
}

/** A desk with a function tool and Google Search as a `NativeTool`. */
function searchDesk(search = new NativeTool({ type: 'web_search' })): Prompt {
  return new Prompt({
    ns: 'test/ai-sdk',
    key: 'search-desk',
    sections: [
      new MarkdownSection({
        key: 'desk',
        title: 'Desk',
        template: 'Look orders up; search the web for carriers.',
        tools: [
          new ToolDefinition({
            name: 'lookup_order',
            description: 'Look an order up by id.',
            params: LookupParams,
            handler: () => ToolResult.ok({ status: 'shipped' }, 'Shipped.'),
          }),
          search,
        ],
      }),
    ],
  });
}

// Gemini's server-side tool parts (`toolCall` / `toolResponse`), as it sends them when
// `includeServerSideToolInvocations` is on and Google Search runs.
const searchCall = {
  toolCall: { id: 'srv_1', toolType: 'GOOGLE_SEARCH_WEB', args: { queries: ['acme carrier'] } },
};
const searchResponse = {
  toolResponse: {
    id: 'srv_1',
    toolType: 'GOOGLE_SEARCH_WEB',
    response: { search_suggestions: 'acme carrier' },
  },
};
const answer = { text: 'Acme ships with Parcelco.' };
const usageMetadata = { promptTokenCount: 20, candidatesTokenCount: 8, totalTokenCount: 28 };

describe('AiSdkAdapter provider tools', () => {
  it('should send a web_search NativeTool to Gemini as Google Search and record the search it ran', async () => {
    const harness = await start(geminiWire);
    harness.server.reply({
      json: {
        candidates: [
          {
            content: { role: 'model', parts: [searchCall, searchResponse, answer] },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata,
      },
    });
    const session = new Session();

    const response = await harness.runtime.evaluate(searchDesk(), { session, input: 'Carrier?' });

    expect(response.text).toBe(answer.text);
    const body = harness.server.requests[0]!.body;
    // Google Search beside the function declarations, server-side invocations reported.
    expect(body['tools']).toEqual([
      { googleSearch: {} },
      { functionDeclarations: [expect.objectContaining({ name: 'lookup_order' })] },
    ]);
    expect(body['toolConfig']).toMatchObject({ includeServerSideToolInvocations: true });
    const invoked = session.slice(ToolInvoked).all();
    expect(
      invoked.map((event) => [event.native, event.callId, event.name, event.rawArguments]),
    ).toEqual([[true, 'srv_1', 'server:GOOGLE_SEARCH_WEB', { queries: ['acme carrier'] }]]);
    expect(invoked[0]!.result.value).toEqual({ search_suggestions: 'acme carrier' });
  });

  it('should record the search of a streamed answer too, and send the config as its arguments', async () => {
    const harness = await start(geminiWire);
    const chunk = (parts: Json[], last = false): Json => ({
      candidates: [
        { content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) },
      ],
      ...(last ? { usageMetadata } : {}),
    });
    harness.server.reply({
      events: [chunk([searchCall]), chunk([searchResponse]), chunk([answer], true)],
    });
    const search = new NativeTool({
      type: 'web_search',
      config: { timeRangeFilter: { startTime: '2026-01-01T00:00:00Z' } },
    });

    const { parts, error } = await collect(
      harness.adapter.stream(providerRequest(harness.adapter, searchDesk(search))),
    );

    expect(error).toBeUndefined();
    expect((harness.server.requests[0]!.body['tools'] as Json[])[0]).toEqual({
      googleSearch: { timeRangeFilter: { startTime: '2026-01-01T00:00:00Z' } },
    });
    const turn = parts.flatMap((part) => (part.type === 'turn' ? [part.turn] : []))[0]!;
    expect(turn.text).toBe(answer.text);
    expect(turn.toolCalls).toEqual([]);
    expect(
      turn.nativeCalls?.map((call) => [call.callId, call.name, call.arguments, call.result.ok]),
    ).toEqual([['srv_1', 'server:GOOGLE_SEARCH_WEB', { queries: ['acme carrier'] }, true]]);
  });

  it('should refuse, before any request, a NativeTool the provider has no tool for', async () => {
    const harness = await start(mistralWire);

    const error = await catchRejection(() =>
      harness.runtime.evaluate(searchDesk(), { input: 'Carrier?' }),
    );

    expect(error).toBeInstanceOf(PromptValidationError);
    expect((error as Error).message).toContain(
      "no AI SDK provider tool of 'mistral.chat' is known for the native tool 'web_search'",
    );
    expect((error as Error).message).toContain('AiSdkAdapterOptions.providerTools');
    expect(harness.server.requests).toHaveLength(0);
  });

  it('should declare native tools for providers it maps and for ids named in providerTools', () => {
    const gemini = new AiSdkAdapter({ model: geminiWire.model('http://127.0.0.1:9') });
    const mistral = new AiSdkAdapter({ model: mistralWire.model('http://127.0.0.1:9') });
    const named = new AiSdkAdapter({
      model: mistralWire.model('http://127.0.0.1:9'),
      providerTools: { web_search: 'mistral.web_search' },
    });

    expect([gemini, mistral, named].map((a) => a.capabilities.nativeTools)).toEqual([
      true,
      false,
      true,
    ]);
    expect(() => {
      named.validate(searchDesk().render().tools);
    }).not.toThrow();
    expect(() => {
      mistral.validate(searchDesk().render().tools);
    }).toThrow(PromptValidationError);
  });

  it('should refuse a providerTools entry that is not a provider tool id', () => {
    const error = catchError(
      ConfigurationError,
      () =>
        new AiSdkAdapter({
          model: geminiWire.model('http://127.0.0.1:9'),
          providerTools: { web_search: 'google_search' },
        }),
    );
    expect(error.message).toContain('AiSdkAdapterOptions.providerTools.web_search');
    expect(error.message).toContain("'<provider>.<tool>'");
  });
});

async function catchRejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
