/** A promise with its `resolve` and `reject` in hand, to let a test decide when async work finishes. */
export interface Deferred<T = void> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

/** A new {@link Deferred}. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * A latch that opens once `count` parties have arrived: `arrive()` returns a
 * promise of the opening, so every party waits until the last one is there.
 */
export function latch(count: number): { arrive(): Promise<void>; readonly opened: Promise<void> } {
  const open = deferred();
  let arrived = 0;
  return {
    arrive() {
      arrived += 1;
      if (arrived === count) open.resolve();
      return open.promise;
    },
    opened: open.promise,
  };
}
