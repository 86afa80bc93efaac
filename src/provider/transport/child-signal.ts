/** An abort controller whose signal also aborts when a parent signal does, until detached. */
export interface ChildSignal {
  /** Aborts the child alone, e.g. to end one streamed request early. */
  readonly controller: AbortController;
  /** Stops following the parent; call it once the child's work is over. */
  detach(): void;
}

/**
 * A fresh controller whose signal aborts when `parent` does (at once if it
 * already has), until {@link ChildSignal.detach}. For work that outlives one
 * promise, such as a streamed answer read across many `yield`s.
 */
export function childSignal(parent: AbortSignal): ChildSignal {
  const controller = new AbortController();
  const forward = (): void => {
    controller.abort(parent.reason);
  };
  if (parent.aborted) forward();
  else parent.addEventListener('abort', forward, { once: true });
  return {
    controller,
    detach: () => {
      parent.removeEventListener('abort', forward);
    },
  };
}

/**
 * Runs `work` with a fresh signal that aborts when `parent` does, and
 * detaches it afterwards. The OpenAI SDK (like others) adds an abort listener to the signal
 * of every request and never removes it; handing it a per-attempt signal keeps
 * those listeners from piling up on the evaluation's signal over many turns.
 */
export async function withChildSignal<T>(
  parent: AbortSignal,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const child = childSignal(parent);
  try {
    return await work(child.controller.signal);
  } finally {
    child.detach();
  }
}
