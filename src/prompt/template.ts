import { PromptValidationError } from '../core/errors/prompt-validation-error.js';

/** One piece of a parsed template: literal text or a `${name}` placeholder. @internal */
export type TemplatePart = { readonly text: string } | { readonly placeholder: string };

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A section body template. `${name}` is a placeholder for the params field
 * `name`; `$${` writes a literal `${`. Any other `$` is plain text, so prices
 * and shell snippets need no escaping. The text is dedented and trimmed.
 */
export class Template {
  /** The template as written (after dedent and trim). */
  readonly source: string;
  /** The parsed pieces. @internal */
  readonly parts: readonly TemplatePart[];
  /** Placeholder names in order of first use. */
  readonly placeholders: readonly string[];

  constructor(source: string) {
    this.source = dedent(source).trim();
    this.parts = parse(this.source);
    const names: string[] = [];
    for (const part of this.parts) {
      if ('placeholder' in part && !names.includes(part.placeholder)) names.push(part.placeholder);
    }
    this.placeholders = Object.freeze(names);
  }

  /**
   * Fills the placeholders with `lookup(name)`; the result is trimmed.
   * `lookup` throws for a missing value.
   */
  fill(lookup: (name: string) => string): string {
    let out = '';
    for (const part of this.parts) out += 'text' in part ? part.text : lookup(part.placeholder);
    return out.trim();
  }
}

function parse(source: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let text = '';
  let i = 0;
  while (i < source.length) {
    if (source.startsWith('$${', i)) {
      text += '${';
      i += 3;
      continue;
    }
    if (source.startsWith('${', i)) {
      const end = source.indexOf('}', i + 2);
      const name = end === -1 ? '' : source.slice(i + 2, end);
      if (end === -1 || !IDENTIFIER.test(name)) {
        const shown = source.slice(i, end === -1 ? Math.min(source.length, i + 20) : end + 1);
        throw new PromptValidationError(
          `Template placeholder '${shown}' is malformed: write \${fieldName} with a field name of letters, digits ` +
            'and underscores, or $${ for a literal "${".',
          { placeholder: shown },
        );
      }
      if (text !== '') parts.push({ text });
      text = '';
      parts.push({ placeholder: name });
      i = end + 1;
      continue;
    }
    text += source.charAt(i);
    i += 1;
  }
  if (text !== '') parts.push({ text });
  return parts;
}

/** Removes the common leading whitespace of all non-blank lines. @internal */
export function dedent(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let common: number | undefined;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const indent = /^[ \t]*/.exec(line)?.[0].length ?? 0;
    common = common === undefined ? indent : Math.min(common, indent);
  }
  if (common === undefined || common === 0) return lines.join('\n');
  const cut = common;
  return lines.map((line) => (line.trim() === '' ? '' : line.slice(cut))).join('\n');
}
