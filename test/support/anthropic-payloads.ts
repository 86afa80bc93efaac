/**
 * Builders of Anthropic Messages API bodies in the shapes the real API sends
 * (as in the recordings under `test/fixtures/anthropic/`), for the local test
 * server. `messageBody` serves a neutral scripted turn (text, tool calls,
 * usage) as an Anthropic response; `messageEvents` streams the same message.
 */
type Block = Record<string, unknown>;

let sequence = 0;
const next = (): string => (++sequence).toString(36).padStart(24, '0');

/** A neutral turn, as a script would give it. */
export interface ScriptedAnthropicTurn {
  readonly text?: string;
  readonly toolCalls?: readonly {
    readonly name: string;
    readonly arguments: unknown;
    readonly callId?: string;
  }[];
  readonly usage?: {
    readonly inputTokens?: number;
    readonly outputTokens?: number;
    readonly cachedTokens?: number;
  };
  /** Defaults to `tool_use` when there are tool calls, else `end_turn`. */
  readonly stopReason?: string;
}

/** A Messages API `usage` object. */
export function usage(inputTokens = 100, outputTokens = 20, cacheRead = 0): Block {
  return {
    input_tokens: inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

/** A `text` block. */
export function text(value: string): Block {
  return { type: 'text', text: value };
}

/** A `tool_use` block; string arguments are decoded. */
export function toolUse(name: string, input: unknown, id = `toolu_01${next()}`): Block {
  return {
    type: 'tool_use',
    id,
    name,
    input: typeof input === 'string' ? (JSON.parse(input) as unknown) : input,
  };
}

/** A complete `message` with `content`; `extra` overrides any field. */
export function message(content: readonly Block[], extra: Block = {}): Block {
  return {
    model: 'claude-test',
    id: `msg_01${next()}`,
    type: 'message',
    role: 'assistant',
    content,
    stop_reason: content.some((block) => block['type'] === 'tool_use') ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: usage(),
    ...extra,
  };
}

/** A neutral scripted turn as a Messages API response body. */
export function messageBody(turn: ScriptedAnthropicTurn): Block {
  const content: Block[] = [];
  if (turn.text !== undefined && turn.text !== '') content.push(text(turn.text));
  for (const call of turn.toolCalls ?? [])
    content.push(toolUse(call.name, call.arguments, call.callId));
  const extra: Block = {};
  if (turn.usage !== undefined) {
    const input = turn.usage.inputTokens ?? 0;
    const cached = turn.usage.cachedTokens ?? 0;
    // Anthropic counts cache reads apart from input_tokens.
    extra['usage'] = usage(input - cached, turn.usage.outputTokens ?? 0, cached);
  }
  if (turn.stopReason !== undefined) extra['stop_reason'] = turn.stopReason;
  return message(content, extra);
}

/**
 * The raw stream events of a whole `message`, as the API streams it:
 * `message_start`, per block a start, deltas (text in pieces of `pieceSize`,
 * tool input as `input_json_delta` pieces) and a stop, a `ping`,
 * `message_delta` with the stop reason and usage, `message_stop`.
 */
export function messageEvents(whole: Block, pieceSize = 8): Block[] {
  const start: Block = { ...whole, content: [], stop_reason: null, stop_sequence: null };
  const events: Block[] = [{ type: 'message_start', message: start }, { type: 'ping' }];
  (whole['content'] as Block[]).forEach((block, index) => {
    const pieces = (textValue: string): string[] =>
      textValue.length === 0
        ? ['']
        : (textValue.match(new RegExp(`[\\s\\S]{1,${pieceSize}}`, 'g')) ?? []);
    if (block['type'] === 'text') {
      events.push({
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      });
      for (const piece of pieces(String(block['text'])))
        events.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'text_delta', text: piece },
        });
    } else if (block['type'] === 'tool_use' || block['type'] === 'server_tool_use') {
      events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
      const json = JSON.stringify(block['input']);
      for (const piece of pieces(json === '{}' ? '' : json))
        events.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: piece },
        });
    } else {
      events.push({ type: 'content_block_start', index, content_block: block });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push(
    {
      type: 'message_delta',
      delta: { stop_reason: whole['stop_reason'], stop_sequence: null },
      usage: whole['usage'],
    },
    { type: 'message_stop' },
  );
  return events;
}
