import { MarkdownSection, NativeTool, Prompt, Session, ToolInvoked, ToolResult } from 'affordance';
import {
  ProviderAdapter,
  providerCapabilities,
  type ProviderRequest,
  type ProviderTurn,
} from 'affordance/provider';
import { createTestRuntime } from 'affordance/testing';

/** A provider that ran two native tools: one the prompt declares under its own name, one it does not. */
class NativeAdapter extends ProviderAdapter {
  override readonly name = 'native-provider';
  override readonly capabilities = providerCapabilities({ nativeTools: true });

  override request(_request: ProviderRequest): Promise<ProviderTurn> {
    return Promise.resolve({
      text: 'Found it.',
      nativeCalls: [
        { callId: 'n1', name: 'search', arguments: {}, result: ToolResult.ok(null, 'Searched.') },
        { callId: 'n2', name: 'file_search', arguments: {}, result: ToolResult.ok(null, 'Read.') },
      ],
    });
  }
}

describe('a native call record', () => {
  it('carries the provider and the native type of the tool', async () => {
    const prompt = new Prompt({
      ns: 'test',
      key: 'native-type',
      sections: [
        new MarkdownSection({
          key: 'web',
          title: 'Web',
          template: 'Search the web.',
          tools: [new NativeTool({ type: 'web_search', name: 'search' })],
        }),
      ],
    });
    const session = new Session();
    await createTestRuntime().runtime.evaluate(prompt, { adapter: new NativeAdapter(), session });
    expect(
      session
        .slice(ToolInvoked)
        .all()
        .map((event) => [event.name, event.adapter, event.nativeType]),
    ).toEqual([
      ['search', 'native-provider', 'web_search'],
      ['file_search', 'native-provider', 'file_search'],
    ]);
  });
});
