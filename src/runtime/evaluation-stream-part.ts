import type { FinishReason } from '../provider/conversation.js';
import type { TokenUsage } from '../provider/token-usage.js';
import type { ToolInvoked } from './events/tool-invoked.js';
import type { EvaluationInterruption } from './approval/evaluation-interruption.js';
import type { CompletedResponse, InterruptedResponse } from './prompt-response.js';

/**
 * One part of a streamed evaluation (`runtime.stream(prompt, options)`),
 * discriminated by `type`. `turn` counts provider requests from 0. For each
 * request, in this order: `turn-start`; the deltas as the provider sends them
 * (`text-delta`, `reasoning-delta`, `tool-call-start`, `tool-arguments-delta`);
 * `usage` when the provider reports it; one `native-call` per call the
 * provider ran itself; `turn-end`; then one `tool-call-end` per tool call as
 * each is recorded. The stream ends with exactly one `answer`, one
 * `interrupted` (calls wait for approval: resume with `runtime.resume`, or
 * stream the rest with `runtime.stream(prompt, { resume, session })`) or one `error`.
 * A call whose arguments the provider does not stream (OpenAI's client-run
 * `shell` and `apply_patch` calls) has a `tool-call-end` without a
 * `tool-call-start`.
 */
export type EvaluationStreamPart<O = unknown> =
  | { readonly type: 'turn-start'; readonly turn: number }
  | { readonly type: 'text-delta'; readonly turn: number; readonly delta: string }
  | { readonly type: 'reasoning-delta'; readonly turn: number; readonly delta: string }
  | {
      readonly type: 'tool-call-start';
      readonly turn: number;
      readonly callId: string;
      readonly name: string;
    }
  | {
      readonly type: 'tool-arguments-delta';
      readonly turn: number;
      readonly callId: string;
      readonly delta: string;
    }
  | {
      readonly type: 'usage';
      readonly turn: number;
      /** This request's usage. */
      readonly usage: TokenUsage;
      /** The evaluation's usage so far. */
      readonly total: TokenUsage;
      /** The provider that served the request (`ProviderTurn.provider`, else the adapter's `name`). */
      readonly provider: string;
      /** The model that answered (`ProviderTurn.model`, else the adapter's `model`), if known. */
      readonly model: string | undefined;
    }
  | { readonly type: 'native-call'; readonly turn: number; readonly event: ToolInvoked }
  | {
      readonly type: 'turn-end';
      readonly turn: number;
      readonly finishReason: FinishReason | undefined;
      /** How many tool calls the model asked for in this turn (they run next). */
      readonly toolCalls: number;
      /** The provider that served the turn (`ProviderTurn.provider`, else the adapter's `name`). */
      readonly provider: string;
      /** The model that answered (`ProviderTurn.model`, else the adapter's `model`), if known. */
      readonly model: string | undefined;
    }
  | {
      readonly type: 'tool-call-end';
      readonly turn: number;
      /** The `ToolInvoked` the session recorded, the same record `evaluate` produces. */
      readonly event: ToolInvoked;
      /** The tool message the model reads back. */
      readonly message: string;
    }
  | { readonly type: 'answer'; readonly response: CompletedResponse<O> }
  | {
      readonly type: 'interrupted';
      /** The calls waiting for approval and the state to resume from. */
      readonly interruption: EvaluationInterruption;
      /** The whole response, as `evaluate` would have returned it. */
      readonly response: InterruptedResponse;
    }
  | {
      readonly type: 'error';
      /** What `evaluate` would have thrown (a `PromptEvaluationError` naming the phase, or a `ConfigurationError`). */
      readonly error: Error;
    };

/** The `type`s of {@link EvaluationStreamPart}. */
export type EvaluationStreamPartType = EvaluationStreamPart['type'];
