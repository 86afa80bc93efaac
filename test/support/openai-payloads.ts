/**
 * Builders of OpenAI response bodies in the shapes the real API sends
 * (as in the recorded payloads under `test/fixtures/openai/recordings/`), for the local test server.
 */
type Item = Record<string, unknown>;

let sequence = 0;
const next = (): string => (++sequence).toString(16).padStart(8, '0');

/** A Responses `usage` object. */
export function usage(
  inputTokens: number,
  outputTokens: number,
  cachedTokens = 0,
  reasoningTokens = 0,
): Item {
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: cachedTokens },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: inputTokens + outputTokens,
  };
}

/** A complete Responses `response` with `output`; `extra` overrides any field. */
export function responseBody(output: readonly Item[], extra: Item = {}): Item {
  return {
    id: `resp_${next()}`,
    object: 'response',
    created_at: 1_767_225_600,
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: null,
    model: 'gpt-test',
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    temperature: 1,
    top_p: 1,
    metadata: {},
    usage: usage(100, 20),
    ...extra,
  };
}

/** A `function_call` output item; object arguments are JSON-encoded. */
export function functionCall(name: string, args: unknown, callId = `call_${next()}`): Item {
  return {
    id: `fc_${next()}`,
    type: 'function_call',
    status: 'completed',
    call_id: callId,
    name,
    arguments: typeof args === 'string' ? args : JSON.stringify(args),
  };
}

/** An assistant `message` output item with one `output_text` part. */
export function message(text: string): Item {
  return {
    id: `msg_${next()}`,
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
  };
}

/** A `reasoning` output item with encrypted content. */
export function reasoning(summary = 'Thinking.'): Item {
  return {
    id: `rs_${next()}`,
    type: 'reasoning',
    summary: [{ type: 'summary_text', text: summary }],
    encrypted_content: `gAAAA${next()}`,
  };
}

/** A Chat Completions response with one choice. */
export function chatCompletion(choice: {
  content?: string | null;
  toolCalls?: readonly { name: string; args: unknown; id?: string }[];
  finishReason?: string;
  refusal?: string | null;
  promptTokens?: number;
  completionTokens?: number;
  /** Sent as `completion_tokens_details.reasoning_tokens` when given. */
  reasoningTokens?: number;
}): Item {
  const calls = choice.toolCalls ?? [];
  const promptTokens = choice.promptTokens ?? 50;
  const completionTokens = choice.completionTokens ?? 10;
  return {
    id: `chatcmpl-${next()}`,
    object: 'chat.completion',
    created: 1_767_225_600,
    model: 'gpt-test',
    choices: [
      {
        index: 0,
        finish_reason: choice.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop'),
        logprobs: null,
        message: {
          role: 'assistant',
          content: choice.content ?? null,
          refusal: choice.refusal ?? null,
          annotations: [],
          ...(calls.length === 0
            ? {}
            : {
                tool_calls: calls.map((call) => ({
                  id: call.id ?? `call_${next()}`,
                  type: 'function',
                  function: {
                    name: call.name,
                    arguments:
                      typeof call.args === 'string' ? call.args : JSON.stringify(call.args),
                  },
                })),
              }),
        },
      },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: 0 },
      ...(choice.reasoningTokens === undefined
        ? {}
        : { completion_tokens_details: { reasoning_tokens: choice.reasoningTokens } }),
    },
  };
}
