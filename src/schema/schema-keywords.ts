import type { JsonValue } from './dump.js';
import type { MutableSchema } from './mutable-schema.js';
import type { SchemaGaps } from './schema-gaps.js';

/** The `format` values OpenAI strict mode supports. @internal */
export const strictFormats: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** Numeric and string keywords in a fixed, readable order, keeping the tightest bound. @internal */
export class SchemaKeywords {
  private static readonly order = [
    'format',
    'pattern',
    'minLength',
    'maxLength',
    'minimum',
    'exclusiveMinimum',
    'maximum',
    'exclusiveMaximum',
  ];
  private readonly values = new Map<string, JsonValue>();

  /** Sets `keyword`, replacing any earlier value. */
  set(keyword: string, value: JsonValue): void {
    this.values.set(keyword, value);
  }

  /** Sets a lower bound, keeping the higher of it and any earlier one. */
  raise(keyword: string, value: number): void {
    const current = this.values.get(keyword);
    this.values.set(keyword, typeof current === 'number' ? Math.max(current, value) : value);
  }

  /** Sets an upper bound, keeping the lower of it and any earlier one. */
  lower(keyword: string, value: number): void {
    const current = this.values.get(keyword);
    this.values.set(keyword, typeof current === 'number' ? Math.min(current, value) : value);
  }

  /** Writes the keywords set into `schema`, in the fixed order. */
  writeTo(schema: MutableSchema): void {
    for (const keyword of SchemaKeywords.order) {
      const value = this.values.get(keyword);
      if (value !== undefined) schema[keyword] = value;
    }
  }
}

/**
 * Sets `pattern` from a `@Matches` pattern and modifiers, or records a gap
 * when its flags cannot be expressed. @internal
 */
export function addPattern(
  keywords: SchemaKeywords,
  pattern: unknown,
  modifiers: unknown,
  path: string,
  gaps: SchemaGaps,
): void {
  const source =
    pattern instanceof RegExp ? pattern.source : typeof pattern === 'string' ? pattern : undefined;
  const flags =
    (pattern instanceof RegExp ? pattern.flags : '') +
    (typeof modifiers === 'string' ? modifiers : '');
  if (source === undefined || /[^gyud]/.test(flags)) {
    gaps.gap(
      path,
      'matches',
      `enforced at runtime only: the pattern uses flags (${flags}) JSON Schema cannot express`,
    );
    return;
  }
  keywords.set('pattern', source);
}

/** Sets `format`, or records a gap when strict mode does not support it. @internal */
export function addFormat(
  keywords: SchemaKeywords,
  format: string,
  path: string,
  constraint: string,
  strict: boolean,
  gaps: SchemaGaps,
): void {
  if (strict && !strictFormats.has(format)) {
    gaps.strictGap(path, constraint, `format "${format}"`);
    return;
  }
  keywords.set('format', format);
}
