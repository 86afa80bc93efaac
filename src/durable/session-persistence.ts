import {
  type BlobStore,
  type Clock,
  ConfigurationError,
  type Dispatcher,
  Session,
  type SessionOptions,
  type SliceType,
} from '../index.js';
import { DurableSession } from './durable-session.js';
import { SessionCodec } from './session-codec.js';
import type { SessionStore } from './session-store.js';
import type { StoredSession } from './stored-session.js';
import { checkBlobsPresent, collectMediaRefs, type FoundRef } from './stored-media-refs.js';

/** Options of a {@link SessionPersistence}. */
export interface SessionPersistenceOptions {
  /** Where the sessions are stored. */
  readonly store: SessionStore;
  /** How values become JSON; by default one that knows the runtime's own classes only. */
  readonly codec?: SessionCodec | undefined;
  /**
   * Where the bytes of the media the sessions refer to live: the `BlobStore`
   * the runtime writes to (a `PostgresBlobStore` or `RedisBlobStore` beside a
   * durable session store). A value refers to media by its `MediaRef`; a
   * media part in a value (a `ToolResult`'s parts) is stored as its
   * reference. With `blobs`, a session that refers to media whose bytes are
   * not there is refused at load and at commit, naming the hash. Without it,
   * a commit that refers to media is refused (its bytes would be nowhere a
   * later process finds them), and a load is not checked.
   */
  readonly blobs?: BlobStore | undefined;
}

/** Options of {@link SessionPersistence.open}. */
export interface OpenSessionOptions {
  /** Installs state classes and reducers on the session before its slices are filled. */
  readonly setup?: ((session: Session) => void) | undefined;
  /** The session's dispatcher (a new in-process one by default). */
  readonly dispatcher?: Dispatcher | undefined;
  /** The session's clock. */
  readonly clock?: Clock | undefined;
  /** Tags of a session started here (a stored session keeps its own). */
  readonly tags?: Readonly<Record<string, string>> | undefined;
  /** Whether a session that is not stored yet may be started; `true` by default. */
  readonly create?: boolean | undefined;
}

/**
 * Loads sessions from a {@link SessionStore} into live `Session`s and hands
 * them out as {@link DurableSession}s, which commit their changes back.
 */
export class SessionPersistence {
  /** Where the sessions are stored. */
  readonly store: SessionStore;
  /** How values become JSON. */
  readonly codec: SessionCodec;
  /** Where the bytes of the sessions' media live, when given. */
  readonly blobs: BlobStore | undefined;

  constructor(options: SessionPersistenceOptions) {
    this.store = options.store;
    this.codec = options.codec ?? new SessionCodec();
    this.blobs = options.blobs;
  }

  /**
   * The session stored as `sessionId`, loaded into a new `Session` (after
   * `setup`), or a new empty one when none is stored (unless `create: false`).
   * @throws ConfigurationError when it is not stored and `create` is false, a stored class is unknown, or
   * (with `blobs`) a value refers to media whose bytes are not in the blob store.
   */
  async open(sessionId: string, options: OpenSessionOptions = {}): Promise<DurableSession> {
    const stored = await this.store.load(sessionId);
    const knownBlobs = new Set<string>();
    if (stored !== undefined && this.blobs !== undefined) {
      const refs = new Map<string, FoundRef>();
      for (const slice of stored.slices) {
        for (const [index, json] of slice.values.entries()) {
          collectMediaRefs(json, { sessionId, slice: slice.name, index }, refs);
        }
      }
      await checkBlobsPresent(this.blobs, refs, 'loaded', knownBlobs);
    }
    if (stored === undefined && options.create === false) {
      throw new ConfigurationError({
        subject: `Session ${sessionId}`,
        problem: 'is not stored.',
        fix: 'Open it without create: false to start it, or check the session id.',
      });
    }
    const init: SessionOptions = { sessionId };
    const tags = stored?.tags ?? options.tags;
    if (stored !== undefined) Object.assign(init, { createdAt: new Date(stored.createdAt) });
    if (tags !== undefined) Object.assign(init, { tags });
    if (options.dispatcher !== undefined) Object.assign(init, { dispatcher: options.dispatcher });
    if (options.clock !== undefined) Object.assign(init, { clock: options.clock });
    const session = new Session(init);
    options.setup?.(session);
    const storedTypes = stored === undefined ? new Set<SliceType>() : this.#fill(session, stored);
    return new DurableSession({
      session,
      store: this.store,
      codec: this.codec,
      version: stored?.version ?? 0,
      records: stored?.records ?? {},
      storedTypes,
      blobs: this.blobs,
      knownBlobs,
    });
  }

  /** Seeds each stored slice with its decoded values and stored policy. */
  #fill(session: Session, stored: StoredSession): Set<SliceType> {
    const types = new Set<SliceType>();
    for (const slice of stored.slices) {
      const type = this.codec.typeOf(slice.name);
      if (type === undefined) {
        throw new ConfigurationError({
          subject: `Session ${stored.sessionId}, slice ${slice.name}`,
          problem: `is stored under a class name the session codec does not know.`,
          fix: `Register the slice's class: new SessionCodec({ classes: [${slice.name}] }).`,
        });
      }
      const values = slice.values.map((json, index) =>
        this.codec.decode(json, { sessionId: stored.sessionId, slice: slice.name, index }),
      );
      const accessor = session.slice(type);
      accessor.setPolicy(slice.policy);
      accessor.seed(values as object[]);
      types.add(type);
    }
    return types;
  }
}
