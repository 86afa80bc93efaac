import type { MediaRef } from '../../content/content-part.js';
import type { ProviderAdapter } from '../../provider/provider-adapter.js';
import type { RequestPrompt } from '../../provider/provider-request.js';
import type { EvaluationObserver } from './evaluation-observer.js';

/**
 * What an observer learns as an evaluation starts (or resumes). The content
 * fields (`renderedPrompt`, `input`) are there for observers that were asked to
 * record content; an observer that records no content never reads them.
 */
export interface EvaluationStart {
  /** Id of the evaluation (kept across a pause). */
  readonly evaluationId: string;
  /** The prompt: its `label` (`ns/key`) names it uniquely, its `name` as its events do. */
  readonly prompt: RequestPrompt;
  /** The session the evaluation records in. */
  readonly sessionId: string;
  /** The adapter that answers: its `name` and, when it says, its `model`. */
  readonly adapter: ProviderAdapter;
  /** Whether the evaluation runs through `runtime.stream`. */
  readonly streamed: boolean;
  /** Whether it continues an evaluation that paused for approval. */
  readonly resumed: boolean;
  /** Whether the prompt asks for a structured output (JSON) rather than text. */
  readonly structuredOutput: boolean;
  /** The rendered prompt, as the model reads it (content). */
  readonly renderedPrompt: string;
  /** The user message sent after the prompt, if any (content): its text when it has media parts. */
  readonly input: string | undefined;
  /** The media parts of the input, by reference (hash, media type, size; never the bytes). */
  readonly inputMedia?: readonly MediaRef[] | undefined;
}

/**
 * Observes evaluations for tracing and metrics: give one to the runtime as
 * `installAffordance(container, { telemetry })`, e.g. `openTelemetry()` from
 * `affordance/otel`. The runtime calls {@link RuntimeTelemetry.startEvaluation}
 * once per evaluation (nested and resumed ones included) and reports the rest
 * of that evaluation to the observer it returns. Without one, the runtime pays
 * one `undefined` check per hook and builds nothing for it.
 *
 * An observer must not throw: the runtime does not guard its calls.
 */
export interface RuntimeTelemetry {
  /**
   * Called as an evaluation starts or resumes, in the caller's async context
   * (for a nested evaluation: inside the enclosing tool call's
   * {@link ToolCallObserver.run}). Returns the observer of this evaluation, or
   * `undefined` to leave it unobserved.
   */
  startEvaluation(start: EvaluationStart): EvaluationObserver | undefined;
  /**
   * Called as `runtime.callTool` runs one call outside any evaluation (an MCP
   * client's call, for one), in the caller's async context. Only the
   * observer's `startToolCall` is used; a call that waits for approval is
   * followed by one call observer (see `ToolCallObserver.decided`). Optional:
   * without it such calls are not observed.
   */
  startDirectCall?(start: DirectCallStart): EvaluationObserver | undefined;
}

/** What telemetry learns when `runtime.callTool` starts a call (see {@link RuntimeTelemetry.startDirectCall}). */
export interface DirectCallStart {
  /** The id of the call's own evaluation scope (its `ToolInvoked` carries it). */
  readonly evaluationId: string;
  /** The prompt whose tool is called. */
  readonly prompt: RequestPrompt;
  /** The session the call records into. */
  readonly sessionId: string;
}
