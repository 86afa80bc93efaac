import type { JsonValue } from '../index.js';

/** How a stored slice behaves on rollback: `log` slices only grow, `state` slices are replaced. */
export type StoredSlicePolicy = 'log' | 'state';

/** One slice as a store holds it: the registered name of its class, its policy and its encoded values in order. */
export interface StoredSlice {
  /** The name the slice's class is registered under in the `SessionCodec`. */
  readonly name: string;
  /** The slice's policy when written. */
  readonly policy: StoredSlicePolicy;
  /** The values, each encoded by the `SessionCodec` (plain JSON). */
  readonly values: readonly JsonValue[];
}

/** A session as a store returns it from `load`. */
export interface StoredSession {
  /** The session's id. */
  readonly sessionId: string;
  /** The number of commits applied so far (1 after the first). */
  readonly version: number;
  /** When the session started, as an ISO 8601 string. */
  readonly createdAt: string;
  /** The session's own tags (without `sessionId`). */
  readonly tags: Readonly<Record<string, string>>;
  /** Every non-empty slice, in the order the slices were first written. */
  readonly slices: readonly StoredSlice[];
  /** Named JSON records kept with the session (e.g. a worker's checkpoint of a running evaluation). */
  readonly records: Readonly<Record<string, JsonValue>>;
}

/**
 * One atomic write to a stored session. A store applies all of it or none of
 * it, and only when the stored version equals `expectedVersion` (0: the
 * session must not exist yet); the stored version then becomes
 * `expectedVersion + 1`.
 */
export interface SessionChange {
  /** The session written. */
  readonly sessionId: string;
  /** The version this writer loaded; 0 creates the session. */
  readonly expectedVersion: number;
  /** When the session started (ISO 8601); stored on creation, ignored afterwards. */
  readonly createdAt: string;
  /** The session's own tags; stored on creation, ignored afterwards. */
  readonly tags: Readonly<Record<string, string>>;
  /** Values added at the end of slices (the event log, and state values appended since the last commit). */
  readonly append: readonly StoredSlice[];
  /** Slices whose whole content becomes `values` (state snapshots; no values empties the slice). */
  readonly replace: readonly StoredSlice[];
  /** Records to set; `null` deletes one. */
  readonly records: Readonly<Record<string, JsonValue | null>>;
}
