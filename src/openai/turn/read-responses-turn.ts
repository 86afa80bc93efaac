import { PromptEvaluationError, type ToolDefinition } from '../../index.js';
import {
  type ProviderRequest,
  type ProviderTurn,
  RetryableResponseError,
  TokenUsage,
} from '../../provider/index.js';
import {
  isItem,
  type Item,
  type OutputDraft,
  type OutputScope,
  readOutputItem,
} from './read-output-items.js';
import { decodeStrictOutput } from '../request/structured-output-format.js';

/** What {@link readResponsesTurn} needs to know about the request. */
export interface ResponsesTurnContext {
  /** `ns/key` of the prompt, for error messages. */
  readonly prompt: string;
  /** The tools offered. */
  readonly tools: readonly ToolDefinition[];
  /** The structured output asked for, if any. */
  readonly output: ProviderRequest['output'];
  /** Whether the output schema was sent strict (its nulls are then normalised). */
  readonly strictOutput: boolean;
  /** The `max_output_tokens` sent, for messages. */
  readonly maxOutputTokens: number | undefined;
}

/** `failed` codes another attempt may fix. */
const transientCodes = new Set(['server_error', 'rate_limit_exceeded']);

/**
 * Reads a Responses API `response` into a provider-neutral turn: function,
 * shell and apply_patch calls to run, provider-executed calls to record,
 * the answer text (and decoded structured output), usage, and the output items
 * to send back next turn (reasoning included).
 *
 * @throws PromptEvaluationError (phase `response`) for a `failed`,
 * `cancelled` or background response, a content-filtered or cut-off answer,
 * arguments cut off by `max_output_tokens` (never run as if whole), a refusal,
 * a call this adapter cannot answer, or an empty output.
 * @throws RetryableResponseError for a `failed` response with a transient code.
 */
export function readResponsesTurn(response: unknown, context: ResponsesTurnContext): ProviderTurn {
  const fail = (message: string): PromptEvaluationError =>
    new PromptEvaluationError(message, {
      phase: 'response',
      prompt: context.prompt,
      providerPayload: response,
    });
  if (!isItem(response) || !Array.isArray(response['output'])) {
    throw fail(
      'The OpenAI response has no `output` list; is baseURL an OpenAI Responses endpoint?',
    );
  }
  checkStatus(response, fail);
  const output = (response['output'] as unknown[]).filter(isItem);
  const draft = readOutput(output, {
    tools: context.tools,
    incomplete: response['status'] === 'incomplete',
    shellOutputs: shellOutputsOf(output),
    fail,
  });
  const text = checkAnswer(response, output, draft, context, fail);
  const parsed =
    context.output !== undefined && context.strictOutput && draft.calls.length === 0
      ? decodeStrictOutput(context.output, text)
      : undefined;
  return {
    text: draft.texts.length === 0 ? null : text,
    toolCalls: draft.calls,
    nativeCalls: draft.natives,
    parsed,
    usage: TokenUsage.fromProviderUsage(response['usage']),
    finishReason:
      response['status'] === 'incomplete'
        ? 'length'
        : draft.calls.length > 0
          ? 'tool_calls'
          : 'stop',
    providerItems: output,
    raw: response,
    model: answeringModel(response['model']),
  };
}

/** No hosted shell output: most responses. */
const noShellOutputs: ReadonlyMap<string, Item> = new Map();

/** The hosted `shell_call_output` items of a response, by `call_id`. */
function shellOutputsOf(output: readonly Item[]): ReadonlyMap<string, Item> {
  let outputs: Map<string, Item> | undefined;
  for (const item of output) {
    if (item['type'] !== 'shell_call_output') continue;
    outputs ??= new Map();
    outputs.set(String(item['call_id']), item);
  }
  return outputs ?? noShellOutputs;
}

/** Reads every output item, in order, into one draft. */
function readOutput(output: readonly Item[], scope: OutputScope): OutputDraft {
  const draft: OutputDraft = { calls: [], natives: [], truncated: [], refusals: [], texts: [] };
  for (const item of output) readOutputItem(item, draft, scope);
  return draft;
}

/**
 * Checks the output items make a usable turn (no truncated arguments, no
 * refusal, not cut off, not empty) and returns the answer text: the final
 * answer's messages if any, else every message.
 */
function checkAnswer(
  response: Item,
  output: readonly Item[],
  { calls, natives, truncated, refusals, texts }: OutputDraft,
  context: ResponsesTurnContext,
  fail: (message: string) => PromptEvaluationError,
): string {
  if (truncated.length > 0) {
    throw fail(
      `The response was cut off (${reasonOf(response)}) while the model was writing the arguments of ` +
        `${truncated.map((name) => `'${name}'`).join(', ')}; they are incomplete and nothing was run. ` +
        `Raise modelSettings.maxOutputTokens${limitOf(context)} or ask for smaller arguments.`,
    );
  }
  if (refusals.length > 0) throw fail(`The model refused to answer: "${refusals.join(' ')}".`);
  if (response['status'] === 'incomplete' && calls.length === 0) {
    throw fail(
      `The response was cut off (${reasonOf(response)}) before the answer was complete. ` +
        `Raise modelSettings.maxOutputTokens${limitOf(context)} or ask for a shorter answer.`,
    );
  }
  const finals = texts.filter((entry) => entry.final);
  const text = (finals.length > 0 ? finals : texts).map((entry) => entry.text).join('\n\n');
  if (calls.length === 0 && natives.length === 0 && text.trim() === '') {
    const kinds = output.map((item) => String(item['type']));
    throw fail(
      `The model returned no answer and no tool call (output: ${kinds.length === 0 ? 'empty' : kinds.join(', ')}). ` +
        'With a reasoning model, raise maxOutputTokens so the answer fits after the reasoning.',
    );
  }
  return text;
}

function checkStatus(response: Item, fail: (message: string) => PromptEvaluationError): void {
  const status = response['status'];
  if (status === 'failed') {
    const error = isItem(response['error']) ? response['error'] : {};
    const code = typeof error['code'] === 'string' ? error['code'] : 'unknown';
    const final = fail(
      `OpenAI could not complete the response (failed, ${code}): ${typeof error['message'] === 'string' ? error['message'] : 'no message'}.`,
    );
    if (transientCodes.has(code))
      throw new RetryableResponseError(`failed response (${code})`, final);
    throw final;
  }
  if (status === 'cancelled') throw fail('The response was cancelled on the provider side.');
  if (status === 'queued' || status === 'in_progress') {
    throw fail(
      `The response is still ${status}: background responses are not supported. Remove \`background\` from modelSettings.extraBody.`,
    );
  }
  if (status === 'incomplete' && reasonOf(response) === 'content_filter') {
    throw fail('The content filter stopped the response; nothing of it was used.');
  }
}

function reasonOf(response: Item): string {
  const details = response['incomplete_details'];
  return isItem(details) && typeof details['reason'] === 'string'
    ? details['reason']
    : 'incomplete';
}

function limitOf(context: ResponsesTurnContext): string {
  return context.maxOutputTokens === undefined ? '' : ` (now ${context.maxOutputTokens})`;
}

/** The model the response names (the dated snapshot that answered), when it names one. */
function answeringModel(model: unknown): string | undefined {
  return typeof model === 'string' && model !== '' ? model : undefined;
}
