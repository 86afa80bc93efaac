import { markNeverAborts } from '../../provider/transport/child-signal.js';

/**
 * A cancellation whose `AbortSignal` is made only when something reads it.
 * `aborted` and `reason` answer without making one; `signal` makes it (once);
 * `listenable` is `undefined` when nothing could ever abort it, so code that
 * would only add an abort listener adds none. Node 20's `AbortSignal` costs
 * about a fifth of a tool call made outside the model loop, and most calls
 * never look at theirs. @internal
 */
export interface LazySignal {
  /** Whether it aborted (makes no `AbortSignal`). */
  readonly aborted: boolean;
  /** Why it aborted; `undefined` while it has not. */
  readonly reason: unknown;
  /** The `AbortSignal`, made on first read (a signal of its own, never shared). */
  readonly signal: AbortSignal;
  /** {@link LazySignal.signal}, or `undefined` when it can never abort: no listener is needed. */
  readonly listenable: AbortSignal | undefined;
}

/**
 * What aborts a {@link FollowedSignal} besides parent signals: a `Deadline`,
 * watched (its `watch`) rather than followed through its `signal`, whose timer
 * stays armed, holding the deadline, until the deadline passes, long after a
 * short evaluation ended. @internal
 */
export interface ExpiryWatch {
  /** Whether the deadline has passed. */
  readonly expired: boolean;
  /** The deadline's own signal (read only once it has passed, for its reason). */
  readonly signal: AbortSignal;
  /** Calls `onExpired` when the deadline passes, until the returned function is called. */
  watch(onExpired: (reason: unknown) => void): () => void;
}

/**
 * The evaluation's cancellation, from the deadline and the caller's signal
 * (either may be absent). Until its `signal` is read it only looks at them;
 * once read, its signal follows them with one listener per parent (no
 * `AbortSignal.any`, whose weak references and finalisation cost most of a
 * short call), removed by {@link FollowedSignal.detach} when the evaluation
 * ends, so a long-lived caller's signal keeps no listener of it. Each
 * evaluation gets its own signal, even with nothing to follow: a listener user
 * code adds to it goes away with the evaluation. @internal
 */
export class FollowedSignal implements LazySignal {
  #parents: readonly AbortSignal[];
  #deadline: ExpiryWatch | undefined;
  #unwatch: (() => void) | undefined;
  #controller: AbortController | undefined;

  constructor(given: readonly (AbortSignal | undefined)[], deadline?: ExpiryWatch) {
    this.#parents = given.filter((signal): signal is AbortSignal => signal !== undefined);
    this.#deadline = deadline;
  }

  get aborted(): boolean {
    const controller = this.#controller;
    if (controller !== undefined) return controller.signal.aborted;
    for (const parent of this.#parents) if (parent.aborted) return true;
    return this.#deadline?.expired ?? false;
  }

  get reason(): unknown {
    const controller = this.#controller;
    if (controller !== undefined) return controller.signal.reason as unknown;
    for (const parent of this.#parents) if (parent.aborted) return parent.reason as unknown;
    const deadline = this.#deadline;
    // Passed: its signal aborts at once when read, and leaves no timer behind.
    return deadline?.expired === true ? (deadline.signal.reason as unknown) : undefined;
  }

  get signal(): AbortSignal {
    return (this.#controller ??= this.#follow()).signal;
  }

  get listenable(): AbortSignal | undefined {
    return this.#controller === undefined &&
      this.#parents.length === 0 &&
      this.#deadline === undefined
      ? undefined
      : this.signal;
  }

  /** A parent aborted: so does the signal, with the parent's reason. */
  handleEvent(event: Event): void {
    const parent = event.target as AbortSignal;
    const controller = this.#controller;
    if (controller !== undefined && !controller.signal.aborted) controller.abort(parent.reason);
    this.detach();
  }

  /**
   * Stops following the parents (the work the signal guards is over): the
   * signal keeps the state it has now, made or not.
   */
  detach(): void {
    const parents = this.#parents;
    if (parents.length === 0 && this.#deadline === undefined) return;
    this.#unwatch?.();
    this.#unwatch = undefined;
    if (this.#controller === undefined) {
      // Not made yet: an abort already seen stays; later ones of the parents are not this signal's.
      if (this.aborted) this.#controller = this.#follow();
    } else {
      for (const parent of parents) parent.removeEventListener('abort', this);
    }
    this.#parents = [];
    this.#deadline = undefined;
  }

  /** The controller of the signal, aborted or following the parents. */
  #follow(): AbortController {
    const controller = new AbortController();
    const parents = this.#parents;
    const deadline = this.#deadline;
    // Nothing to follow: no one can abort it, and an adapter need not hand it to an HTTP client.
    if (parents.length === 0 && deadline === undefined) markNeverAborts(controller.signal);
    for (const parent of parents) {
      if (parent.aborted) {
        controller.abort(parent.reason);
        this.#parents = [];
        this.#deadline = undefined;
        return controller;
      }
    }
    if (deadline !== undefined) {
      let watching = false;
      const unwatch = deadline.watch((reason) => {
        if (!controller.signal.aborted) controller.abort(reason);
        // Called back at once (already passed): handled below, before any listener is added.
        if (watching) this.detach();
      });
      watching = true;
      if (controller.signal.aborted) {
        this.#parents = [];
        this.#deadline = undefined;
        return controller;
      }
      this.#unwatch = unwatch;
    }
    for (const parent of parents) parent.addEventListener('abort', this, { once: true });
    return controller;
  }
}
