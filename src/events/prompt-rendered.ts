import { type PromptEventInit, stampEvent } from './event-stamp.js';

/** Fields of a {@link PromptRendered} event. */
export interface PromptRenderedInit extends PromptEventInit {
  /** The params objects the prompt was rendered with, in order. */
  readonly renderInputs?: readonly unknown[];
  /** The rendered prompt text, exactly as sent to the provider. */
  readonly renderedPrompt: string;
}

/** Emitted once per evaluation after the prompt is rendered and before the first provider request. Frozen. */
export class PromptRendered {
  /** Unique id of this event. */
  readonly eventId: string;
  /** When the prompt was rendered. */
  readonly createdAt: Date;
  /** The prompt's name. */
  readonly promptName: string;
  /** The prompt's namespace. */
  readonly promptNs: string;
  /** The prompt's key. */
  readonly promptKey: string;
  /** The adapter that ran the evaluation. */
  readonly adapter: string;
  /** Id of the session the evaluation used, if any. */
  readonly sessionId: string | undefined;
  /** Id of the evaluation. */
  readonly evaluationId: string | undefined;
  /** The params objects the prompt was rendered with. */
  readonly renderInputs: readonly unknown[];
  /** The rendered prompt text. */
  readonly renderedPrompt: string;

  constructor(init: PromptRenderedInit) {
    ({ eventId: this.eventId, createdAt: this.createdAt } = stampEvent('PromptRendered', init));
    this.promptName = init.promptName;
    this.promptNs = init.promptNs;
    this.promptKey = init.promptKey;
    this.adapter = init.adapter;
    this.sessionId = init.sessionId;
    this.evaluationId = init.evaluationId;
    this.renderInputs = Object.freeze([...(init.renderInputs ?? [])]);
    this.renderedPrompt = init.renderedPrompt;
    if (new.target === PromptRendered) Object.freeze(this);
  }
}
