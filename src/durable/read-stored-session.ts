import { ConfigurationError, type JsonValue } from '../index.js';
import type { StoredSession, StoredSlice } from './stored-session.js';

/**
 * A session as a server returned it, before any check: `PostgresSessionStore`
 * gets its JSON decoded in one piece, `RedisSessionStore` gets each value,
 * record and the tags as JSON text (`json: 'text'`). @internal
 */
export interface RawStoredSession {
  /** Whether values, records and tags are JSON text still to parse, or parsed already. */
  readonly json: 'text' | 'decoded';
  /** The stored version: a whole number of at least 1, as a number or its digits. */
  readonly version: unknown;
  /** When the session started: a string. */
  readonly createdAt: unknown;
  /** The session's tags: an object of strings. */
  readonly tags: unknown;
  /** Each slice as `[name, policy, values]`. */
  readonly slices: readonly (readonly [unknown, unknown, readonly unknown[]])[];
  /** Each record as `[key, value]`. */
  readonly records: readonly (readonly [string, unknown])[];
}

/**
 * Checks and decodes what a server returned for `sessionId`. Data damaged in
 * the server (edited by hand, cut by a failed restore) becomes a
 * `ConfigurationError` naming the store, the session and the slice, value or
 * record, as the session codec does for values it did not write
 * (`SessionCodec.decode`), never a bare `SyntaxError` or `TypeError`. @internal
 */
export function readStoredSession(
  store: string,
  sessionId: string,
  raw: RawStoredSession,
): StoredSession {
  const session = `${store} session ${JSON.stringify(sessionId)}`;
  const json = (subject: string, what: string, item: unknown): JsonValue => {
    if (raw.json === 'decoded') return item as JsonValue;
    try {
      return JSON.parse(item as string) as JsonValue;
    } catch (error) {
      const problem = `${what} is not JSON (${shown(item)}): ${errorText(error)}.`;
      throw damagedSession(subject, problem, error);
    }
  };
  const version = Number(raw.version);
  if (!Number.isSafeInteger(version) || version < 1 || !/^\d+$/.test(String(raw.version))) {
    throw damagedSession(
      session,
      `has version ${shown(raw.version)}, not a whole number of at least 1.`,
    );
  }
  if (typeof raw.createdAt !== 'string') {
    throw damagedSession(session, `has createdAt ${shown(raw.createdAt)}, not a string.`);
  }
  const tags = json(session, 'the tags', raw.tags);
  if (!isRecordOfStrings(tags)) {
    throw damagedSession(session, `has tags ${shown(tags)}, not an object of strings.`);
  }
  const slices = raw.slices.map(([name, policy, values], position): StoredSlice => {
    if (typeof name !== 'string') {
      throw damagedSession(session, `has slice number ${position + 1} without a name.`);
    }
    const slice = `${session}, slice ${JSON.stringify(name)}`;
    if (policy !== 'log' && policy !== 'state') {
      throw damagedSession(slice, `has policy ${shown(policy)}, not 'log' or 'state'.`);
    }
    return {
      name,
      policy,
      values: values.map((value, index) => json(`${slice}, value ${index}`, 'the value', value)),
    };
  });
  // fromEntries defines own properties, so a "__proto__" key stays a record.
  const records = Object.fromEntries(
    raw.records.map(([key, value]) => [
      key,
      json(`${session}, record ${JSON.stringify(key)}`, 'the record', value),
    ]),
  );
  return { sessionId, version, createdAt: raw.createdAt, tags, slices, records };
}

/** The error for stored data of `subject` that is damaged. @internal */
export function damagedSession(
  subject: string,
  problem: string,
  cause?: unknown,
): ConfigurationError {
  return new ConfigurationError({
    subject,
    problem: `${problem} The stored data is damaged.`,
    fix: "Restore the session from a backup, or delete it with the store's delete(sessionId) (e.g. RedisSessionStore.delete) and start a new one.",
    ...(cause === undefined ? {} : { cause }),
  });
}

function isRecordOfStrings(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => typeof item === 'string')
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `value` as JSON, cut to 60 characters (its type when it has no JSON). */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 60));
  // JSON.stringify gives undefined for undefined and functions, whatever its type says.
  const text = JSON.stringify(value) as string | undefined;
  return (text ?? typeof value).slice(0, 60);
}
