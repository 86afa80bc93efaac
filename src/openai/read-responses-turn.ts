import { PromptEvaluationError } from '../core/errors/prompt-evaluation-error.js';
import { TokenUsage } from '../provider/token-usage.js';
import type {
  ProviderNativeCall,
  ProviderToolCall,
  ProviderTurn,
} from '../provider/conversation.js';
import type { ProviderRequest } from '../provider/provider-request.js';
import { NativeTool } from '../tools/native-tool.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { ApplyPatchTool } from './apply-patch-tool.js';
import { nativeCallTypes, readNativeCall } from './read-native-call.js';
import { RetryableResponseError } from './send-with-retries.js';
import { ShellTool } from './shell-tool.js';
import { decodeStrictOutput } from './structured-output-format.js';

type Item = Readonly<Record<string, unknown>>;

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
/** Output items that need a client answer this adapter cannot give. */
const unsupported: Readonly<Record<string, string>> = {
  custom_tool_call: 'custom (free-form) tools are not offered by this adapter',
  local_shell_call: "the legacy local_shell tool is not offered; use ShellTool ('shell')",
  computer_call: 'computer use is not offered by this adapter',
  mcp_approval_request:
    "MCP approval requests are not supported; set require_approval: 'never' in the mcp NativeTool config",
};

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
  const incomplete = response['status'] === 'incomplete';
  const shellOutputs = new Map(
    output
      .filter((item) => item['type'] === 'shell_call_output')
      .map((item) => [String(item['call_id']), item]),
  );
  const calls: ProviderToolCall[] = [];
  const natives: ProviderNativeCall[] = [];
  const truncated: string[] = [];
  const refusals: string[] = [];
  const texts: { text: string; final: boolean }[] = [];

  for (const item of output) {
    const type = String(item['type']);
    if (type === 'message') {
      const parts = Array.isArray(item['content']) ? item['content'].filter(isItem) : [];
      for (const part of parts) {
        if (part['type'] === 'refusal') refusals.push(String(part['refusal']));
      }
      texts.push({
        text: parts
          .filter((part) => part['type'] === 'output_text')
          .map((part) => String(part['text']))
          .join(''),
        final: item['phase'] === 'final_answer',
      });
    } else if (type === 'function_call') {
      const name = String(item['name']);
      const args = item['arguments'];
      if (incomplete && (item['status'] === 'incomplete' || !parses(args))) truncated.push(name);
      calls.push({ callId: String(item['call_id'] ?? item['id']), name, arguments: args });
    } else if (type === 'shell_call' && runsOnClient(item, context.tools)) {
      calls.push(shellCall(item, context.tools));
    } else if (type === 'apply_patch_call' && hasTool(context.tools, ApplyPatchTool)) {
      const tool = context.tools.find((t) => t instanceof ApplyPatchTool) as ApplyPatchTool;
      calls.push({
        callId: String(item['call_id']),
        name: tool.name,
        arguments: item['operation'],
      });
    } else if (
      nativeCallTypes.has(type) &&
      (type !== 'shell_call' || hasNativeShell(context.tools))
    ) {
      natives.push(readNativeCall(item, context.tools, shellOutputs.get(String(item['call_id']))));
    } else if (type in unsupported || type === 'shell_call' || type === 'apply_patch_call') {
      throw fail(
        `The model sent a ${type}, which this adapter cannot answer: ` +
          `${unsupported[type] ?? `the prompt offers no ${type.replace('_call', '')} tool`}.`,
      );
    }
  }

  if (truncated.length > 0) {
    throw fail(
      `The response was cut off (${reasonOf(response)}) while the model was writing the arguments of ` +
        `${truncated.map((name) => `'${name}'`).join(', ')}; they are incomplete and nothing was run. ` +
        `Raise modelSettings.maxOutputTokens${limitOf(context)} or ask for smaller arguments.`,
    );
  }
  if (refusals.length > 0) throw fail(`The model refused to answer: "${refusals.join(' ')}".`);
  if (incomplete && calls.length === 0) {
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
  const parsed =
    context.output !== undefined && context.strictOutput && calls.length === 0
      ? decodeStrictOutput(context.output, text)
      : undefined;
  return {
    text: texts.length === 0 ? null : text,
    toolCalls: calls,
    nativeCalls: natives,
    parsed,
    usage: TokenUsage.fromProviderUsage(response['usage']),
    providerItems: output,
    raw: response,
  };
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

/** A `shell_call` the client runs: a `ShellTool` is offered and the call names no hosted container. */
function runsOnClient(item: Item, tools: readonly ToolDefinition[]): boolean {
  const environment = isItem(item['environment']) ? String(item['environment']['type']) : '';
  return hasTool(tools, ShellTool) && !environment.startsWith('container');
}

function hasNativeShell(tools: readonly ToolDefinition[]): boolean {
  return tools.some((tool) => tool instanceof NativeTool && tool.type === 'shell');
}

function shellCall(item: Item, tools: readonly ToolDefinition[]): ProviderToolCall {
  const tool = tools.find((t) => t instanceof ShellTool) as ShellTool;
  const action = isItem(item['action']) ? item['action'] : {};
  const args: Record<string, unknown> = { commands: action['commands'] };
  if (typeof action['timeout_ms'] === 'number') args['timeoutMs'] = action['timeout_ms'];
  if (typeof action['max_output_length'] === 'number') {
    args['maxOutputLength'] = action['max_output_length'];
  }
  return { callId: String(item['call_id']), name: tool.name, arguments: args };
}

function hasTool(
  tools: readonly ToolDefinition[],
  kind: abstract new (...args: never[]) => unknown,
): boolean {
  return tools.some((tool) => tool instanceof kind);
}

function parses(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
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

function isItem(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
