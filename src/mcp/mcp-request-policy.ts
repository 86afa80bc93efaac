import type { IncomingMessage } from 'node:http';

import { ConfigurationError } from '../index.js';
import { quotedName } from '../provider/index.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_SESSIONS,
  LOOPBACK_HOSTS,
  LOOPBACK_ORIGINS,
  type McpHttpHandlerOptions,
} from './mcp-http-handler-options.js';
import type { McpRefusal } from './mcp-refusal.js';

/** A host name, and the port it must come with (`undefined`: any port). */
interface HostPattern {
  readonly name: string;
  readonly port: string | undefined;
}

/** An origin's scheme and host. */
interface OriginPattern extends HostPattern {
  readonly scheme: string;
}

/**
 * The checks an {@link McpHttpHandler} runs on every request before any
 * session work (docs/guide/mcp.md): Host (DNS rebinding),
 * Origin, and for a POST its Content-Type and Accept; and its limits, checked
 * once when the handler is built. @internal
 */
export class McpRequestPolicy {
  readonly maxBodyBytes: number;
  readonly maxSessions: number;
  readonly #hosts: readonly HostPattern[] | undefined;
  readonly #origins: readonly OriginPattern[] | undefined;

  constructor(options: McpHttpHandlerOptions) {
    this.#hosts = patterns(options.allowedHosts, LOOPBACK_HOSTS, 'allowedHosts', splitHost);
    this.#origins = patterns(
      options.allowedOrigins,
      LOOPBACK_ORIGINS,
      'allowedOrigins',
      splitOrigin,
    );
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
    const host = req.headers.host;
    if (this.#hosts !== undefined && !matchesHost(this.#hosts, host)) {
      return forbidden(`Host ${host === undefined ? '(none)' : quotedName(host)} is not allowed`);
    }
    const origin = req.headers.origin;
    if (
      this.#origins !== undefined &&
      origin !== undefined &&
      !matchesOrigin(this.#origins, origin)
    ) {
      return forbidden(`Origin ${quotedName(origin)} is not allowed`);
    }
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

function matchesHost(allowed: readonly HostPattern[], header: string | undefined): boolean {
  const host = header === undefined ? undefined : splitHost(header);
  return host !== undefined && allowed.some((pattern) => matches(pattern, host));
}

function matchesOrigin(allowed: readonly OriginPattern[], header: string): boolean {
  const origin = splitOrigin(header);
  return (
    origin !== undefined &&
    allowed.some((pattern) => pattern.scheme === origin.scheme && matches(pattern, origin))
  );
}

function matches(pattern: HostPattern, host: HostPattern): boolean {
  return pattern.name === host.name && (pattern.port === undefined || pattern.port === host.port);
}

/** `name[:port]` (an IPv6 name in brackets), the name in lower case; `undefined` when malformed. */
function splitHost(text: string): HostPattern | undefined {
  const bracket = text.startsWith('[') ? text.indexOf(']') : -1;
  const colon = text.indexOf(':', bracket + 1);
  const name = (colon < 0 ? text : text.slice(0, colon)).toLowerCase();
  const port = colon < 0 ? undefined : text.slice(colon + 1);
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)$/.test(name)) return undefined;
  if (port !== undefined && !/^\d{1,5}$/.test(port)) return undefined;
  return { name, port };
}

/** `scheme://name[:port]`, the scheme in lower case; `undefined` when malformed. */
function splitOrigin(text: string): OriginPattern | undefined {
  const match = /^([a-z][a-z0-9+.-]*):\/\/(.+)$/i.exec(text);
  const host = match?.[2] === undefined ? undefined : splitHost(match[2]);
  if (match?.[1] === undefined || host === undefined) return undefined;
  return { scheme: match[1].toLowerCase(), ...host };
}

/** The checked patterns of `given` (`undefined`: `'any'`, no check), `fallback` when left out. */
function patterns<T>(
  given: readonly string[] | 'any' | undefined,
  fallback: readonly string[],
  option: 'allowedHosts' | 'allowedOrigins',
  parse: (text: string) => T | undefined,
): readonly T[] | undefined {
  if (given === 'any') return undefined;
  const list: unknown = given ?? fallback;
  const example =
    option === 'allowedHosts'
      ? "`allowedHosts: ['localhost', 'mcp.example.com:8443']`"
      : "`allowedOrigins: ['https://app.example.com']`";
  if (!Array.isArray(list)) {
    throw new ConfigurationError({
      subject: 'McpHttpHandler',
      problem: `${option} must be a list of strings or 'any', got ${typeof list}.`,
      fix: `Pass e.g. ${example}, \`${option}: 'any'\` to accept any, or leave it out for the loopback ones.`,
    });
  }
  return list.map((entry: unknown) => {
    const parsed = typeof entry === 'string' ? parse(entry) : undefined;
    if (parsed === undefined) {
      throw new ConfigurationError({
        subject: 'McpHttpHandler',
        problem: `${option} has an entry that is not ${option === 'allowedHosts' ? 'a host name with an optional port' : 'an origin (scheme://host with an optional port)'}: ${JSON.stringify(entry)}.`,
        fix: `Pass e.g. ${example}.`,
      });
    }
    return parsed;
  });
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
