import type { RenderedPrompt } from '../prompt/rendered-prompt.js';
import type { DataClass } from '../core/class-type.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import type { ConversationMessage, ToolChoice } from './conversation.js';
import type { Deadline } from '../runtime/limits/deadline.js';

/** Everything an adapter needs to make one provider request. */
export interface ProviderRequest {
  /** The rendered prompt (its text is the first, system message). */
  readonly rendered: RenderedPrompt;
  /** The conversation so far, oldest first. */
  readonly messages: readonly ConversationMessage[];
  /** The tools to offer, in order. */
  readonly tools: readonly ToolDefinition[];
  /** The tool choice for this turn (a forced function resets to `auto` after it was used). */
  readonly toolChoice: ToolChoice;
  /** The structured output to ask for, if the prompt declares one. */
  readonly output: { readonly type: DataClass; readonly container: 'object' | 'array' } | undefined;
  /** 0 for the first request of the evaluation. */
  readonly turn: number;
  /** Id of the evaluation. */
  readonly evaluationId: string;
  /** Fires at the deadline or on cancellation; pass it to the HTTP client. */
  readonly signal: AbortSignal;
  /** The evaluation's deadline, if any (retries must not sleep past it). */
  readonly deadline: Deadline | undefined;
}
