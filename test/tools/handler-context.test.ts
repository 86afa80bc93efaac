import { IsString } from 'class-validator';

import { MarkdownSection, Prompt, type ToolContext, ToolDefinition, ToolResult } from 'affordance';
import { createTestRuntime } from 'affordance/testing';

class NoteParams {
  @IsString()
  text!: string;
}

/**
 * Why `ToolDefinition` does not refuse a handler by its `length`: handlers
 * whose `length` is below two still receive the call's context.
 */
describe('ToolDefinition handlers and the context parameter', () => {
  const seen: [string, unknown][] = [];
  const fallback = { callId: 'none' } as unknown as ToolContext;
  const withDefault = (params: NoteParams, context: ToolContext = fallback): ToolResult<null> => {
    seen.push(['default', context.callId]);
    return ToolResult.ok(null, params.text);
  };
  const withRest = (...args: [NoteParams, ToolContext]): ToolResult<null> => {
    seen.push(['rest', args[1].callId]);
    return ToolResult.ok(null, args[0].text);
  };
  const tools = [
    new ToolDefinition({
      name: 'with_default',
      description: 'Default.',
      params: NoteParams,
      handler: withDefault,
    }),
    new ToolDefinition({
      name: 'with_rest',
      description: 'Rest.',
      params: NoteParams,
      handler: withRest,
    }),
  ];
  const prompt = new Prompt({
    ns: 'test',
    key: 'handler-context',
    sections: [new MarkdownSection({ key: 'notes', title: 'Notes', template: 'Notes.', tools })],
  });

  it('should call a handler whose length is below two with the call context', async () => {
    const { runtime } = createTestRuntime();

    const one = await runtime.callTool(prompt, { name: 'with_default', arguments: { text: 'a' } });
    const two = await runtime.callTool(prompt, { name: 'with_rest', arguments: { text: 'b' } });

    expect([withDefault.length, withRest.length]).toEqual([1, 0]);
    expect([one.message, two.message]).toEqual(['a', 'b']);
    expect(seen).toEqual([
      ['default', one.event.callId],
      ['rest', two.event.callId],
    ]);
    expect(one.event.callId).not.toBe('none');
  });
});
