import { ConfigurationError } from '../index.js';
import type { SessionChange } from './stored-session.js';

/** A surrogate not part of a pair. */
const loneSurrogate = /\p{Cs}/u;

/** Whether `text` has U+0000 or a lone surrogate: text a server cannot keep exactly in a name or key. */
function unstorable(text: string): boolean {
  return text.includes('\u0000') || loneSurrogate.test(text);
}

/**
 * Checks the names in `change` (session id, slice names, record keys,
 * `createdAt`) before a server store writes them. PostgreSQL `text` refuses
 * U+0000, and a lone surrogate becomes U+FFFD when the driver encodes UTF-8,
 * so two different names could land on one row or key. Values and tags are
 * JSON text and need no check: JSON escapes both.
 *
 * @throws ConfigurationError naming `store`, the session and the name.
 */
export function checkStoredNames(store: string, change: SessionChange): void {
  checkSessionId(store, change.sessionId);
  const refuse = (what: string, text: string): never => {
    throw unstorableError(store, change.sessionId, what, text);
  };
  if (unstorable(change.createdAt)) refuse('createdAt', change.createdAt);
  for (const slices of [change.replace, change.append]) {
    for (const slice of slices) if (unstorable(slice.name)) refuse('the slice name', slice.name);
  }
  for (const key of Object.keys(change.records)) {
    if (unstorable(key)) refuse('the record key', key);
  }
}

/** Checks a session id before a server store uses it (see {@link checkStoredNames}). */
export function checkSessionId(store: string, sessionId: string): void {
  if (unstorable(sessionId)) throw unstorableError(store, sessionId, 'the session id', sessionId);
}

function unstorableError(
  store: string,
  sessionId: string,
  what: string,
  text: string,
): ConfigurationError {
  return new ConfigurationError({
    subject: `${store} session ${JSON.stringify(sessionId)}`,
    problem: `${what} ${JSON.stringify(text)} contains U+0000 or a lone surrogate, which the server cannot store exactly; nothing was written.`,
    fix: 'Use well-formed Unicode text without U+0000 for session ids, slice names and record keys (encode names that come from outside, e.g. with encodeURIComponent). Values may hold any JSON.',
  });
}
