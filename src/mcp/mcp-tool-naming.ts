const MAX_NAME = 64;
const MAX_DESCRIPTION = 200;

/**
 * The name a model calls an MCP server's tool by: `prefix` + the server's
 * name, lower-cased, with each character outside `[a-z0-9_-]` replaced by `_`
 * and cut to 64 characters (the package's tool-name rule). The server still
 * receives its own name. @internal
 */
export function localToolName(prefix: string, name: string): string {
  const local = `${prefix}${name}`.toLowerCase().replace(/[^a-z0-9_-]/g, '_');
  return local.slice(0, MAX_NAME);
}

/** A server tool's description as a tool description may hold it, and the whole text when that had to change. */
export interface ModelDescription {
  /** 1-200 ASCII characters. */
  readonly short: string;
  /** The server's text, when `short` is not all of it (the section's body then carries it). */
  readonly full: string | undefined;
}

/**
 * Fits a server's tool description to the package's rule (1-200 ASCII
 * characters): accents dropped, other non-ASCII characters and runs of
 * white space replaced, cut with `...`. What it had to change is kept in
 * `full`, so no part of the server's text is lost to the model. @internal
 */
export function modelDescription(text: string | undefined, fallback: string): ModelDescription {
  const given = (text ?? '').trim();
  const source = given === '' ? fallback : given;
  const ascii = source
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const fitted = ascii === '' ? fallback : ascii;
  const short =
    fitted.length <= MAX_DESCRIPTION
      ? fitted
      : `${fitted.slice(0, MAX_DESCRIPTION - 3).trimEnd()}...`;
  return { short, full: short === source ? undefined : source };
}
