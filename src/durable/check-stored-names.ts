import { ConfigurationError } from '../index.js';
import type { SessionChange } from './stored-session.js';

/**
 * The longest session id, slice name or record key a store takes, in
 * characters (UTF-16 code units, `name.length`): 256 characters are at most
 * 768 UTF-8 bytes, so a session id with a slice name or a record key fits in
 * one PostgreSQL index row (about 2,700 bytes), which a 1 MiB id did not.
 * Every store refuses longer names with a `ConfigurationError` (docs/guide/durable.md).
 */
export const MAX_STORED_NAME_LENGTH = 256;

/** A surrogate not part of a pair. */
const loneSurrogate = /\p{Cs}/u;

/** Why a server cannot keep `text` exactly, if it cannot. */
function unstorableText(text: string): string | undefined {
  return text.includes('\u0000') || loneSurrogate.test(text)
    ? 'contains U+0000 or a lone surrogate, which the server cannot store exactly'
    : undefined;
}

/** Why a server cannot keep `text` exactly as a name or key (which is indexed), if it cannot. */
function unstorable(text: string): string | undefined {
  if (text.length > MAX_STORED_NAME_LENGTH) {
    return `is ${text.length} characters long; the limit is ${MAX_STORED_NAME_LENGTH} characters`;
  }
  return unstorableText(text);
}

/**
 * Checks the names in `change` (session id, slice names, record keys,
 * `createdAt`) before a store writes them. PostgreSQL `text` refuses U+0000,
 * and a lone surrogate becomes U+FFFD when the driver encodes UTF-8, so two
 * different names could land on one row or key; a name longer than
 * {@link MAX_STORED_NAME_LENGTH} would not fit an index row. Values and tags
 * are JSON text and need no check: JSON escapes both characters.
 *
 * @throws ConfigurationError naming `store`, the session and the name.
 */
export function checkStoredNames(store: string, change: SessionChange): void {
  checkSessionId(store, change.sessionId);
  const check = (what: string, text: string): void => {
    // createdAt is a column, not a key: only its characters matter.
    const problem = what === 'createdAt' ? unstorableText(text) : unstorable(text);
    if (problem !== undefined) throw unstorableError(store, change.sessionId, what, text, problem);
  };
  check('createdAt', change.createdAt);
  for (const slices of [change.replace, change.append]) {
    for (const slice of slices) check('the slice name', slice.name);
  }
  for (const key of Object.keys(change.records)) check('the record key', key);
}

/** Checks a session id before a store uses it (see {@link checkStoredNames}). */
export function checkSessionId(store: string, sessionId: string): void {
  const problem = unstorable(sessionId);
  if (problem !== undefined) {
    throw unstorableError(store, sessionId, 'the session id', sessionId, problem);
  }
}

/** `text` in a message: quoted, and only its start when it is long. */
function quoted(text: string): string {
  return text.length > 40 ? `${JSON.stringify(text.slice(0, 40))}…` : JSON.stringify(text);
}

function unstorableError(
  store: string,
  sessionId: string,
  what: string,
  text: string,
  problem: string,
): ConfigurationError {
  return new ConfigurationError({
    subject: `${store} session ${quoted(sessionId)}`,
    problem: `${what} ${quoted(text)} ${problem}; nothing was written.`,
    fix: `Use well-formed Unicode text without U+0000, at most MAX_STORED_NAME_LENGTH (${MAX_STORED_NAME_LENGTH}) characters, for session ids, slice names and record keys (encode or hash names that come from outside, e.g. with encodeURIComponent or a SHA-256). Values may hold any JSON.`,
  });
}
