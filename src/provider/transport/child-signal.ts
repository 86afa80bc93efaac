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
 * How many runs of {@link withChildSignal} one child signal serves before a
 * fresh one replaces it: an SDK leaves one listener on it per request, and
 * Node warns about a leak past ten.
 */
const RUNS_PER_CHILD = 8;

/** A child signal shared by the runs of {@link withChildSignal} on one parent. */
interface SharedChild {
  readonly controller: AbortController;
  /** Aborts the child with the parent's reason; on the parent only while a run is under way. */
  readonly forward: () => void;
  /** Runs handed this child so far. */
  runs: number;
  /** Runs under way now. */
  active: number;
}

/** The child signal the next run of {@link withChildSignal} on a parent gets. */
const sharedChildren = new WeakMap<AbortSignal, SharedChild>();

/**
 * Runs `work` with a signal of its own that aborts when `parent` does (at
 * once if it already has), and stops following `parent` when `work` is done:
 * the parent keeps no listener between runs. The OpenAI SDK (like others)
 * adds an abort listener to the signal of every request and never removes
 * it; handing it a child signal keeps those listeners from piling up on the
 * evaluation's signal over many turns. Creating an `AbortController` per
 * request costs more than the rest of the request's bookkeeping, so
 * successive runs on one parent share a child, a fresh one every few runs
 * (never one that aborted): what `work` leaves on it may see a later run's
 * abort, and it is never aborted once `work` is done and no other run is
 * under way.
 */
export async function withChildSignal<T>(
  parent: AbortSignal,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const child = takeChild(parent);
  try {
    return await work(child.controller.signal);
  } finally {
    child.active -= 1;
    if (child.active === 0) parent.removeEventListener('abort', child.forward);
  }
}

/** The child for one more run on `parent`, following it (aborted already if `parent` is). */
function takeChild(parent: AbortSignal): SharedChild {
  let child = sharedChildren.get(parent);
  if (child === undefined || child.runs >= RUNS_PER_CHILD || child.controller.signal.aborted) {
    const controller = new AbortController();
    child = {
      controller,
      forward: () => {
        controller.abort(parent.reason);
      },
      runs: 0,
      active: 0,
    };
    sharedChildren.set(parent, child);
  }
  child.runs += 1;
  child.active += 1;
  if (child.active === 1) {
    if (parent.aborted) child.forward();
    else parent.addEventListener('abort', child.forward, { once: true });
  }
  return child;
}

/** Signals nothing can abort: an evaluation's with neither a deadline nor a caller's signal. */
const silentSignals = new WeakSet<AbortSignal>();

/**
 * Notes that nothing can ever abort `signal` (the runtime's signal of an
 * evaluation with neither a deadline nor a caller's signal), so
 * {@link withRequestSignal} hands an SDK none. @internal
 */
export function markNeverAborts(signal: AbortSignal): void {
  silentSignals.add(signal);
}

/**
 * {@link withChildSignal} for one provider request, when the SDK may be
 * handed no signal at all: `work` gets `undefined` when nothing can ever
 * abort `parent` (an evaluation run with neither a deadline nor a caller's
 * `signal`), otherwise a child signal as {@link withChildSignal} gives. An
 * HTTP client that is handed a signal listens to it for the whole request
 * (undici: about 19 µs per request on loopback), which is waste when no one
 * can abort it.
 *
 * @example
 * const json = await withRequestSignal(request.signal, (signal) =>
 *   client.messages.create(body, { signal }).asResponse(),
 * );
 */
export async function withRequestSignal<T>(
  parent: AbortSignal,
  work: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (silentSignals.has(parent)) return await work(undefined);
  return await withChildSignal(parent, work);
}
