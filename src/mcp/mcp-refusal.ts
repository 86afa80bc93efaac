import type { ServerResponse } from 'node:http';

/** Why a request to the MCP endpoint is answered without reaching a session. @internal */
export interface McpRefusal {
  readonly status: number;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * Answers `res` with a JSON-RPC error for `refusal`; nothing when the response
 * was already started or its socket is gone (nobody is left to read it). @internal
 */
export function refuse(res: ServerResponse, refusal: McpRefusal): void {
  if (res.headersSent || res.destroyed || res.writableEnded) return;
  const message = JSON.stringify({
    jsonrpc: '2.0',
    error: { code: -32000, message: refusal.message },
    id: null,
  });
  res.writeHead(refusal.status, { ...refusal.headers, 'content-type': 'application/json' });
  res.end(message);
}

/** Error codes of a connection the client closed or broke (a client fault, not a server one). */
const CLIENT_GONE_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_STREAM_DESTROYED',
  'ERR_STREAM_WRITE_AFTER_END',
]);

/**
 * Whether `error` only says the client's connection went away while it was
 * read or written (an aborted request, a reset socket): nothing to answer and
 * nothing wrong with the server. @internal
 */
export function isClientGone(error: unknown, res: ServerResponse): boolean {
  const gone = res.destroyed || res.socket === null || res.socket.destroyed;
  if (!gone || !(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    (typeof code === 'string' && CLIENT_GONE_CODES.has(code)) ||
    error.message === 'aborted' ||
    error.name === 'AbortError'
  );
}
