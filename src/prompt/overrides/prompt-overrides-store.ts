import type { Prompt } from '../prompt.js';
import type { SkippedOverride } from './prompt-override.js';
import type { PromptOverride } from './prompt-override.js';

/** What {@link PromptOverridesStore.resolve} returns. */
export interface ResolvedOverrides {
  /** The applicable overrides, or `undefined` when the store has none for the prompt and tag. */
  readonly override: PromptOverride | undefined;
  /** Entries left out because they are stale or target something that no longer accepts overrides. */
  readonly skipped: readonly SkippedOverride[];
}

/**
 * Where prompt overrides live. `resolve` returns only entries whose hashes
 * match the prompt as it is now, and reports the rest in `skipped`.
 */
export interface PromptOverridesStore {
  /** The overrides of `prompt` under `tag` that still apply. */
  resolve(prompt: Prompt, tag?: string): Promise<ResolvedOverrides>;
  /** Stores overrides for `prompt`, after checking every entry against it. */
  upsert(prompt: Prompt, override: PromptOverride): Promise<void>;
  /** Removes the overrides of a prompt under `tag`; `false` when there were none. */
  delete(ns: string, key: string, tag?: string): Promise<boolean>;
  /**
   * Writes an override file pre-filled with the prompt's current bodies and
   * descriptions (keeping an existing one) and returns what is stored.
   */
  seed(prompt: Prompt, tag?: string): Promise<PromptOverride>;
}
