/** A signal that aborts when any of its parents does, and the way to stop following them. @internal */
export interface FollowedSignals {
  readonly signal: AbortSignal;
  /** Removes the listeners from the parents; call it when the work the signal guards is over. */
  readonly detach: () => void;
}

const NOTHING_TO_DETACH = (): void => undefined;

/**
 * The evaluation's signal, from the deadline's and the caller's (either may be absent): one plain
 * listener per parent, removed by `detach` when the evaluation ends, so a
 * long-lived caller's signal keeps no listener of it. Cheaper than
 * `AbortSignal.any`, whose weak references and finalisation cost most of a
 * short call. @internal
 */
export function followSignals(given: readonly (AbortSignal | undefined)[]): FollowedSignals {
  const parents = given.filter((signal): signal is AbortSignal => signal !== undefined);
  const controller = new AbortController();
  if (parents.length === 0) return { signal: controller.signal, detach: NOTHING_TO_DETACH };
  const listeners: [AbortSignal, () => void][] = [];
  const detach = (): void => {
    for (const [parent, listener] of listeners) parent.removeEventListener('abort', listener);
    listeners.length = 0;
  };
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
