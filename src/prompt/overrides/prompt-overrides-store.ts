import type { Prompt } from '../prompt.js';
import type { PromptOverride } from './prompt-override.js';

/** An override entry a store left out because it no longer matches the prompt. */
export interface SkippedOverride {
  /** `section` or `tool`. */
  readonly kind: 'section' | 'tool';
  /** The section path (dotted) or tool name. */
  readonly target: string;
  /** Why it was left out, e.g. the hash no longer matches. */
  readonly reason: string;
}

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
