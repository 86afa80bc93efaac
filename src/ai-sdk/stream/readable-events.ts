/**
 * The parts of a web `ReadableStream` (what `doStream` returns) as an async
 * iterable; returning early cancels the stream, which aborts its HTTP request.
 */
export async function* readableEvents(stream: ReadableStream<unknown>): AsyncGenerator {
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
