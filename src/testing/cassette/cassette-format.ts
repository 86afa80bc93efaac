import type { MediaRef, TextPart } from '../../index.js';
import type { FinishReason, ProviderCapabilities, TokenUsageInit } from '../../provider/index.js';

/** The `format` field every cassette file carries. */
export const CASSETTE_FORMAT = 'affordance-cassette';

/** The version of the cassette file format this build reads and writes. */
export const CASSETTE_VERSION = 1;

/** The adapter a cassette was recorded from: a `ReplayAdapter` answers under the same name, model and capabilities. */
export interface CassetteAdapterInfo {
  /** The adapter's `name` (e.g. `openai`). */
  readonly name: string;
  /** The adapter's `model`, when it has one. */
  readonly model?: string;
  /** The adapter's capabilities, `seamVersion` included. */
  readonly capabilities: ProviderCapabilities;
}

/** A message of a recorded request, as it was hashed (provider items and tool result objects left out). */
export type CassetteMessage =
  | { readonly role: 'system'; readonly content: string }
  /** A user message: its text, or its parts with each media part as its reference (no bytes). */
  | { readonly role: 'user'; readonly content: string | readonly (TextPart | MediaRef)[] }
  | {
      readonly role: 'assistant';
      readonly content: string | null;
      readonly toolCalls: readonly CassetteToolCall[];
    }
  | {
      readonly role: 'tool';
      readonly callId: string;
      readonly name: string;
      readonly content: string;
    };

/** A tool call of a recorded message or turn. */
export interface CassetteToolCall {
  /** The provider's id of the call. */
  readonly callId: string;
  /** The tool the model called. */
  readonly name: string;
  /** The arguments as the provider sent them (JSON text, or a decoded value). */
  readonly arguments?: unknown;
}

/** A tool offered by a recorded request. */
export interface CassetteTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: unknown;
  readonly strict: boolean;
}

/**
 * What of a `ProviderRequest` decides the answer, and so what a cassette
 * matches on: the prompt, the conversation, the tools, the tool choice and
 * the output schema. The evaluation id, the turn number, the signal, the
 * deadline, the clock and `maxAnswerChars` are left out.
 */
export interface CassetteRequest {
  /** The prompt's label (`ns/key`). */
  readonly prompt: string;
  readonly messages: readonly CassetteMessage[];
  readonly tools: readonly CassetteTool[];
  readonly toolChoice: 'auto' | 'required' | 'none' | { readonly name: string };
  /** The structured output asked for: its container and JSON Schema; `null` for none. */
  readonly output: { readonly container: 'object' | 'array'; readonly schema: unknown } | null;
}

/** A native call of a recorded turn, its `ToolResult` as plain fields. */
export interface CassetteNativeCall {
  readonly callId: string;
  readonly name: string;
  readonly arguments?: unknown;
  readonly result: {
    readonly message: string;
    readonly value: unknown;
    readonly success: boolean;
    readonly excludeValueFromContext: boolean;
  };
}

/** A recorded `ProviderTurn` (its `raw` provider payload is not kept). */
export interface CassetteTurn {
  readonly text?: string | null;
  readonly toolCalls?: readonly CassetteToolCall[];
  readonly nativeCalls?: readonly CassetteNativeCall[];
  readonly parsed?: unknown;
  readonly usage?: TokenUsageInit;
  readonly finishReason?: FinishReason;
  readonly providerItems?: readonly unknown[];
  readonly provider?: string;
  readonly model?: string;
}

/** A recorded stream delta (the final `turn` part is the interaction's `turn`). */
export type CassetteStreamPart =
  | { readonly type: 'text-delta'; readonly delta: string }
  | { readonly type: 'reasoning-delta'; readonly delta: string }
  | { readonly type: 'tool-call-start'; readonly callId: string; readonly name: string }
  | { readonly type: 'tool-arguments-delta'; readonly callId: string; readonly delta: string };

/** One request and the turn it got. */
export interface CassetteInteraction {
  /** The stable hash of `request` a `ReplayAdapter` matches on. */
  readonly key: string;
  readonly request: CassetteRequest;
  readonly turn: CassetteTurn;
  /** The deltas, in the order they arrived, when the turn was streamed; absent for `request()`. */
  readonly parts?: readonly CassetteStreamPart[];
}

/**
 * A cassette file: JSON, two-space indented, one interaction per request in
 * the order they were made. See docs/guide/cassettes.md.
 */
export interface CassetteFile {
  readonly format: typeof CASSETTE_FORMAT;
  readonly version: typeof CASSETTE_VERSION;
  readonly adapter: CassetteAdapterInfo;
  readonly interactions: readonly CassetteInteraction[];
}
