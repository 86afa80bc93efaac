import { IsString } from 'class-validator';

import {
  MarkdownSection,
  Prompt,
  PromptEvaluationError,
  Session,
  type ToolContext,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import type { ProviderRequest } from 'affordance/provider';
import { createTestRuntime, ScriptedAdapter, ScriptMismatchError } from 'affordance/testing';

import { catchRejection } from '../support/catch-error.js';
import { toolMessages } from '../support/conversation.js';

class ShoutParams {
  @IsString() text!: string;
}

const shout = new ToolDefinition({
  name: 'shout',
  description: 'Repeat the text in capitals.',
  params: ShoutParams,
  handler: (params: ShoutParams) => new ToolResult({ message: params.text.toUpperCase() }),
});

const prompt = new Prompt({
  ns: 'test',
  key: 'scripted',
  sections: [
    new MarkdownSection({ key: 'voice', title: 'Voice', template: 'Shout.', tools: [shout] }),
  ],
});

describe(ScriptedAdapter, () => {
  describe('.request (through createTestRuntime(...).evaluate)', () => {
    it('should answer each request with the next turn and record every request', async () => {
      const { adapter, evaluate } = createTestRuntime({
        script: [
          { text: 'Shouting now.', toolCalls: [{ name: 'shout', arguments: { text: 'hi' } }] },
          { text: 'I shouted.' },
        ],
      });

      const response = await evaluate(prompt, { input: 'Say hi loudly.' });

      expect(response.text).toBe('I shouted.');
      expect(adapter.requests).toHaveLength(2);
      expect(adapter.requests.map((request) => request.turn)).toEqual([0, 1]);
      expect(adapter.requests[1]?.messages[2]).toMatchObject({
        role: 'assistant',
        content: 'Shouting now.',
        toolCalls: [{ callId: 'call_1_1', name: 'shout', arguments: '{"text":"hi"}' }],
      });
      expect(toolMessages(adapter.requests[1])).toEqual([['call_1_1', 'HI']]);
      expect(adapter.remaining).toBe(0);
    });

    it('should send string arguments verbatim, no arguments as {}, and number calls per request', async () => {
      const { evaluate } = createTestRuntime({
        script: [
          {
            toolCalls: [
              { name: 'shout', arguments: '{"text": "a"' },
              { name: 'shout' },
              { name: 'shout', arguments: { text: 'b' }, callId: 'mine' },
            ],
          },
          { toolCalls: [{ name: 'shout', arguments: { text: 'c' } }] },
          { text: 'Done.' },
        ],
      });

      const response = await evaluate(prompt);

      expect(response.toolCalls.map(({ call }) => [call.callId, call.arguments])).toEqual([
        ['call_1_1', '{"text": "a"'],
        ['call_1_2', '{}'],
        ['mine', '{"text":"b"}'],
        ['call_2_1', '{"text":"c"}'],
      ]);
    });

    it("should report each turn's own usage, not a running total", async () => {
      const adapter = new ScriptedAdapter([
        { text: 'One.', usage: { inputTokens: 100, outputTokens: 10 } },
        { text: 'Two.', usage: { inputTokens: 120, outputTokens: 7 } },
      ]);
      const request = (turn: number) =>
        ({
          prompt: { name: 'scripted', ns: 'test', key: 'scripted', label: 'test/scripted' },
          messages: [],
          turn,
        }) as unknown as ProviderRequest;

      const first = await adapter.request(request(0));
      const second = await adapter.request(request(1));

      expect([first.usage?.inputTokens, first.usage?.outputTokens]).toEqual([100, 10]);
      expect([second.usage?.inputTokens, second.usage?.outputTokens]).toEqual([120, 7]);
      adapter.assertDone();
    });

    it("should have the runtime add up each turn's usage over the evaluation", async () => {
      const { evaluate } = createTestRuntime({
        script: [
          {
            toolCalls: [{ name: 'shout', arguments: { text: 'a' } }],
            usage: { inputTokens: 100, outputTokens: 10 },
          },
          { text: 'Done.', usage: { inputTokens: 120, outputTokens: 7 } },
        ],
      });

      const response = await evaluate(prompt);

      expect(response.usage?.inputTokens).toBe(220);
      expect(response.usage?.outputTokens).toBe(17);
    });

    it('should fail the request, naming the request and the last message, when the script runs out', async () => {
      const { adapter, evaluate } = createTestRuntime({
        script: [{ toolCalls: [{ name: 'shout', arguments: { text: 'again' } }] }],
      });

      const error = await catchRejection(PromptEvaluationError, () => evaluate(prompt));

      expect(error.phase).toBe('request');
      expect(error.cause).toBeInstanceOf(ScriptMismatchError);
      const cause = error.cause as ScriptMismatchError;
      expect(cause.name).toBe('ScriptMismatchError');
      expect(cause.message).toBe(
        "ScriptedAdapter: Request #2 (turn 1 of prompt 'test/scripted') has no scripted answer: " +
          'the script ran out. Add a turn, or check why the model loop continued ' +
          `(last message: tool result of 'shout': "AGAIN").`,
      );
      expect(error.message).toBe(
        `Prompt 'test/scripted' (request): The provider request failed: ${cause.message}`,
      );
      expect(adapter.requests).toHaveLength(2);
    });

    it('should reject the outermost evaluation when scripted turns are left over', async () => {
      const { evaluate } = createTestRuntime({
        script: [{ text: 'Done.' }, { text: 'Never requested.' }, { text: 'Nor this.' }],
      });

      const error = await evaluate(prompt).then(
        () => undefined,
        (rejected: unknown) => rejected,
      );

      expect(error).toBeInstanceOf(ScriptMismatchError);
      expect((error as Error).message).toBe(
        'ScriptedAdapter: 2 scripted turn(s) were never requested (after 1 request(s)). ' +
          'The model loop ended earlier than the script expects: check that earlier turns call tools, or drop the extra turns.',
      );
    });

    it('should leave the leftover check to the outermost evaluation when evaluations nest', async () => {
      const child = new Prompt({
        ns: 'test',
        key: 'child',
        sections: [new MarkdownSection({ key: 'child', title: 'Child', template: 'Answer.' })],
      });
      const delegate = new ToolDefinition({
        name: 'delegate',
        description: 'Ask a sub-agent.',
        handler: async (_params: undefined, context: ToolContext) => {
          const answer = await context.evaluate(child, { session: context.session });
          return new ToolResult({ message: answer.text ?? '' });
        },
      });
      const parent = new Prompt({
        ns: 'test',
        key: 'parent',
        sections: [
          new MarkdownSection({
            key: 'lead',
            title: 'Lead',
            template: 'Delegate.',
            tools: [delegate],
          }),
        ],
      });
      const { adapter, evaluate } = createTestRuntime({
        script: [
          { toolCalls: [{ name: 'delegate', callId: 'd1' }] },
          { text: 'child answer' },
          { text: 'parent answer' },
        ],
      });

      const response = await evaluate(parent, { session: new Session() });

      expect(response.text).toBe('parent answer');
      expect(toolMessages(adapter.requests[2])).toEqual([['d1', 'child answer']]);
    });

    it('should surface a failing expect hook as the cause of the evaluation error', async () => {
      const seen: string[][] = [];
      const { evaluate } = createTestRuntime({
        script: [
          { toolCalls: [{ name: 'shout', arguments: { text: 'hi' }, callId: 's1' }] },
          {
            expect: (request) => {
              seen.push(toolMessages(request).map(([, content]) => content));
              throw new Error('expected the model to have been told HELLO');
            },
            text: 'Done.',
          },
        ],
      });

      const error = await catchRejection(PromptEvaluationError, () => evaluate(prompt));

      expect(seen).toEqual([['HI']]);
      expect(error.phase).toBe('request');
      expect((error.cause as Error).message).toBe('expected the model to have been told HELLO');
      expect(error.message).toContain('expected the model to have been told HELLO');
    });

    it('should let an expect hook check the request it answers', async () => {
      const { evaluate } = createTestRuntime({
        script: [
          {
            expect: (request) => {
              expect(request.messages.at(-1)).toEqual({ role: 'user', content: 'Be loud.' });
              expect(request.tools.map((tool) => tool.name)).toEqual(['shout']);
            },
            text: 'OK.',
          },
        ],
      });

      await expect(evaluate(prompt, { input: 'Be loud.' })).resolves.toMatchObject({
        text: 'OK.',
      });
    });
  });

  describe('.push and .assertDone', () => {
    it('should extend the script and report turns that were never requested', async () => {
      const { adapter, evaluate } = createTestRuntime();
      expect(() => {
        adapter.assertDone();
      }).not.toThrow();

      adapter.push({ text: 'First.' }, { text: 'Second.' });
      expect(adapter.remaining).toBe(2);
      expect(() => {
        adapter.assertDone();
      }).toThrow(ScriptMismatchError);

      await expect(evaluate(prompt)).rejects.toThrow(/1 scripted turn\(s\) were never requested/);
      expect(adapter.remaining).toBe(1);
      await expect(evaluate(prompt)).resolves.toMatchObject({ text: 'Second.' });
    });
  });
});
