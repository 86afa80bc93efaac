import type { IncomingMessage } from 'node:http';

import { ConfigurationError } from '../index.js';
import { HostOriginCheck } from './host-origin-check.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_SESSIONS,
  type McpHttpHandlerOptions,
} from './mcp-http-handler-options.js';
import type { McpRefusal } from './mcp-refusal.js';

/**
 * The checks an {@link McpHttpHandler} runs on every request before any
 * session work (docs/guide/mcp.md): Host (DNS rebinding),
 * Origin, and for a POST its Content-Type and Accept; and its limits, checked
 * once when the handler is built. @internal
 */
export class McpRequestPolicy {
  readonly maxBodyBytes: number;
  readonly maxSessions: number;
  readonly #hostOrigin: HostOriginCheck;

  constructor(options: McpHttpHandlerOptions) {
    this.#hostOrigin = new HostOriginCheck(options, 'McpHttpHandler');
    this.maxBodyBytes = limit(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes', [
      '`maxBodyBytes: 1_048_576` (1 MiB)',
      'leave it out for 4 MiB',
    ]);
    this.maxSessions = limit(options.maxSessions, DEFAULT_MAX_SESSIONS, 'maxSessions', [
      '`maxSessions: 500`',
      '`Number.POSITIVE_INFINITY` for no cap',
      'leave it out for 100',
    ]);
  }

  /** Why `req` is refused before anything else is done with it, or `undefined`. */
  check(req: IncomingMessage): McpRefusal | undefined {
    const refused = this.#hostOrigin.refusal(req);
    if (refused !== undefined) return forbidden(refused);
    return req.method === 'POST' ? checkPost(req) : undefined;
  }
}

function forbidden(what: string): McpRefusal {
  return {
    status: 403,
    message: `Forbidden: ${what} at this MCP endpoint (DNS rebinding protection).`,
  };
}

/** A POST must send JSON and accept both JSON and an event stream (the Streamable HTTP transport). */
function checkPost(req: IncomingMessage): McpRefusal | undefined {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    return {
      status: 415,
      message: 'Unsupported Media Type: an MCP request must have Content-Type: application/json.',
    };
  }
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return {
      status: 406,
      message:
        'Not Acceptable: an MCP client must accept both application/json and text/event-stream.',
    };
  }
  return undefined;
}

/** A positive whole-number limit, `fallback` when left out. */
function limit(
  given: number | undefined,
  fallback: number,
  option: 'maxBodyBytes' | 'maxSessions',
  examples: readonly string[],
): number {
  if (given === undefined) return fallback;
  if (given === Number.POSITIVE_INFINITY && option === 'maxSessions') return given;
  if (!Number.isSafeInteger(given) || given <= 0) {
    throw new ConfigurationError({
      subject: 'McpHttpHandler',
      problem: `${option} must be a positive whole number, got ${String(given)}.`,
      fix: `Pass e.g. ${examples.join(', ')}.`,
    });
  }
  return given;
}
