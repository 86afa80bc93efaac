import type { PersistentList } from './persistent-list.js';
import type { SlicePolicy } from './slice-policy.js';
import type { SliceStore } from './slice-store.js';
import type { SliceType } from './slice-type.js';
import type { SliceView } from './slice-view.js';

/** A read-only, always-current view of one slice of a store (`SliceAccessor` adds the writes). */
export class SliceReader<T extends object> implements SliceView<T> {
  /** The class the slice is keyed by. */
  readonly type: SliceType<T>;
  /** @internal */
  protected readonly store: () => SliceStore;

  /** @internal */
  constructor(store: () => SliceStore, type: SliceType<T>) {
    this.store = store;
    this.type = type;
  }

  /** Number of values. */
  get size(): number {
    return this.list().size;
  }

  /** Whether the slice rolls back on restore (`state`) or is kept (`log`). */
  get policy(): SlicePolicy {
    return this.store().policyOf(this.type);
  }

  /** Every value, oldest first, as a frozen array (built once per version of the slice). */
  all(): readonly T[] {
    return this.list().toArray();
  }

  /** The newest value, or `undefined` when the slice is empty. */
  latest(): T | undefined {
    return this.list().last();
  }

  /** The value at `index` (negative counts from the end), or `undefined`. */
  at(index: number): T | undefined {
    const list = this.list();
    return list.get(index < 0 ? list.size + index : index);
  }

  /** The values for which `predicate` holds, oldest first, as a frozen array. */
  where(predicate: (value: T) => boolean): readonly T[] {
    const matches: T[] = [];
    for (const value of this.list()) if (predicate(value)) matches.push(value);
    return Object.freeze(matches);
  }

  [Symbol.iterator](): Iterator<T> {
    return this.list()[Symbol.iterator]();
  }

  /** @internal */
  protected list(): PersistentList<T> {
    return this.store().list(this.type);
  }
}
