/**
 * A bounded queue between one producer (an evaluation) and one consumer (a
 * `for await` loop). `push` waits while `capacity` items are unread, so the
 * producer never runs ahead of a slow consumer by more than the buffer;
 * `pushNow` never waits (for items produced where waiting is impossible, e.g.
 * inside a synchronous callback; a turn's tool calls bound how many). After
 * `discard()` every item is dropped and no push waits: the consumer has gone.
 * @internal
 */
export class PartChannel<T> {
  readonly #capacity: number;
  readonly #items: T[] = [];
  #closed = false;
  #discarding = false;
  /** The consumer waiting for an item, if any. */
  #reader: (() => void) | undefined;
  /** Producers waiting for room, in order. */
  readonly #writers: (() => void)[] = [];

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /**
   * Adds `item` at once when it fits (returns `undefined`: most calls, so no
   * promise is made), else returns a promise that adds it once it fits (at
   * once after `discard()`).
   */
  push(item: T): Promise<void> | undefined {
    if (this.#items.length < this.#capacity || this.#discarding) {
      this.pushNow(item);
      return undefined;
    }
    return this.#pushWhenRoom(item);
  }

  async #pushWhenRoom(item: T): Promise<void> {
    await this.#whenRoom(this.#capacity - 1);
    this.pushNow(item);
  }

  /**
   * How many more items fit before the buffer is full: a number (at least 1)
   * when some do, else a promise of that number once the consumer has read
   * enough. With `empty`, only once every item was read (the whole capacity).
   * At once after `discard()`, with the whole capacity: nothing waits for a
   * consumer that left.
   */
  room(empty = false): number | Promise<number> {
    const free = this.#free();
    const enough = empty ? free === this.#capacity : free > 0;
    return enough ? free : this.#whenRoom(empty ? 0 : this.#capacity - 1).then(() => this.#free());
  }

  #free(): number {
    return this.#discarding ? this.#capacity : this.#capacity - this.#items.length;
  }

  /** Resolves once at most `most` items are unread (or the channel is discarded). */
  async #whenRoom(most: number): Promise<void> {
    while (this.#items.length > most) {
      if (this.#discarding) return;
      await new Promise<void>((resolve) => this.#writers.push(resolve));
    }
  }

  /** Adds `item` without waiting for room. */
  pushNow(item: T): void {
    if (this.#discarding || this.#closed) return;
    this.#items.push(item);
    this.#wakeReader();
  }

  /** No more items will come; the consumer reads what is buffered, then ends. */
  close(): void {
    this.#closed = true;
    this.#wakeReader();
  }

  /** Drops everything buffered and everything pushed from now on, and releases waiting producers. */
  discard(): void {
    this.#discarding = true;
    this.#items.length = 0;
    for (const writer of this.#writers.splice(0)) writer();
    this.#wakeReader();
  }

  /** The next buffered item, if any, without waiting. */
  poll(): { readonly item: T } | undefined {
    if (this.#items.length === 0) return undefined;
    const item = this.#items.shift() as T;
    // Every waiting producer looks again: one that only waited for room (`room()`) takes none.
    if (this.#writers.length > 0) for (const writer of this.#writers.splice(0)) writer();
    return { item };
  }

  /** The next item, or `undefined` once the channel is closed (or discarded) and empty. */
  async take(): Promise<{ readonly item: T } | undefined> {
    for (;;) {
      const polled = this.poll();
      if (polled !== undefined) return polled;
      if (this.#closed || this.#discarding) return undefined;
      await new Promise<void>((resolve) => {
        this.#reader = resolve;
      });
    }
  }

  #wakeReader(): void {
    const reader = this.#reader;
    this.#reader = undefined;
    reader?.();
  }
}
