/**
 * Waits until `check()` is true, polling every 5 ms, for what another
 * process or connection does in its own time (a notification, a cancellation).
 * Fails with `what` after `timeoutMs`, so a test never passes on a fixed sleep.
 */
export async function eventually(
  what: string,
  check: () => boolean,
  timeoutMs = 5_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
