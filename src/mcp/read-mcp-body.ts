import type { IncomingMessage } from 'node:http';

/**
 * How reading a request body ended: its JSON (`undefined` when it is not
 * JSON), too large, or cut off by the client (aborted, reset, stream error).
 * @internal
 */
export type McpBodyRead =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'cut-off' };

/**
 * Reads `req`'s JSON body, at most `maxBytes` of it: a declared
 * Content-Length over the limit is refused before anything is read, and the
 * read stops as soon as more than the limit arrived (nothing more is kept).
 * Never rejects: a request the client abandons is `cut-off`. @internal
 */
export function readMcpBody(req: IncomingMessage, maxBytes: number): Promise<McpBodyRead> {
  const declared = Number(req.headers['content-length']);
  if (declared > maxBytes) return Promise.resolve({ kind: 'too-large' });
  if (req.readableEnded) return Promise.resolve({ kind: 'json', value: undefined });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (read: McpBodyRead): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      resolve(read);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      chunks.length = 0;
      req.pause();
      settle({ kind: 'too-large' });
    };
    req.on('data', onData);
    req.once('end', () => {
      settle({ kind: 'json', value: parseJson(Buffer.concat(chunks)) });
    });
    // The error listener stays: a late stream error has someone to hear it.
    req.on('error', () => {
      settle({ kind: 'cut-off' });
    });
    req.once('close', () => {
      if (!req.complete) settle({ kind: 'cut-off' });
    });
  });
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
