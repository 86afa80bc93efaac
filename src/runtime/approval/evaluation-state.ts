import type { MediaRef, TextPart } from '../../content/content-part.js';
import type { ToolChoice } from '../../provider/conversation.js';
import type { ApprovalDecision } from './approval-decision.js';
import type { PendingToolCall } from './pending-tool-call.js';

/** The `format` of every {@link EvaluationState}. */
export const EVALUATION_STATE_FORMAT = 'affordance.evaluation-state';

/** The version of the {@link EvaluationState} layout this release writes and reads. */
export const EVALUATION_STATE_VERSION = 1;

/** A tool result as a saved state holds it: its value in JSON form. */
export interface SavedToolResult {
  readonly message: string;
  readonly success: boolean;
  readonly value: unknown;
  readonly excludeValueFromContext: boolean;
  /** The media the result showed the model, by reference (absent when none); the bytes are in the `BlobStore`. */
  readonly parts?: readonly MediaRef[];
}

/** A part of a saved user message: text as it was, media by reference (the bytes stay in the `BlobStore`). */
export type SavedContentPart = TextPart | MediaRef;

/** A conversation message as a saved state holds it (provider items as the provider sent them). */
export type SavedMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string | readonly SavedContentPart[] }
  | {
      readonly role: 'assistant';
      readonly content: string | null;
      readonly toolCalls: readonly SavedToolCall[];
      readonly providerItems: readonly unknown[];
    }
  | {
      readonly role: 'tool';
      readonly callId: string;
      readonly name: string;
      readonly content: string;
      readonly result: SavedToolResult;
    };

/** A tool call as the provider sent it. */
export interface SavedToolCall {
  readonly callId: string;
  readonly name: string;
  readonly arguments: unknown;
}

/**
 * What a paused evaluation needs to continue, as plain JSON: store it anywhere
 * (`JSON.stringify`), and pass it back to `runtime.resume(prompt, state,
 * decisions, { session })` in this process or another. It holds no class
 * instances and no secrets (no API keys, no resources), only the conversation
 * the provider already saw, the calls waiting for a person, the turns and
 * usage so far, and what identifies the prompt (its tools' contract hash), the
 * provider and the session (its id and version). `integrity` is an
 * HMAC-SHA-256 of the rest with the runtime's `stateSecret`, so whoever holds
 * the state cannot change it (a plain SHA-256 digest only with
 * `unsignedStates: 'accept-forgeable'`): an altered state is refused, and so
 * is one whose remaining calls are not the pending ones the approver saw.
 * Read `pending` to show the approver what waits.
 */
export interface EvaluationState {
  /** Always `affordance.evaluation-state`. */
  readonly format: typeof EVALUATION_STATE_FORMAT;
  /** The layout version ({@link EVALUATION_STATE_VERSION}). */
  readonly version: number;
  /** Unique per pause; a store keeps states by it. */
  readonly stateId: string;
  /** When the evaluation paused (ISO 8601). */
  readonly savedAt: string;
  /** The paused evaluation's id; its events keep it after resuming. */
  readonly evaluationId: string;
  /** The prompt: `ns`, `key`, and the contract hash of its rendered tools. */
  readonly prompt: { readonly ns: string; readonly key: string; readonly contractHash: string };
  /** The name of the adapter that answered (`adapter.name`, e.g. `openai`): provider items are that provider's. */
  readonly adapter: string;
  /** The session the evaluation records in, and its version when it paused. */
  readonly session: { readonly sessionId: string; readonly version: number };
  /** The turn (0 first) whose calls wait. */
  readonly turn: number;
  /** The most provider requests the whole evaluation may make. */
  readonly maxTurns: number;
  /** Time the evaluation ran before pausing, in milliseconds (the pause does not count). */
  readonly elapsedMs: number;
  /** The tool choice of the next request. */
  readonly toolChoice: ToolChoice;
  /** Token usage so far. */
  readonly usage: {
    readonly inputTokens: number | null;
    readonly outputTokens: number | null;
    readonly cachedTokens: number | null;
    /** Absent in states saved before cache writes were counted. */
    readonly cacheWriteTokens?: number | null;
    /** Absent in states saved before reasoning tokens were counted. */
    readonly reasoningTokens?: number | null;
  } | null;
  /** The token limits the evaluation ran under, if any. */
  readonly budget: {
    readonly maxTotalTokens: number | null;
    readonly maxInputTokens: number | null;
    readonly maxOutputTokens: number | null;
  } | null;
  /** The conversation so far, ending with the paused turn's tool results. */
  readonly messages: readonly SavedMessage[];
  /** The paused turn's calls not run yet, in call order, from the first pending one. */
  readonly remaining: readonly SavedToolCall[];
  /** The calls waiting for a decision (params in JSON form). */
  readonly pending: readonly PendingToolCall[];
  /** Decisions already given for calls in `remaining` (an earlier resume). */
  readonly decided: readonly ApprovalDecision[];
  /** Signature (or, accepting forgeable states, plain digest) of everything above. */
  readonly integrity: { readonly algorithm: 'sha256' | 'hmac-sha256'; readonly digest: string };
}
