import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';
import { TokenUsage } from '../../src/provider/token-usage.js';
import { MarkdownSection } from '../../src/prompt/markdown-section.js';
import { Prompt } from '../../src/prompt/prompt.js';
import type { ProviderTurn } from '../../src/provider/conversation.js';
import { ProviderAdapter } from '../../src/provider/provider-adapter.js';
import { providerCapabilities } from '../../src/provider/provider-capabilities.js';
import { recordNativeCall } from '../../src/runtime/record-native-call.js';
import type { ProviderRequest } from '../../src/provider/provider-request.js';
import { Session } from '../../src/session/session.js';
import { createTestRuntime } from '../../src/testing/create-test-runtime.js';
import { NativeTool } from '../../src/tools/native-tool.js';
import { ToolResult } from '../../src/tools/tool-result.js';

/** An adapter that offers native tools and answers with one scripted turn. */
class NativeAdapter extends ProviderAdapter {
  override readonly name: string = 'native-test';
  // Offers every native tool.
  override readonly capabilities = providerCapabilities({ nativeTools: true });
  readonly #turn: ProviderTurn;

  constructor(turn: ProviderTurn) {
    super();
    this.#turn = turn;
  }

  override request(_request: ProviderRequest): Promise<ProviderTurn> {
    return Promise.resolve(this.#turn);
  }
}

describe(recordNativeCall, () => {
  describe('(called by AffordanceRuntime.evaluate)', () => {
    it('should record provider-executed calls as native ToolInvoked events with a copy of their payload', async () => {
      const { runtime } = createTestRuntime();
      const payload = { id: 'ws_1', type: 'web_search_call', status: 'completed' };
      const usage = new TokenUsage({ inputTokens: 10, outputTokens: 2 });
      const adapter = new NativeAdapter({
        text: 'Sunny.',
        nativeCalls: [
          {
            callId: 'ws_1',
            name: 'web_search',
            arguments: { query: 'weather' },
            result: ToolResult.ok(payload, 'Searched the web.'),
          },
          {
            callId: 'ws_2',
            name: 'web_search',
            arguments: {},
            result: ToolResult.error('web_search failed.'),
          },
        ],
        usage,
      });
      const prompt = new Prompt({
        ns: 'test',
        key: 'native',
        sections: [
          new MarkdownSection({
            key: 'web',
            title: 'Web',
            template: 'Search.',
            tools: [new NativeTool({ type: 'web_search' })],
          }),
        ],
      });
      const session = new Session();

      const response = await runtime.evaluate(prompt, { adapter, session });

      const events = session.slice(ToolInvoked).all();
      expect(
        events.map((event) => [
          event.name,
          event.callId,
          event.native,
          event.outcome,
          event.adapter,
        ]),
      ).toEqual([
        ['web_search', 'ws_1', true, 'success', 'native-test'],
        ['web_search', 'ws_2', true, 'failure', 'native-test'],
      ]);
      expect(events[0]?.rawArguments).toEqual({ query: 'weather' });
      expect(events[0]?.result.value).toEqual(payload);
      expect(events[0]?.result.value).not.toBe(payload);
      expect(Object.isFrozen(payload)).toBe(false);
      expect(events[0]?.renderedMessage).toBe(
        'Searched the web.\n\n{"id":"ws_1","type":"web_search_call","status":"completed"}',
      );
      expect(events[0]?.usage).toBe(usage);
      expect(response.toolCalls.map((outcome) => outcome.event)).toEqual(events);
      expect(response.text).toBe('Sunny.');
    });
  });
});
