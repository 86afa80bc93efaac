import type { MediaPart, MediaRef } from '../../content/content-part.js';
import { Media } from '../../content/media.js';
import {
  ToolValidationError,
  type ToolValidationIssue,
} from '../../core/errors/tool-validation-error.js';
import { readMediaReferenceFields } from '../../metadata/media-reference-metadata.js';
import type { ToolDefinition } from '../../tools/tool-definition.js';
import { PromptRendered } from '../events/prompt-rendered.js';
import { ToolInvoked } from '../events/tool-invoked.js';
import type { EvaluationScope } from '../scope/evaluation-scope.js';
import { resolvedParts } from './resolved-media.js';
import { runtimeMedia } from './runtime-media.js';

/** The fewest hex digits of a hash a short reference must give (`sha256:` and 12 digits). */
const SHORT_HEX_DIGITS = 12;

/**
 * Resolves the `@MediaReference` fields of `params` against the media of
 * the evaluation (its input and its tools' results, as its events recorded
 * them), loading each part's bytes from the runtime's `BlobStore`, so
 * `context.media(reference)` answers. `undefined` (at once) when the params
 * class marks no field. @throws ToolValidationError naming the known
 * references when one names no part. @internal
 */
export function resolveMediaReferences(
  scope: EvaluationScope,
  tool: ToolDefinition,
  params: unknown,
): Promise<void> | undefined {
  const paramsType = tool.paramsType;
  if (paramsType === undefined || typeof params !== 'object' || params === null) return undefined;
  const fields = referenceFields(paramsType);
  if (fields.length === 0) return undefined;
  return resolveFields(scope, fields, params as Record<string, unknown>, paramsType);
}

/** Each params class's `@MediaReference` fields, read once (the per-call path reads a cached array). */
const fieldsByClass = new WeakMap<object, readonly string[]>();

function referenceFields(paramsType: object): readonly string[] {
  let fields = fieldsByClass.get(paramsType);
  if (fields === undefined)
    fieldsByClass.set(paramsType, (fields = readMediaReferenceFields(paramsType)));
  return fields;
}

async function resolveFields(
  scope: EvaluationScope,
  fields: readonly string[],
  params: Record<string, unknown>,
  paramsType: abstract new (...args: never[]) => unknown,
): Promise<void> {
  const known = knownMedia(scope);
  const issues: ToolValidationIssue[] = [];
  const found: [string, MediaRef][] = [];
  for (const field of fields) {
    const reference = params[field];
    if (reference === undefined || reference === null) continue;
    const ref = typeof reference === 'string' ? findRef(known, reference) : undefined;
    if (ref === undefined || typeof reference !== 'string') {
      issues.push({ path: field, message: unknownReference(reference, known) });
    } else found.push([reference, ref]);
  }
  if (issues.length > 0) throw new ToolValidationError(issues, { paramsType });
  const parts = resolvedParts(scope);
  for (const [reference, ref] of found) {
    const part = parts.get(ref.hash) ?? (await loadPart(scope, ref));
    parts.set(reference, part).set(ref.hash, part);
  }
}

/** The media of the evaluation: its input's parts, then each tool result's, first occurrence kept. */
function knownMedia(scope: EvaluationScope): readonly MediaRef[] {
  const byHash = new Map<string, MediaRef>();
  const view = scope.session.view;
  const events = [...view.slice(PromptRendered), ...view.slice(ToolInvoked)];
  for (const event of events) {
    if (event.evaluationId !== scope.evaluationId) continue;
    for (const ref of event.media) if (!byHash.has(ref.hash)) byHash.set(ref.hash, ref);
  }
  return [...byHash.values()];
}

/** The one known part `reference` names: its hash, a hash prefix of 12+ hex digits, or its file name. */
function findRef(known: readonly MediaRef[], reference: string): MediaRef | undefined {
  const text = reference.trim();
  const exact = known.find((ref) => ref.hash === text);
  if (exact !== undefined) return exact;
  const prefix = /^(?:sha256:)?([0-9a-f]+)$/i.exec(text)?.[1]?.toLowerCase();
  const matches =
    prefix !== undefined && prefix.length >= SHORT_HEX_DIGITS
      ? known.filter((ref) => ref.hash.startsWith(`sha256:${prefix}`))
      : known.filter((ref) => ref.filename !== undefined && ref.filename === text);
  return matches.length === 1 ? matches[0] : undefined;
}

/** The short reference the model may give for `ref`: `sha256:` and the hash's first 12 hex digits. */
function shortReference(ref: MediaRef): string {
  return ref.hash.startsWith('sha256:')
    ? ref.hash.slice(0, 'sha256:'.length + SHORT_HEX_DIGITS)
    : ref.hash;
}

function unknownReference(reference: unknown, known: readonly MediaRef[]): string {
  const given = typeof reference === 'string' ? `'${reference}'` : `a ${typeof reference}`;
  if (known.length === 0) {
    return `${given} names no media part: this evaluation has no images, files or audio. Call the tool without it.`;
  }
  const list = known.map(
    (ref) =>
      `${shortReference(ref)} (${ref.type} ${ref.mediaType}${ref.filename === undefined ? '' : `, ${ref.filename}`})`,
  );
  return `${given} names no media part of this evaluation. Known references: ${list.join(', ')}. Pass one of them (the hash or the file name).`;
}

/** The part `ref` records, rebuilt with its bytes from the `BlobStore` (a URL part from its URL). */
async function loadPart(scope: EvaluationScope, ref: MediaRef): Promise<MediaPart> {
  const options = { mediaType: ref.mediaType, filename: ref.filename, maxPixels: Infinity };
  if (ref.url !== undefined) return Media[ref.type]({ url: ref.url }, options);
  const bytes = await runtimeMedia(scope.root).store.get(ref.hash);
  if (bytes === undefined) {
    throw new ToolValidationError(
      `the bytes of the ${ref.type} ${shortReference(ref)} (${ref.mediaType}) are not in the BlobStore, so the tool cannot read it.`,
    );
  }
  return Media[ref.type](bytes, options);
}
