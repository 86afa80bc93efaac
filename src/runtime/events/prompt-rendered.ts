import { PromptEvent, type PromptEventInit } from './prompt-event.js';
import type { SessionEventTraits } from '../../session/session-event-traits.js';

/** Fields of a {@link PromptRendered} event. */
export interface PromptRenderedInit extends PromptEventInit {
  /** The params objects the prompt was rendered with, in order. */
  readonly renderInputs?: readonly unknown[];
  /** The rendered prompt text, exactly as sent to the provider. */
  readonly renderedPrompt: string;
}

/** Emitted once per evaluation after the prompt is rendered and before the first provider request. Frozen. */
export class PromptRendered extends PromptEvent {
  /** Logged in its own slice. */
  static readonly sessionTraits: SessionEventTraits<PromptRendered> = {
    logged: true,
    contents: (event) => [event.createdAt, event.renderInputs],
  };

  /** The params objects the prompt was rendered with. */
  readonly renderInputs: readonly unknown[];
  /** The rendered prompt text. */
  readonly renderedPrompt: string;

  constructor(init: PromptRenderedInit) {
    super(init);
    this.renderInputs = Object.freeze([...(init.renderInputs ?? [])]);
    this.renderedPrompt = init.renderedPrompt;
    if (new.target === PromptRendered) Object.freeze(this);
  }
}
