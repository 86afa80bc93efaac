import type { LanguageModelV3Message } from '@ai-sdk/provider';

import { ToolResult } from '../../index.js';
import {
  isPlainObject,
  type ProviderNativeCall,
  type ProviderToolCall,
  type ProviderTurn,
} from '../../provider/index.js';
import { toolInput } from '../request/ai-sdk-prompt.js';
import { assistantItem } from './assistant-item.js';
import { finishReasonOf, rawFinishReasonOf, tokenUsageOf, usageCounts } from './ai-sdk-usage.js';

type AssistantContent = Extract<LanguageModelV3Message, { role: 'assistant' }>['content'];
type Json = Record<string, unknown>;

/** What one answer of a model is made of, whole (`doGenerate`) or gathered from a stream. */
export interface AiSdkAnswer {
  /** The content parts, in order. */
  readonly content: readonly unknown[];
  readonly finishReason: unknown;
  readonly usage: unknown;
  readonly providerMetadata?: unknown;
  /** Response metadata: `id`, `modelId`, `timestamp`, `headers`. */
  readonly response?: unknown;
  readonly warnings?: unknown;
}

/**
 * The neutral turn of an AI SDK answer: its text, the calls to run, the calls
 * the provider ran itself (a provider-executed `tool-call` with its
 * `tool-result`), usage and finish reason; the answer's parts as a provider
 * item for the next request to the same provider; and in `raw` the response
 * metadata (`id`, `model`, `timestamp`), the provider's finish reason, every
 * usage count (reasoning and cache writes included), warnings and provider metadata.
 */
export function readAiSdkTurn(
  answer: AiSdkAnswer,
  provider: string,
  modelId: string,
): ProviderTurn {
  const read = readContent(answer.content);
  const counts = usageCounts(answer.usage);
  const response = isPlainObject(answer.response) ? answer.response : {};
  const timestamp = response['timestamp'];
  return {
    text: read.text,
    toolCalls: read.toolCalls,
    nativeCalls: nativeCalls(read.executed, read.results),
    usage: tokenUsageOf(counts),
    finishReason: finishReasonOf(answer.finishReason),
    providerItems: read.parts.length === 0 ? [] : [assistantItem(provider, read.parts)],
    raw: {
      provider,
      id: response['id'],
      model: typeof response['modelId'] === 'string' ? response['modelId'] : modelId,
      timestamp: timestamp instanceof Date ? timestamp.toISOString() : timestamp,
      finishReason: rawFinishReasonOf(answer.finishReason),
      usage: counts,
      warnings: answer.warnings,
      providerMetadata: answer.providerMetadata,
    },
  };
}

/** What an answer's content parts hold, sorted out. */
interface ReadContent {
  text: string | undefined;
  readonly toolCalls: ProviderToolCall[];
  /** Provider-executed calls and their results, by call id. */
  readonly executed: Map<string, Json>;
  readonly results: Map<string, Json>;
  /** The parts as an assistant message of the next prompt carries them. */
  readonly parts: AssistantContent;
}

function readContent(content: readonly unknown[]): ReadContent {
  const read: ReadContent = {
    text: undefined,
    toolCalls: [],
    executed: new Map(),
    results: new Map(),
    parts: [],
  };
  for (const part of content) {
    if (!isPlainObject(part)) continue;
    const options = part['providerMetadata'] as Json | undefined;
    const withOptions = options === undefined ? {} : { providerOptions: options };
    switch (part['type']) {
      case 'text':
        read.text = (read.text ?? '') + String(part['text']);
        read.parts.push({ type: 'text', text: String(part['text']), ...withOptions } as never);
        break;
      case 'reasoning':
        read.parts.push({ type: 'reasoning', text: String(part['text']), ...withOptions } as never);
        break;
      case 'tool-call': {
        const callId = String(part['toolCallId']);
        const name = String(part['toolName']);
        const providerExecuted = part['providerExecuted'] === true;
        if (providerExecuted) read.executed.set(callId, part);
        else read.toolCalls.push({ callId, name, arguments: part['input'] });
        read.parts.push({
          type: 'tool-call',
          toolCallId: callId,
          toolName: name,
          input: toolInput(part['input']),
          ...(providerExecuted ? { providerExecuted } : {}),
          ...withOptions,
        } as never);
        break;
      }
      case 'tool-result':
        read.results.set(String(part['toolCallId']), part);
        break;
    }
  }
  return read;
}

/** The provider-executed calls, each with its result (a call without one is reported as failed). */
function nativeCalls(
  executed: ReadonlyMap<string, Json>,
  results: ReadonlyMap<string, Json>,
): ProviderNativeCall[] {
  return [...executed].map(([callId, call]) => {
    const name = String(call['toolName']);
    const result = results.get(callId);
    const outcome =
      result === undefined
        ? ToolResult.error(`The provider reported no result for its '${name}' call.`)
        : result['isError'] === true
          ? ToolResult.error(
              `The provider's '${name}' call failed: ${JSON.stringify(result['result'])}`,
            )
          : ToolResult.ok(result['result']);
    return { callId, name, arguments: toolInput(call['input']), result: outcome };
  });
}
