import { Media } from '../../content/media.js';
import type { MediaRef } from '../../content/content-part.js';
import { PromptEvent, type PromptEventInit } from './prompt-event.js';
import type { SessionEventTraits } from '../../session/session-event-traits.js';

/** Fields of a {@link PromptRendered} event. */
export interface PromptRenderedInit extends PromptEventInit {
  /** The params objects the prompt was rendered with, in order. */
  readonly renderInputs?: readonly unknown[];
  /** The rendered prompt text, exactly as sent to the provider. */
  readonly renderedPrompt: string;
  /** The media parts of the evaluation's input, by reference (their bytes are in the `BlobStore`). */
  readonly media?: readonly MediaRef[] | undefined;
}

/** Emitted once per evaluation after the prompt is rendered and before the first provider request. Frozen. */
export class PromptRendered extends PromptEvent {
  /** Logged in its own slice. */
  static readonly sessionTraits: SessionEventTraits<PromptRendered> = {
    logged: true,
    contents: (event) => [event.createdAt, event.renderInputs, event.media],
  };

  /** The params objects the prompt was rendered with. */
  readonly renderInputs: readonly unknown[];
  /** The rendered prompt text. */
  readonly renderedPrompt: string;
  /** The media parts of the evaluation's input, by reference: hash, media type, size, never the bytes. Empty for a text input. */
  readonly media: readonly MediaRef[];

  constructor(init: PromptRenderedInit) {
    super(init);
    this.renderInputs = Object.freeze([...(init.renderInputs ?? [])]);
    this.renderedPrompt = init.renderedPrompt;
    this.media = refsOf(init.media);
    if (new.target === PromptRendered) Object.freeze(this);
  }
}

const NO_REFS: readonly MediaRef[] = Object.freeze([]);

/** `refs` as frozen references (a `MediaPart` given here keeps no bytes). @internal */
export function refsOf(refs: readonly MediaRef[] | undefined): readonly MediaRef[] {
  if (refs === undefined || refs.length === 0) return NO_REFS;
  return Object.freeze(refs.map((ref) => Media.ref(ref)));
}
