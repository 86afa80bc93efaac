const chunkBits = 9;
const chunkSize = 1 << chunkBits;
const chunkMask = chunkSize - 1;

/**
 * An immutable list with O(1) amortised `push`, O(1) `get` and O(1) copies
 * (every version shares its storage). Items live in fixed-size chunks plus a
 * tail. A version that is the newest one built from its storage appends in
 * place; an older version appending again copies only the tail and the chunk
 * index first, so no version ever sees another's items. @internal
 */
export class PersistentList<T> implements Iterable<T> {
  private static readonly emptyList = new PersistentList<never>([], 0, [], 0);

  private cache: readonly T[] | undefined;

  private constructor(
    private readonly chunks: (readonly T[])[],
    private readonly chunkCount: number,
    private readonly tail: T[],
    private readonly tailCount: number,
  ) {}

  /** The empty list. */
  static empty<T>(): PersistentList<T> {
    return PersistentList.emptyList;
  }

  /** A list holding `items` in order. */
  static from<T>(items: Iterable<T>): PersistentList<T> {
    return PersistentList.empty<T>().concat(items);
  }

  /** Number of items. */
  get size(): number {
    return (this.chunkCount << chunkBits) + this.tailCount;
  }

  /** The item at `index`, or `undefined` out of range. */
  get(index: number): T | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.size) return undefined;
    const inChunks = this.chunkCount << chunkBits;
    if (index < inChunks) return this.chunks[index >> chunkBits]?.[index & chunkMask];
    return this.tail[index - inChunks];
  }

  /** The last item, or `undefined` when empty. */
  last(): T | undefined {
    if (this.tailCount > 0) return this.tail[this.tailCount - 1];
    if (this.chunkCount === 0) return undefined;
    return this.chunks[this.chunkCount - 1]?.[chunkMask];
  }

  /** A new list with `item` appended. */
  push(item: T): PersistentList<T> {
    // A first item gets a tail of its own size: a slice of a few values (a short log, a state slice)
    // is not given room for seventeen.
    if (this.tailCount === 0) return new PersistentList(this.chunks, this.chunkCount, [item], 1);
    if (this.tailCount < chunkSize) {
      const tail =
        this.tail.length === this.tailCount ? this.tail : this.tail.slice(0, this.tailCount);
      tail.push(item);
      return new PersistentList(this.chunks, this.chunkCount, tail, this.tailCount + 1);
    }
    // A full tail is never written again, so it can move into the chunk index as it is.
    const chunks =
      this.chunks.length === this.chunkCount ? this.chunks : this.chunks.slice(0, this.chunkCount);
    chunks.push(this.tail);
    return new PersistentList(chunks, this.chunkCount + 1, [item], 1);
  }

  /** A new list with every item of `items` appended. */
  concat(items: Iterable<T>): PersistentList<T> {
    let list: PersistentList<T> | undefined;
    for (const item of items) list = (list ?? this).push(item);
    return list ?? this;
  }

  /** The items for which `predicate` holds; this list itself when it keeps them all. */
  filter(predicate: (item: T) => boolean): PersistentList<T> {
    const kept: T[] = [];
    for (const item of this) if (predicate(item)) kept.push(item);
    return kept.length === this.size ? this : PersistentList.from(kept);
  }

  /** A frozen array of the items, built once per list. */
  toArray(): readonly T[] {
    this.cache ??= Object.freeze([...this]);
    return this.cache;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let c = 0; c < this.chunkCount; c++) {
      const chunk = this.chunks[c];
      if (chunk === undefined) return;
      for (let i = 0; i < chunkSize; i++) yield chunk[i] as T;
    }
    for (let i = 0; i < this.tailCount; i++) yield this.tail[i] as T;
  }
}
