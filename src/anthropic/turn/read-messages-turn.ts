import { PromptEvaluationError, type ToolDefinition } from '../../index.js';
import type { ProviderRequest, ProviderToolCall, ProviderTurn } from '../../provider/index.js';
import { decodeJson, normalizeOutput, type OutputSchema } from '../request/output-schema.js';
import { anthropicUsage } from './anthropic-usage.js';
import { isBlock, type Block } from './content-block.js';
import { readServerToolCalls } from './read-server-tool-calls.js';

/** What {@link readMessagesTurn} needs to know about the request. */
export interface MessagesTurnContext {
  /** `ns/key` of the prompt, for error messages. */
  readonly prompt: string;
  /** The tools offered. */
  readonly tools: readonly ToolDefinition[];
  /** The structured output asked for, if any. */
  readonly output: ProviderRequest['output'];
  /** The output schema sent, if any. */
  readonly outputSchema: OutputSchema | undefined;
  /** The forced output tool's name, in `tool` mode. */
  readonly outputTool: string | undefined;
  /** The `max_tokens` sent, for messages. */
  readonly maxTokens: number;
}

/**
 * Reads a Messages API `message` into a provider-neutral turn: `tool_use`
 * blocks become tool calls in order (their `input` as decoded arguments),
 * server tool blocks become native calls, text blocks the answer (joined),
 * `usage` the turn's usage, and every content block is kept in
 * `providerItems` so the next request sends the turn back unchanged
 * (thinking signatures included). A call of the forced output tool is the
 * structured answer (`parsed`), not a call.
 *
 * @throws PromptEvaluationError (phase `response`) for a body that is not a
 * message, a refusal, a context window exceeded, a turn cut off by
 * `max_tokens` (a `tool_use` there is never run), a `pause_turn` left over,
 * or an answer with neither text nor calls.
 */
export function readMessagesTurn(message: unknown, context: MessagesTurnContext): ProviderTurn {
  const fail = (text: string): PromptEvaluationError =>
    new PromptEvaluationError(text, {
      phase: 'response',
      prompt: context.prompt,
      providerPayload: message,
    });
  if (!isBlock(message) || !Array.isArray(message['content'])) {
    throw fail(
      'The Anthropic response has no `content` list. Fix: point the client baseURL at the ' +
        'Anthropic API root (https://api.anthropic.com), or a server that speaks the Messages API.',
    );
  }
  const blocks = (message['content'] as unknown[]).filter(isBlock);
  checkStopReason(message, blocks, context, fail);
  const calls: ProviderToolCall[] = [];
  const texts: string[] = [];
  let outputCall: Block | undefined;
  for (const block of blocks) {
    if (block['type'] === 'text' && typeof block['text'] === 'string') texts.push(block['text']);
    if (block['type'] !== 'tool_use') continue;
    if (context.outputTool !== undefined && block['name'] === context.outputTool) {
      outputCall = block;
      continue;
    }
    calls.push({
      callId: String(block['id']),
      name: String(block['name']),
      arguments: block['input'] ?? {},
    });
  }
  const nativeCalls = readServerToolCalls(blocks, context.tools);
  const { text, parsed } = answerOf(texts.join(''), calls, outputCall, context);
  if (calls.length === 0 && nativeCalls.length === 0 && text.trim() === '') {
    const kinds = blocks.map((block) => String(block['type']));
    throw fail(
      `The model returned no answer and no tool call (content: ${kinds.length === 0 ? 'empty' : kinds.join(', ')}, ` +
        `stop_reason ${String(message['stop_reason'])}). Fix: run the evaluation again; with extended ` +
        'thinking, raise AnthropicAdapterOptions.maxTokens so the answer fits after the thinking.',
    );
  }
  return {
    text: texts.length === 0 && outputCall === undefined ? null : text,
    toolCalls: calls,
    nativeCalls,
    parsed,
    usage: anthropicUsage(message['usage']),
    finishReason: calls.length > 0 ? 'tool_calls' : 'stop',
    providerItems: blocks,
    raw: message,
    model:
      typeof message['model'] === 'string' && message['model'] !== ''
        ? message['model']
        : undefined,
  };
}

/** The answer text and the decoded structured answer, from the text or the output tool. */
function answerOf(
  text: string,
  calls: readonly ProviderToolCall[],
  outputCall: Block | undefined,
  context: MessagesTurnContext,
): { text: string; parsed: unknown } {
  const { output, outputSchema } = context;
  if (output === undefined || outputSchema === undefined || calls.length > 0) {
    return { text, parsed: undefined };
  }
  if (outputCall !== undefined) {
    const input = outputCall['input'] ?? {};
    return {
      text: JSON.stringify(input),
      parsed: normalizeOutput(output, input, outputSchema.strict),
    };
  }
  if (context.outputTool !== undefined || !outputSchema.strict) return { text, parsed: undefined };
  const value = decodeJson(text);
  return { text, parsed: value === undefined ? undefined : normalizeOutput(output, value, true) };
}

function checkStopReason(
  message: Block,
  blocks: readonly Block[],
  context: MessagesTurnContext,
  fail: (text: string) => PromptEvaluationError,
): void {
  const reason = message['stop_reason'];
  if (reason === 'refusal') {
    const details = isBlock(message['stop_details']) ? message['stop_details'] : {};
    const category = typeof details['category'] === 'string' ? ` (${details['category']})` : '';
    const explanation =
      typeof details['explanation'] === 'string' ? `: "${details['explanation']}"` : '';
    throw fail(
      `The model refused to answer${category}${explanation}. Nothing of the turn was used. ` +
        'Fix: rephrase the request or the prompt.',
    );
  }
  if (reason === 'model_context_window_exceeded') {
    throw fail(
      "The conversation no longer fits the model's context window (stop_reason " +
        'model_context_window_exceeded). Fix: shorten the prompt, the input or the tool results, ' +
        'lower AnthropicAdapterOptions.maxTokens, or use a model with a larger window.',
    );
  }
  if (reason === 'pause_turn') {
    throw fail(
      'The provider paused a long server-tool turn more often than the adapter continues it. ' +
        "Fix: raise AnthropicAdapterOptions.maxPauseContinuations, or lower the server tools' max_uses.",
    );
  }
  if (reason !== 'max_tokens') return;
  const cut = blocks
    .filter((block) => block['type'] === 'tool_use')
    .map((block) => `'${String(block['name'])}'`);
  throw fail(
    (cut.length > 0
      ? `The response reached max_tokens (${context.maxTokens}) while the model was writing a call of ` +
        `${cut.join(', ')}; its arguments may be incomplete, so nothing was run. `
      : `The response reached max_tokens (${context.maxTokens}) before the answer was complete. `) +
      'Fix: raise AnthropicAdapterOptions.maxTokens, or ask for a shorter answer or smaller arguments.',
  );
}
