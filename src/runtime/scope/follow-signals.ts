/** A signal that aborts when any of its parents does, and the way to stop following them. @internal */
export interface FollowedSignals {
  readonly signal: AbortSignal;
  /** Removes the listeners from the parents; call it when the work the signal guards is over. */
  readonly detach: () => void;
}

/** What aborts the followed signal besides parent signals: a `Deadline` (its `watch`). @internal */
export interface ExpiryWatch {
  watch(onExpired: (reason: unknown) => void): () => void;
}

const NOTHING_TO_DETACH = (): void => undefined;

/**
 * The evaluation's signal, from the deadline and the caller's signal (either may be absent): one plain
 * listener per parent, removed by `detach` when the evaluation ends, so a
 * long-lived caller's signal keeps no listener of it. Cheaper than
 * `AbortSignal.any`, whose weak references and finalisation cost most of a
 * short call. The deadline is watched rather than followed through its
 * `signal`, whose timer would stay armed (holding the deadline) until the
 * deadline passes, long after a short evaluation ended. @internal
 */
export function followSignals(
  given: readonly (AbortSignal | undefined)[],
  deadline?: ExpiryWatch,
): FollowedSignals {
  const parents = given.filter((signal): signal is AbortSignal => signal !== undefined);
  const controller = new AbortController();
  if (parents.length === 0 && deadline === undefined) {
    return { signal: controller.signal, detach: NOTHING_TO_DETACH };
  }
  const listeners: [AbortSignal, () => void][] = [];
  let unwatch: (() => void) | undefined;
  const detach = (): void => {
    for (const [parent, listener] of listeners) parent.removeEventListener('abort', listener);
    listeners.length = 0;
    unwatch?.();
    unwatch = undefined;
  };
  if (deadline !== undefined) {
    unwatch = deadline.watch((reason) => {
      controller.abort(reason);
      detach();
    });
    // Already passed: the watch called back at once, before `unwatch` was set.
    if (controller.signal.aborted) {
      detach();
      return { signal: controller.signal, detach };
    }
  }
  for (const parent of parents) {
    if (parent.aborted) {
      controller.abort(parent.reason);
      detach();
      break;
    }
    const listener = (): void => {
      controller.abort(parent.reason);
      detach();
    };
    parent.addEventListener('abort', listener, { once: true });
    listeners.push([parent, listener]);
  }
  return { signal: controller.signal, detach };
}
