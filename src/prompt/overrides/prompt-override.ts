/** A replacement body for one section, valid only while the section's original template is unchanged. */
export interface SectionOverride {
  /** Keys from the root to the section. */
  readonly path: readonly string[];
  /** SHA-256 of the original body template the override was written against. */
  readonly expectedHash: string;
  /** The replacement body: markdown with the same `${field}` placeholders as the original. */
  readonly body: string;
}

/** Replacement texts for one tool, valid only while the tool's contract (description, params, result) is unchanged. */
export interface ToolOverride {
  /** The tool's name. */
  readonly name: string;
  /** The contract hash the override was written against. */
  readonly expectedContractHash: string;
  /** A replacement description. */
  readonly description?: string | undefined;
  /** Replacement descriptions of params fields, by field name. */
  readonly paramDescriptions?: Readonly<Record<string, string>> | undefined;
}

/** Overrides for one prompt (`ns`/`key`) under one tag (e.g. `latest`, `experiment-b`). */
export interface PromptOverride {
  /** The prompt's namespace. */
  readonly ns: string;
  /** The prompt's key. */
  readonly key: string;
  /** The tag these overrides are stored under. */
  readonly tag: string;
  /** Section body overrides. */
  readonly sections: readonly SectionOverride[];
  /** Tool description overrides. */
  readonly tools: readonly ToolOverride[];
}

/** An override entry a store left out because it no longer matches the prompt. */
export interface SkippedOverride {
  /** `section` or `tool`. */
  readonly kind: 'section' | 'tool';
  /** The section path (dotted) or tool name. */
  readonly target: string;
  /** Why it was left out, e.g. the hash no longer matches. */
  readonly reason: string;
}
