/**
 * A first-come, first-served lock for async code. `tryAcquire` takes it at
 * once when it is free; `acquire` waits in line and gives up when its signal
 * aborts. @internal
 */
export class Mutex {
  #held = false;
  readonly #waiting: { grant: () => void }[] = [];

  /** Whether someone holds the lock. */
  get held(): boolean {
    return this.#held;
  }

  /** Takes the lock if it is free; `true` when taken. */
  tryAcquire(): boolean {
    if (this.#held) return false;
    this.#held = true;
    return true;
  }

  /** Waits for the lock; rejects with the signal's reason if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        grant: (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        const index = this.#waiting.indexOf(waiter);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(reasonOf(signal));
      };
      if (signal?.aborted === true) {
        reject(reasonOf(signal));
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  /** Hands the lock to the next in line, or frees it. */
  release(): void {
    const next = this.#waiting.shift();
    if (next === undefined) this.#held = false;
    else next.grant();
  }
}

function reasonOf(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error
    ? reason
    : new Error('The wait for the lock was aborted.', { cause: reason });
}
