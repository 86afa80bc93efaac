import type { IncomingMessage } from 'node:http';

import { ConfigurationError } from '../index.js';
import { quotedName } from '../provider/index.js';

/** The loopback host names accepted when no hosts are given. */
const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** The loopback origins accepted when no origins are given. */
const LOOPBACK_ORIGINS: readonly string[] = ['http', 'https'].flatMap((scheme) =>
  LOOPBACK_HOSTS.map((host) => `${scheme}://${host}`),
);

/** A host name, and the port it must come with (`undefined`: any port). */
interface HostPattern {
  readonly name: string;
  readonly port: string | undefined;
}

/** An origin's scheme and host. */
interface OriginPattern extends HostPattern {
  readonly scheme: string;
}

/** Options of a {@link HostOriginCheck}. */
export interface HostOriginCheckOptions {
  /**
   * The `Host` headers accepted (`name` or `name:port`; a name alone accepts
   * any port), or `'any'`. Default: the loopback names `localhost`,
   * `127.0.0.1` and `[::1]`, on any port.
   */
  readonly allowedHosts?: readonly string[] | 'any' | undefined;
  /**
   * The `Origin` headers accepted (`scheme://name[:port]`), or `'any'`; a
   * request without an `Origin` (not from a browser page) is not checked.
   * Default: `http` and `https` on the loopback names.
   */
  readonly allowedOrigins?: readonly string[] | 'any' | undefined;
}

/**
 * The DNS-rebinding protection of a local HTTP endpoint: a request whose
 * `Host` header is not an allowed host, or whose `Origin` header is not an
 * allowed origin, is refused before anything else is done with it. Loopback
 * only by default; `McpHttpHandler` and the inspector server check every
 * request with it.
 */
export class HostOriginCheck {
  readonly #hosts: readonly HostPattern[] | undefined;
  readonly #origins: readonly OriginPattern[] | undefined;

  /**
   * @param subject Names the endpoint in a configuration error (e.g. `McpHttpHandler`).
   * @throws ConfigurationError when an allowed host or origin is malformed.
   */
  constructor(options: HostOriginCheckOptions = {}, subject = 'HostOriginCheck') {
    this.#hosts = patterns(
      options.allowedHosts,
      LOOPBACK_HOSTS,
      'allowedHosts',
      splitHost,
      subject,
    );
    this.#origins = patterns(
      options.allowedOrigins,
      LOOPBACK_ORIGINS,
      'allowedOrigins',
      splitOrigin,
      subject,
    );
  }

  /** What is not allowed about `req` (e.g. `Host "evil.example" is not allowed`), or `undefined` when it passes. */
  refusal(req: IncomingMessage): string | undefined {
    const host = req.headers.host;
    if (this.#hosts !== undefined && !matchesHost(this.#hosts, host)) {
      return `Host ${host === undefined ? '(none)' : quotedName(host)} is not allowed`;
    }
    const origin = req.headers.origin;
    if (
      this.#origins !== undefined &&
      origin !== undefined &&
      !matchesOrigin(this.#origins, origin)
    ) {
      return `Origin ${quotedName(origin)} is not allowed`;
    }
    return undefined;
  }
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
  subject: string,
): readonly T[] | undefined {
  if (given === 'any') return undefined;
  const list: unknown = given ?? fallback;
  const example =
    option === 'allowedHosts'
      ? "`allowedHosts: ['localhost', 'mcp.example.com:8443']`"
      : "`allowedOrigins: ['https://app.example.com']`";
  if (!Array.isArray(list)) {
    throw new ConfigurationError({
      subject,
      problem: `${option} must be a list of strings or 'any', got ${typeof list}.`,
      fix: `Pass e.g. ${example}, \`${option}: 'any'\` to accept any, or leave it out for the loopback ones.`,
    });
  }
  return list.map((entry: unknown) => {
    const parsed = typeof entry === 'string' ? parse(entry) : undefined;
    if (parsed === undefined) {
      throw new ConfigurationError({
        subject,
        problem: `${option} has an entry that is not ${option === 'allowedHosts' ? 'a host name with an optional port' : 'an origin (scheme://host with an optional port)'}: ${JSON.stringify(entry)}.`,
        fix: `Pass e.g. ${example}.`,
      });
    }
    return parsed;
  });
}
