import type { MediaPart } from '../../content/content-part.js';
import { ToolValidationError } from '../../core/errors/tool-validation-error.js';

/** The parts each evaluation's calls resolved, by the reference the model gave (and by hash). */
const resolved = new WeakMap<object, Map<string, MediaPart>>();

/**
 * The map of the parts resolved for `evaluation` (its scope), made on first
 * use, so calls resolving at once share it. @internal
 */
export function resolvedParts(evaluation: object): Map<string, MediaPart> {
  let parts = resolved.get(evaluation);
  if (parts === undefined) resolved.set(evaluation, (parts = new Map<string, MediaPart>()));
  return parts;
}

/**
 * The part a `@MediaReference` field named, resolved before the call's
 * handler ran (`context.media`). @throws ToolValidationError when
 * `reference` was not resolved for the evaluation. @internal
 */
export function resolvedMedia(evaluation: object, reference: string): MediaPart {
  const part = resolved.get(evaluation)?.get(reference);
  if (part !== undefined) return part;
  throw new ToolValidationError(
    `context.media('${reference}') names no media part resolved for this evaluation. Fix: read only a field marked @MediaReference() in the tool's params class, which the runtime resolves before the handler runs.`,
  );
}
