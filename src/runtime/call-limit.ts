import type { Clock, TimerHandle } from '../core/clock.js';
import type { LazySignal } from './scope/followed-signal.js';

/**
 * A call's time limit (`timeoutMs` of its tool, or its prompt's
 * `toolTimeoutMs`): a signal that aborts when the evaluation's does or when
 * the limit passes, whichever comes first. `cancel()` when the call ends. @internal
 */
export class CallLimit implements LazySignal {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly #controller = new AbortController();
  readonly #timer: TimerHandle;
  readonly #parent: LazySignal;
  /** The parent's signal this limit listens to; none when the parent can never abort. */
  readonly #listened: AbortSignal | undefined;
  #timedOut = false;

  constructor(parent: LazySignal, timeoutMs: number, clock: Clock) {
    this.#parent = parent;
    this.timeoutMs = timeoutMs;
    this.signal = this.#controller.signal;
    this.#listened = parent.listenable;
    this.#listened?.addEventListener('abort', this, { once: true });
    this.#timer = clock.setTimer(() => {
      if (this.#controller.signal.aborted) return;
      this.#timedOut = true;
      this.#controller.abort(
        new Error(`the call took longer than its limit of ${timeoutMs} ms (timeoutMs)`),
      );
    }, timeoutMs);
    if (parent.aborted) this.handleEvent();
  }

  get aborted(): boolean {
    return this.signal.aborted;
  }

  get reason(): unknown {
    return this.signal.reason as unknown;
  }

  get listenable(): AbortSignal {
    return this.signal;
  }

  /** Whether the limit passed (and not the evaluation's signal aborted first). */
  get timedOut(): boolean {
    return this.#timedOut && !this.#parent.aborted;
  }

  /** The evaluation's signal aborted. */
  handleEvent(): void {
    if (!this.#controller.signal.aborted) this.#controller.abort(this.#parent.reason);
  }

  /** The call ended: no timer, no listener left behind. */
  cancel(): void {
    this.#timer.cancel();
    this.#listened?.removeEventListener('abort', this);
  }
}

/** The limit of a call of a tool with `timeoutMs` (or under a prompt's `toolTimeoutMs`); none without. @internal */
export function callLimit(
  parent: LazySignal,
  timeoutMs: number | undefined,
  clock: Clock,
): CallLimit | undefined {
  return timeoutMs === undefined ? undefined : new CallLimit(parent, timeoutMs, clock);
}
