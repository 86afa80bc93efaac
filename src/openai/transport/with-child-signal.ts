/**
 * Runs `work` with a fresh signal that aborts when `parent` does, and
 * detaches it afterwards. The OpenAI SDK adds an abort listener to the signal
 * of every request and never removes it; handing it a per-attempt signal keeps
 * those listeners from piling up on the evaluation's signal over many turns.
 */
export async function withChildSignal<T>(
  parent: AbortSignal,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const forward = (): void => {
    controller.abort(parent.reason);
  };
  if (parent.aborted) forward();
  else parent.addEventListener('abort', forward, { once: true });
  try {
    return await work(controller.signal);
  } finally {
    parent.removeEventListener('abort', forward);
  }
}
