import { chatMessages } from '../../src/openai/request/chat-messages.js';
import type { ConversationMessage } from '../../src/provider/conversation.js';
import { ToolResult } from '../../src/tools/tool-result.js';

/** The same conversation with a first message of its own, so nothing translated before applies. */
function fresh(messages: readonly ConversationMessage[]): ConversationMessage[] {
  const [first, ...rest] = messages;
  return first === undefined ? [] : [{ ...first }, ...rest];
}

/** One turn of the model: an assistant message with one call, then its tool message. */
function turn(callId: string, name: string): ConversationMessage[] {
  return [
    {
      role: 'assistant',
      content: null,
      toolCalls: [{ callId, name, arguments: { id: callId } }],
      providerItems: [],
    },
    { role: 'tool', callId, name, content: `done ${callId}`, result: ToolResult.ok(null) },
  ];
}

describe(chatMessages, () => {
  const system: ConversationMessage = { role: 'system', content: 'You help.' };
  const user: ConversationMessage = { role: 'user', content: 'Go.' };

  it('should give each request of a growing conversation the messages a fresh translation gives', () => {
    const conversation: ConversationMessage[] = [system, user];
    for (let index = 0; index < 4; index++) {
      conversation.push(...turn(`call_${index}`, 'lookup'));

      const messages = chatMessages([...conversation], 'system');

      expect(messages).toEqual(chatMessages(fresh(conversation), 'system'));
      expect(messages).toHaveLength(2 + (index + 1) * 2);
    }
  });

  it('should translate afresh a conversation that shares only its first messages with the one before', () => {
    const start = [system, user, ...turn('call_1', 'lookup')];
    const right = [...start, ...turn('call_right', 'right')];

    chatMessages([...start, ...turn('call_left', 'left')], 'system');
    const messages = chatMessages(right, 'system');

    expect(messages).toEqual(chatMessages(fresh(right), 'system'));
    expect(JSON.stringify(messages)).not.toContain('left');
  });

  it('should follow the instructions role of each request and leave what it returned alone', () => {
    const conversation: ConversationMessage[] = [system, user];
    const before = chatMessages(conversation, 'system');
    const copy = [...before];

    const after = chatMessages([...conversation, ...turn('call_2', 'lookup')], 'developer');

    expect(before).toEqual(copy);
    expect(after[0]).toEqual({ role: 'developer', content: 'You help.' });
  });
});
