import type { TokenUsage } from '../events/token-usage.js';
import type { ToolResult } from '../tools/tool-result.js';

/** One tool call as the provider sent it. */
export interface ProviderToolCall {
  /** The provider's id of the call; every call gets exactly one result under this id. */
  readonly callId: string;
  /** The tool name the model asked for. */
  readonly name: string;
  /** The arguments: JSON text as the provider sent it, or an already-decoded value. */
  readonly arguments: unknown;
}

/** What the model answered in one turn, in provider-neutral form. */
export interface ProviderTurn {
  /** The assistant's text, if any. */
  readonly text?: string | null | undefined;
  /** Tool calls to run, in the order the model gave them; empty for a final answer. */
  readonly toolCalls?: readonly ProviderToolCall[] | undefined;
  /** A structured answer the provider already decoded (e.g. from `json_schema` output), if any. */
  readonly parsed?: unknown;
  /** Token usage of the evaluation so far (cumulative over its turns), if the provider reports it. */
  readonly usage?: TokenUsage | undefined;
  /** Provider-specific items to carry into the next request (e.g. reasoning items). */
  readonly providerItems?: readonly unknown[] | undefined;
  /** The raw provider response, for diagnosis. */
  readonly raw?: unknown;
}

/** A message of the conversation an evaluation builds, in provider-neutral form. */
export type ConversationMessage =
  | { readonly role: 'system' | 'user'; readonly content: string }
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
