import { systemClock } from '../../src/core/clock.js';
import { responsesInput } from '../../src/openai/request/responses-input.js';
import { ShellTool } from '../../src/openai/tools/shell-tool.js';
import type { ConversationMessage } from '../../src/provider/conversation.js';
import type { ProviderRequest } from '../../src/provider/provider-request.js';
import { type ToolSpec, toolSpecOf } from '../../src/provider/tool-spec.js';
import { ToolResult } from '../../src/tools/tool-result.js';
import { functionCall, reasoning } from '../support/openai-payloads.js';

type Item = Record<string, unknown>;

/** The input items as plain JSON records. */
const items = (input: readonly unknown[]): Item[] => input as Item[];

const nameOf = (call: Item): string => (typeof call['name'] === 'string' ? call['name'] : 'shell');

function requestOf(
  messages: readonly ConversationMessage[],
  tools: readonly ToolSpec[] = [],
): ProviderRequest {
  return {
    prompt: { name: 'test/input', ns: 'test', key: 'input', label: 'test/input' },
    messages,
    tools,
    toolChoice: 'auto',
    output: undefined,
    turn: 0,
    evaluationId: 'evaluation',
    signal: new AbortController().signal,
    deadline: undefined,
    clock: systemClock,
  };
}

/** The same conversation with a first message of its own, so nothing translated before applies. */
function fresh(messages: readonly ConversationMessage[]): ConversationMessage[] {
  const [first, ...rest] = messages;
  return first === undefined ? [] : [{ ...first }, ...rest];
}

/** One turn of the model: an assistant message with its calls, then one tool message per call. */
function turn(...calls: Item[]): ConversationMessage[] {
  return [
    {
      role: 'assistant',
      content: null,
      toolCalls: calls.map((call) => ({
        callId: String(call['call_id']),
        name: nameOf(call),
        arguments: call['arguments'],
      })),
      providerItems: [reasoning(), ...calls],
    },
    ...calls.map((call): ConversationMessage => ({
      role: 'tool',
      callId: String(call['call_id']),
      name: nameOf(call),
      content: `done ${String(call['call_id'])}`,
      result: ToolResult.ok(null, `done ${String(call['call_id'])}`),
    })),
  ];
}

describe(responsesInput, () => {
  const system: ConversationMessage = { role: 'system', content: 'You help.' };
  const user: ConversationMessage = { role: 'user', content: 'Go.' };

  it('should give each request of a growing conversation the input a fresh translation gives', () => {
    const conversation: ConversationMessage[] = [system, user];
    for (let index = 0; index < 4; index++) {
      conversation.push(...turn(functionCall('add', { a: index }), functionCall('label', {})));
      const request = requestOf([...conversation]);

      const input = responsesInput(request, 'instructions');

      expect(input).toEqual(responsesInput(requestOf(fresh(conversation)), 'instructions'));
      expect(input.instructions).toBe('You help.');
      expect(input.input).toHaveLength(1 + (index + 1) * 5);
    }
  });

  it('should translate afresh a conversation that shares only its first messages with the one before', () => {
    const start = [system, user, ...turn(functionCall('add', { a: 1 }))];
    const left = [...start, ...turn(functionCall('left', {}))];
    const right = [...start, ...turn(functionCall('right', {}))];

    responsesInput(requestOf(left), 'instructions');
    const input = responsesInput(requestOf(right), 'instructions');

    expect(input).toEqual(responsesInput(requestOf(fresh(right)), 'instructions'));
    expect(items(input.input).map((item) => item['name'])).toContain('right');
    expect(items(input.input).map((item) => item['name'])).not.toContain('left');
  });

  it('should answer the calls again when the tools offered change', () => {
    const shellCall = {
      type: 'shell_call',
      call_id: 'call_shell',
      action: { commands: ['ls'] },
      status: 'completed',
    };
    const conversation = [system, user, ...turn(shellCall)];
    const shell = toolSpecOf(new ShellTool({ handler: () => ToolResult.ok([]) }), false);

    const before = responsesInput(requestOf(conversation), 'instructions');
    const after = responsesInput(requestOf(conversation, [shell]), 'instructions');

    expect(items(before.input).at(-1)?.['type']).toBe('function_call_output');
    expect(items(after.input).at(-1)?.['type']).toBe('shell_call_output');
  });

  it('should leave the input it returned alone when the conversation grows', () => {
    const conversation: ConversationMessage[] = [system, user];
    const first = responsesInput(requestOf([...conversation]), 'instructions');
    const copy = [...first.input];

    conversation.push(...turn(functionCall('add', { a: 2 })));
    responsesInput(requestOf([...conversation]), 'instructions');

    expect(first.input).toEqual(copy);
  });

  it('should follow the instructions role of each request', () => {
    const conversation = [system, user];

    responsesInput(requestOf(conversation), 'instructions');
    const input = responsesInput(requestOf(conversation), 'developer');

    expect(input.instructions).toBeUndefined();
    expect(input.input[0]).toEqual({ type: 'message', role: 'developer', content: 'You help.' });
  });
});
