import { IsString } from 'class-validator';

import {
  MarkdownSection,
  Prompt,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
  ToolValidationError,
} from 'affordance';
import { createTestRuntime, type ScriptedToolCall } from 'affordance/testing';

import { toolMessages } from '../support/conversation.js';

class QueryParams {
  @IsString() query!: string;
}

const search = new ToolDefinition({
  name: 'search',
  description: 'Searches.',
  params: QueryParams,
  handler: (params: QueryParams) => ToolResult.ok(null, params.query),
});

const prompt = new Prompt({
  ns: 'hardening',
  key: 'bounded',
  sections: [
    new MarkdownSection({
      key: 'work',
      title: 'Work',
      template: 'Work.',
      tools: [
        search,
        new ToolDefinition({
          name: 'shout',
          description: 'Fails with a huge message.',
          handler: () => {
            throw new Error(`boom ${'x'.repeat(10_000_000)}`);
          },
        }),
        new ToolDefinition({
          name: 'complain',
          description: 'Returns a huge failure.',
          handler: () => ToolResult.error(`no ${'y'.repeat(10_000_000)}`),
        }),
      ],
    }),
  ],
});

async function oneCall(call: ScriptedToolCall) {
  const session = new Session();
  const { adapter, evaluate } = createTestRuntime({
    script: [{ toolCalls: [{ callId: 'c1', ...call }] }, { text: 'done' }],
  });
  await evaluate(prompt, { session });
  const [[, message] = []] = toolMessages(adapter.requests[1]);
  const [record] = session.slice(ToolInvoked).all();
  return { message: message ?? '', record };
}

describe('Every failure text fed back to the model is bounded', () => {
  it('lists the first 20 of 100,000 unknown keys, then how many more', async () => {
    const args: Record<string, string> = { query: 'q' };
    for (let index = 0; index < 100_000; index += 1) args[`extra_${index}`] = 'v';
    const { message, record } = await oneCall({ name: 'search', arguments: args });
    expect(message.length).toBeLessThan(2_000);
    expect(message).toContain('extra_0: unknown field');
    expect(message).toContain('extra_19: unknown field');
    expect(message).not.toContain('extra_20:');
    expect(message).toMatch(/; and 99980 more$/);
    expect(record?.result.message).toBe(message);
  });

  it('keeps every issue on the error for code that wants them all', () => {
    const issues = Array.from({ length: 50 }, (_, index) => ({
      path: `f${index}`,
      message: 'bad',
    }));
    const error = new ToolValidationError(issues);
    expect(error.issues).toHaveLength(50);
    expect(error.message).toMatch(/f19: bad; and 30 more$/);
  });

  it('cuts a handler’s 10 MB error message with a visible marker', async () => {
    const { message, record } = await oneCall({ name: 'shout' });
    expect(message.length).toBeLessThan(2_100);
    expect(message).toMatch(
      /^Tool 'shout' execution failed: boom x+… \[\d+ more characters cut\]$/,
    );
    expect(record?.result.message).toBe(message);
  });

  it('cuts a handler’s own 10 MB failure, in the tool message and in ToolInvoked', async () => {
    const { message, record } = await oneCall({ name: 'complain' });
    expect(message.length).toBeLessThan(8_100);
    expect(message).toMatch(/more characters cut\]$/);
    expect(record?.result.message).toBe(message);
    expect(record?.renderedMessage).toBe(message);
  });

  it('cuts a 1 MB unknown tool name quoted back to the model', async () => {
    const { message } = await oneCall({ name: 'n'.repeat(1_000_000) });
    expect(message).toMatch(
      /^Unknown tool 'n+… \[999900 more characters cut\]'\. Available tools: search, shout, complain\.$/,
    );
  });

  it('cuts a 1 MB unknown field name', async () => {
    const { message } = await oneCall({
      name: 'search',
      arguments: { query: 'q', ['k'.repeat(1_000_000)]: 1 },
    });
    expect(message.length).toBeLessThan(2_100);
  });
});
