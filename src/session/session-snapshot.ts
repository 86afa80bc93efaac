import type { PersistentList } from './persistent-list.js';
import type { SlicePolicy } from './slice-policy.js';
import type { SliceType } from './slice-type.js';

/** One captured slice. @internal */
export interface SnapshotEntry {
  readonly list: PersistentList<object>;
  readonly policy: SlicePolicy;
}

/**
 * An immutable capture of every slice of a session, taken in time proportional
 * to the number of slices (values are shared, never copied). Pass it to
 * `session.restore()`; read it with `slice()`.
 */
export class SessionSnapshot {
  /** Id of the session it was taken from. */
  readonly sessionId: string;
  /** When it was taken. */
  readonly createdAt: Date;
  /** An optional label. */
  readonly tag: string | undefined;
  readonly #entries: ReadonlyMap<SliceType, SnapshotEntry>;

  private constructor(
    sessionId: string,
    createdAt: Date,
    tag: string | undefined,
    entries: ReadonlyMap<SliceType, SnapshotEntry>,
  ) {
    this.sessionId = sessionId;
    this.createdAt = createdAt;
    this.tag = tag;
    this.#entries = entries;
  }

  /** @internal Use `session.snapshot()`. */
  static capture(
    sessionId: string,
    createdAt: Date,
    tag: string | undefined,
    entries: ReadonlyMap<SliceType, SnapshotEntry>,
  ): SessionSnapshot {
    const snapshot = new SessionSnapshot(sessionId, createdAt, tag, entries);
    Object.freeze(snapshot);
    return snapshot;
  }

  /** @internal The captured slices, or `undefined` for an object that is not a snapshot. */
  static entriesOf(value: unknown): ReadonlyMap<SliceType, SnapshotEntry> | undefined {
    return typeof value === 'object' && value !== null && #entries in value
      ? value.#entries
      : undefined;
  }

  /** Slice types captured with at least one value. */
  get sliceTypes(): readonly SliceType[] {
    return [...this.#entries.keys()];
  }

  /** The policy the slice `type` had when captured, if it was captured. */
  policyOf(type: SliceType): SlicePolicy | undefined {
    return this.#entries.get(type)?.policy;
  }

  /** The values slice `type` held, as a frozen array. */
  slice<T extends object>(type: SliceType<T>): readonly T[] {
    return (this.#entries.get(type)?.list.toArray() ?? []) as readonly T[];
  }
}
