import type { ProviderRequest } from '../../src/provider/provider-request.js';

/** The tool messages of a recorded request, as `[callId, content]` pairs in conversation order. */
export function toolMessages(request: ProviderRequest | undefined): [string, string][] {
  if (request === undefined) throw new Error('expected a recorded request, got none');
  return request.messages.flatMap((message): [string, string][] =>
    message.role === 'tool' ? [[message.callId, message.content]] : [],
  );
}

/** Lets every pending promise callback and I/O callback run (a turn of the event loop, not a timed wait). */
export function settle(): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(resolve);
  });
}
