import type { TokenUsage } from './token-usage.js';
import type { ToolResult } from '../tools/tool-result.js';
import type { MessageContent } from '../content/content-part.js';

/** One tool call as the provider sent it. */
export interface ProviderToolCall {
  /** The provider's id of the call; every call gets exactly one result under this id. */
  readonly callId: string;
  /** The tool name the model asked for. */
  readonly name: string;
  /** The arguments: JSON text as the provider sent it, or an already-decoded value. */
  readonly arguments: unknown;
}

/**
 * A call the provider executed itself (a native tool such as web search), as
 * the adapter read it from the response. The runtime records it as a
 * `ToolInvoked` flagged `native`; nothing runs locally and no tool message is sent.
 */
export interface ProviderNativeCall {
  /** The provider's id of the call (or of its output item). */
  readonly callId: string;
  /** The name of the prompt's `NativeTool` it belongs to (the provider's tool type when none matches). */
  readonly name: string;
  /** What the provider reports the tool was called with (query, code, action...). */
  readonly arguments: unknown;
  /** The outcome: the provider's payload as `value`, or a failure naming the provider's error. */
  readonly result: ToolResult;
}

/**
 * Why a turn ended: `stop` (the model answered), `tool_calls` (it asked for
 * tools), `length` (the provider cut the output off after complete tool calls),
 * `other` (anything else the provider reports).
 */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'other';

/** What the model answered in one turn, in provider-neutral form. */
export interface ProviderTurn {
  /** The assistant's text, if any. */
  readonly text?: string | null | undefined;
  /** Tool calls to run, in the order the model gave them; empty for a final answer. */
  readonly toolCalls?: readonly ProviderToolCall[] | undefined;
  /** Calls the provider already executed (native tools), in response order; recorded, never run. */
  readonly nativeCalls?: readonly ProviderNativeCall[] | undefined;
  /** A structured answer the provider already decoded (e.g. from `json_schema` output), if any. */
  readonly parsed?: unknown;
  /** Token usage of this request alone, if the provider reports it; the runtime adds the turns up. */
  readonly usage?: TokenUsage | undefined;
  /** Why the turn ended, if the adapter reports it. */
  readonly finishReason?: FinishReason | undefined;
  /** Provider-specific items to carry into the next request (e.g. reasoning items). */
  readonly providerItems?: readonly unknown[] | undefined;
  /** The raw provider response, for diagnosis. */
  readonly raw?: unknown;
  /**
   * The provider that served the turn, when it is not the adapter's own `name`
   * (a `FallbackAdapter` or `RoutingAdapter` sets it to the member that answered).
   * Events and spans name `provider ?? adapter.name`.
   */
  readonly provider?: string | undefined;
  /**
   * The model that answered, as the provider reported it (e.g. `gpt-5-mini-2025-08-07`),
   * else the model asked for. Events and spans name `model ?? adapter.model`.
   */
  readonly model?: string | undefined;
}

/** A message of the conversation an evaluation builds, in provider-neutral form. */
export type ConversationMessage =
  | { readonly role: 'system'; readonly content: string }
  /** A user message: text, or text and media parts in order (see `Media`). */
  | { readonly role: 'user'; readonly content: MessageContent }
  | {
      readonly role: 'assistant';
      readonly content: string | null;
      readonly toolCalls: readonly ProviderToolCall[];
      readonly providerItems: readonly unknown[];
    }
  | {
      readonly role: 'tool';
      readonly callId: string;
      readonly name: string;
      /** The tool message exactly as the provider receives it. */
      readonly content: string;
      readonly result: ToolResult;
    };

/** A tool choice: let the model decide, require a tool, forbid tools, or force one named function. */
export type ToolChoice = 'auto' | 'required' | 'none' | { readonly name: string };
