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
 * The evaluation's cancellation, from the deadline's and the caller's signals
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
  #controller: AbortController | undefined;

  constructor(given: readonly (AbortSignal | undefined)[]) {
    this.#parents = given.filter((signal): signal is AbortSignal => signal !== undefined);
  }

  get aborted(): boolean {
    const controller = this.#controller;
    if (controller !== undefined) return controller.signal.aborted;
    for (const parent of this.#parents) if (parent.aborted) return true;
    return false;
  }

  get reason(): unknown {
    const controller = this.#controller;
    if (controller !== undefined) return controller.signal.reason as unknown;
    for (const parent of this.#parents) if (parent.aborted) return parent.reason as unknown;
    return undefined;
  }

  get signal(): AbortSignal {
    return (this.#controller ??= this.#follow()).signal;
  }

  get listenable(): AbortSignal | undefined {
    return this.#controller === undefined && this.#parents.length === 0 ? undefined : this.signal;
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
    if (parents.length === 0) return;
    if (this.#controller === undefined) {
      // Not made yet: an abort already seen stays; later ones of the parents are not this signal's.
      if (this.aborted) this.#controller = this.#follow();
    } else {
      for (const parent of parents) parent.removeEventListener('abort', this);
    }
    this.#parents = [];
  }

  /** The controller of the signal, aborted or following the parents. */
  #follow(): AbortController {
    const controller = new AbortController();
    const parents = this.#parents;
    // Nothing to follow: no one can abort it, and an adapter need not hand it to an HTTP client.
    if (parents.length === 0) markNeverAborts(controller.signal);
    for (const parent of parents) {
      if (parent.aborted) {
        controller.abort(parent.reason);
        this.#parents = [];
        return controller;
      }
    }
    for (const parent of parents) parent.addEventListener('abort', this, { once: true });
    return controller;
  }
}
