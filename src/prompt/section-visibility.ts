import { PromptValidationError } from '../core/errors/prompt-validation-error.js';
import type { Session } from '../session/session.js';

/** How a section renders: `full` (its text, children and tools) or `summary` (its summary, nothing beneath). */
export type SectionVisibility = 'full' | 'summary';

/** Fields of a {@link SectionVisibilityOverride}. */
export interface SectionVisibilityOverrideInit {
  /** The section's path: its key and its ancestors' keys, dotted (`guide.billing`). */
  readonly sectionPath: string;
  /** How the section renders from now on. */
  readonly visibility: SectionVisibility;
}

/**
 * A section's visibility in one session, over the visibility the section
 * declares: dispatch one into a session (`session.dispatch(new
 * SectionVisibilityOverride({ sectionPath, visibility: 'full' }))`) and every
 * later render on that session follows it; the latest one for a path wins.
 * The runtime's `open_sections` tool records these when the model opens
 * summarized sections. They live in their own session slice, so they are
 * kept by `session.snapshot()`/`restore`, by saved evaluation states and by
 * durable session stores.
 */
export class SectionVisibilityOverride {
  /** The section's dotted path. */
  readonly sectionPath: string;
  /** How the section renders. */
  readonly visibility: SectionVisibility;

  constructor(init: SectionVisibilityOverrideInit) {
    this.sectionPath = init.sectionPath;
    this.visibility = checkVisibility(init.visibility, init.sectionPath.split('.'));
  }
}

/** The visibility overrides `session` holds, by dotted path (the latest per path). @internal */
export function sessionVisibility(
  session: Session | undefined,
): ReadonlyMap<string, SectionVisibility> | undefined {
  if (session === undefined) return undefined;
  const all = session.slice(SectionVisibilityOverride).all();
  if (all.length === 0) return undefined;
  const byPath = new Map<string, SectionVisibility>();
  for (const entry of all) byPath.set(entry.sectionPath, entry.visibility);
  return byPath;
}

/** `value` when it is a {@link SectionVisibility}; a `PromptValidationError` naming the section otherwise. @internal */
export function checkVisibility(value: unknown, sectionPath: readonly string[]): SectionVisibility {
  if (value === 'full' || value === 'summary') return value;
  throw new PromptValidationError(
    `Section visibility must be 'full' or 'summary' (got ${typeof value === 'string' ? `'${value}'` : typeof value}).`,
    { sectionPath, placeholder: 'visibility' },
  );
}
