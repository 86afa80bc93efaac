import {
  type BlobStore,
  ConfigurationError,
  type JsonValue,
  type Session,
  type SliceType,
} from '../index.js';
import type { SessionCodec } from './session-codec.js';
import type { SessionStore } from './session-store.js';
import { checkBlobsPresent, type FoundRef } from './stored-media-refs.js';
import type { SessionChange, StoredSlice, StoredSlicePolicy } from './stored-session.js';

/** Options of {@link DurableSession.commit}. */
export interface DurableCommitOptions {
  /** Records to set with this commit; `null` deletes one. */
  readonly records?: Readonly<Record<string, JsonValue | null>> | undefined;
}

/** What a `DurableSession` is built from. @internal */
export interface DurableSessionInit {
  readonly session: Session;
  readonly store: SessionStore;
  readonly codec: SessionCodec;
  readonly version: number;
  /** The stored records, {@link SESSION_VERSION_RECORD} included when it is stored. */
  readonly records: Readonly<Record<string, JsonValue>>;
  /** The slices filled from the store (the others are not stored yet). */
  readonly storedTypes: ReadonlySet<SliceType>;
  /** Where the bytes of referenced media must be before a commit stores the reference. */
  readonly blobs?: BlobStore | undefined;
  /** Hashes whose bytes `blobs` was found to hold (at load). */
  readonly knownBlobs?: Set<string> | undefined;
}

/**
 * The record under which a commit stores `Session.version` (the live
 * session's change count), so that a session loaded from the store continues
 * from it and a paused evaluation's saved state resumes against the loaded
 * copy in another process. Not listed in `DurableSession.records`. @internal
 */
export const SESSION_VERSION_RECORD = 'affordance:session-version';

/**
 * A session loaded from a `SessionStore` (by `SessionPersistence.open`): use
 * `session` as any session, then `commit()` to store what changed since the
 * load or the last commit — the values added at the end of a slice are
 * appended, a slice changed otherwise (rolled back, cleared, re-seeded) is
 * stored whole. A commit refused by a `SessionConflictError` changes nothing
 * here: open the session again and reapply (see `commitWithRetry`).
 */
export class DurableSession {
  /** The live session. */
  readonly session: Session;
  readonly #store: SessionStore;
  readonly #codec: SessionCodec;
  readonly #blobs: BlobStore | undefined;
  /** Hashes whose bytes `#blobs` holds, as found at load or by an earlier commit. */
  readonly #knownBlobs: Set<string>;
  #version: number;
  #records: Readonly<Record<string, JsonValue>>;
  /** The `Session.version` the store holds (under {@link SESSION_VERSION_RECORD}). */
  #sessionVersion: number | undefined;
  /** What the store holds, per slice: the values (compared by identity) and the policy. */
  #stored = new Map<SliceType, { values: readonly object[]; policy: StoredSlicePolicy }>();

  /** @internal Use `SessionPersistence.open`. */
  constructor(init: DurableSessionInit) {
    this.session = init.session;
    this.#store = init.store;
    this.#codec = init.codec;
    this.#blobs = init.blobs;
    this.#knownBlobs = init.knownBlobs ?? new Set();
    this.#version = init.version;
    const { [SESSION_VERSION_RECORD]: sessionVersion, ...records } = init.records;
    this.#records = records;
    if (typeof sessionVersion === 'number' && Number.isSafeInteger(sessionVersion)) {
      this.#sessionVersion = sessionVersion;
      this.session.continueVersion(sessionVersion);
    }
    this.#stored = new Map([...this.#current()].filter(([type]) => init.storedTypes.has(type)));
  }

  /** The session's id. */
  get sessionId(): string {
    return this.session.sessionId;
  }

  /** The stored version this object last loaded or committed; 0 when the session is not stored yet. */
  get version(): number {
    return this.#version;
  }

  /** The records stored with the session, as of the last load or commit. */
  get records(): Readonly<Record<string, JsonValue>> {
    return this.#records;
  }

  /** Whether the session's slices changed since the last load or commit. */
  hasChanges(): boolean {
    const current = this.#current();
    if (current.size !== this.#stored.size) return true;
    for (const [type, slice] of current) {
      const stored = this.#stored.get(type);
      if (stored?.policy !== slice.policy || !sameValues(stored.values, slice.values)) return true;
    }
    return false;
  }

  /**
   * Stores what changed, and `options.records`, in one atomic write; returns
   * the new version (the current one, without a write, when nothing changed
   * and no record is given).
   * @throws SessionConflictError when another writer committed first (nothing was stored).
   * @throws ConfigurationError when a value cannot be stored, or refers to media whose bytes are not in
   * the persistence's blob store (nothing was stored).
   */
  async commit(options: DurableCommitOptions = {}): Promise<number> {
    const current = this.#current();
    const append: StoredSlice[] = [];
    const replace: StoredSlice[] = [];
    const refs = new Map<string, FoundRef>();
    for (const [type, slice] of current) {
      const stored = this.#stored.get(type);
      const samePolicy = stored?.policy === slice.policy;
      if (samePolicy && sameValues(stored.values, slice.values)) continue;
      const grows = samePolicy && startsWith(slice.values, stored.values);
      const from = grows ? stored.values.length : 0;
      const encoded = this.#encode(type, slice.values, from, slice.policy, refs);
      (grows ? append : replace).push(encoded);
    }
    for (const type of this.#stored.keys()) {
      if (!current.has(type)) replace.push(this.#encode(type, [], 0, 'state', refs));
    }
    const records = options.records ?? {};
    if (Object.hasOwn(records, SESSION_VERSION_RECORD)) {
      throw new ConfigurationError({
        subject: `Session ${this.sessionId}, record ${SESSION_VERSION_RECORD}`,
        problem: 'is written by DurableSession.commit itself.',
        fix: 'Store your value under another record name.',
      });
    }
    const sessionVersion = this.session.version;
    const versionMoved = sessionVersion !== this.#sessionVersion;
    const write = append.length > 0 || replace.length > 0 || Object.keys(records).length > 0;
    if (!write && !versionMoved) return this.#version;
    // The bytes are written before the event that refers to them: a reference without them is refused.
    if (this.#blobs !== undefined) {
      await checkBlobsPresent(this.#blobs, refs, 'stored', this.#knownBlobs);
    } else {
      const [first] = refs.values();
      if (first !== undefined) throw blobsNeeded(this.sessionId, first);
    }
    const change: SessionChange = {
      sessionId: this.sessionId,
      expectedVersion: this.#version,
      createdAt: this.session.createdAt.toISOString(),
      tags: userTags(this.session),
      append,
      replace,
      records: versionMoved ? { ...records, [SESSION_VERSION_RECORD]: sessionVersion } : records,
    };
    const version = await this.#store.commit(change);
    this.#version = version;
    this.#stored = current;
    this.#records = withRecords(this.#records, records);
    this.#sessionVersion = sessionVersion;
    return version;
  }

  /** Every non-empty slice of the session now, with its policy. */
  #current(): Map<SliceType, { values: readonly object[]; policy: StoredSlicePolicy }> {
    const snapshot = this.session.snapshot();
    const slices = new Map<SliceType, { values: readonly object[]; policy: StoredSlicePolicy }>();
    for (const type of snapshot.sliceTypes) {
      const values = snapshot.slice(type);
      if (values.length === 0) continue;
      slices.set(type, { values, policy: snapshot.policyOf(type) === 'log' ? 'log' : 'state' });
    }
    return slices;
  }

  #encode(
    type: SliceType,
    values: readonly object[],
    from: number,
    policy: StoredSlicePolicy,
    refs: Map<string, FoundRef>,
  ): StoredSlice {
    const name = this.#codec.nameOf(type);
    if (name === undefined) throw unregisteredSlice(this.sessionId, type);
    const encoded: JsonValue[] = [];
    for (let index = from; index < values.length; index++) {
      const where = { sessionId: this.sessionId, slice: name, index };
      const json = this.#codec.encodeCollecting(values[index], where, (ref) => {
        if (!refs.has(ref.hash)) {
          refs.set(ref.hash, { hash: ref.hash, mediaType: ref.mediaType, size: ref.size, where });
        }
      });
      encoded.push(json);
    }
    return { name, policy, values: encoded };
  }
}

function sameValues(a: readonly object[], b: readonly object[]): boolean {
  return a.length === b.length && startsWith(b, a);
}

/** Whether `values` begins with exactly the objects of `prefix`. */
function startsWith(values: readonly object[], prefix: readonly object[]): boolean {
  // A slice's array is built once per version of the slice: an unchanged slice gives the same array.
  if (values === prefix) return true;
  if (values.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (values[i] !== prefix[i]) return false;
  return true;
}

function userTags(session: Session): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const [key, value] of Object.entries(session.tags)) {
    if (key !== 'sessionId' && key !== 'parentSessionId') tags[key] = value;
  }
  return tags;
}

function withRecords(
  records: Readonly<Record<string, JsonValue>>,
  changes: Readonly<Record<string, JsonValue | null>>,
): Readonly<Record<string, JsonValue>> {
  const next = new Map(Object.entries(records));
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) next.delete(key);
    else next.set(key, value);
  }
  return Object.fromEntries(next);
}

function unregisteredSlice(sessionId: string, type: SliceType): ConfigurationError {
  return new ConfigurationError({
    subject: `Session ${sessionId}, slice ${type.name}`,
    problem: `its class ${type.name} is not registered in the session codec, so the slice cannot be stored.`,
    fix: `Register it: new SessionCodec({ classes: [${type.name}] }).`,
  });
}

function blobsNeeded(sessionId: string, ref: FoundRef): ConfigurationError {
  const { slice, index } = ref.where;
  return new ConfigurationError({
    subject: `Session ${sessionId}, slice ${slice}, value ${index}`,
    problem: `refers to media ${ref.hash} (${ref.mediaType}), whose bytes this session's persistence has no BlobStore to find; nothing was written.`,
    fix: 'Give SessionPersistence the BlobStore the runtime writes media to: new SessionPersistence({ store, codec, blobs }) (in a Nest app: AffordanceModule.forRoot({ blobStore })), e.g. a PostgresBlobStore or RedisBlobStore beside the session store.',
  });
}
