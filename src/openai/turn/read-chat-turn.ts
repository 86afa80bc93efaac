import { PromptEvaluationError } from '../../index.js';
import {
  type ProviderRequest,
  type ProviderToolCall,
  type ProviderTurn,
  TokenUsage,
} from '../../provider/index.js';
import { decodeStrictOutput } from '../request/structured-output-format.js';

type Item = Readonly<Record<string, unknown>>;

/** What {@link readChatTurn} needs to know about the request. */
export interface ChatTurnContext {
  /** `ns/key` of the prompt, for error messages. */
  readonly prompt: string;
  /** The structured output asked for, if any. */
  readonly output: ProviderRequest['output'];
  /** Whether the output schema was sent strict (its nulls are then normalised). */
  readonly strictOutput: boolean;
  /** The `max_completion_tokens` sent, for messages. */
  readonly maxOutputTokens: number | undefined;
}

/**
 * Reads a Chat Completions response (its first choice) into a provider-neutral
 * turn: `tool_calls` to run, the answer text (and decoded structured output) and usage.
 *
 * @throws PromptEvaluationError (phase `response`) when there is no choice,
 * the content filter stopped it, it was cut off by the token limit (tool
 * arguments are then never run), the model refused, or it is empty.
 */
export function readChatTurn(completion: unknown, context: ChatTurnContext): ProviderTurn {
  const fail = (message: string): PromptEvaluationError =>
    new PromptEvaluationError(message, {
      phase: 'response',
      prompt: context.prompt,
      providerPayload: completion,
    });
  const body: Item = isItem(completion) ? completion : {};
  const choices = body['choices'];
  const choice = Array.isArray(choices) ? (choices[0] as unknown) : undefined;
  if (!isItem(choice) || !isItem(choice['message'])) {
    throw fail(
      'The chat completion has no choice with a message; is baseURL a Chat Completions endpoint?',
    );
  }
  const message = choice['message'];
  const finish = choice['finish_reason'];
  if (finish === 'content_filter')
    throw fail('The content filter stopped the completion; nothing of it was used.');
  const refusal = message['refusal'];
  if (typeof refusal === 'string' && refusal !== '')
    throw fail(`The model refused to answer: "${refusal}".`);
  const rawCalls = Array.isArray(message['tool_calls']) ? message['tool_calls'].filter(isItem) : [];
  const calls: ProviderToolCall[] = rawCalls.map((call) => {
    const fn = call['function'];
    if (call['type'] !== 'function' || !isItem(fn)) {
      throw fail(
        `The model sent a ${String(call['type'])} tool call, which this adapter cannot answer.`,
      );
    }
    return { callId: String(call['id']), name: String(fn['name']), arguments: fn['arguments'] };
  });
  const limit = context.maxOutputTokens === undefined ? '' : ` (now ${context.maxOutputTokens})`;
  if (finish === 'length') {
    throw fail(
      calls.length > 0
        ? `The completion was cut off by the token limit while the model was writing the arguments of ` +
            `${calls.map((call) => `'${call.name}'`).join(', ')}; nothing was run. Raise modelSettings.maxOutputTokens${limit}.`
        : `The completion was cut off by the token limit before the answer was complete. Raise modelSettings.maxOutputTokens${limit}.`,
    );
  }
  const content = typeof message['content'] === 'string' ? message['content'] : null;
  if (calls.length === 0 && (content === null || content.trim() === '')) {
    throw fail(`The model returned no answer and no tool call (finish_reason: ${String(finish)}).`);
  }
  const parsed =
    context.output !== undefined && context.strictOutput && calls.length === 0 && content !== null
      ? decodeStrictOutput(context.output, content)
      : undefined;
  return {
    text: content,
    toolCalls: calls,
    parsed,
    usage: TokenUsage.fromProviderUsage(body['usage']),
    finishReason: calls.length > 0 ? 'tool_calls' : finish === 'stop' ? 'stop' : 'other',
    raw: completion,
    model: typeof body['model'] === 'string' && body['model'] !== '' ? body['model'] : undefined,
  };
}

function isItem(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
