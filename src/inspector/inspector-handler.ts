import type { IncomingMessage, ServerResponse } from 'node:http';

import { ConfigurationError } from 'affordance';
import type { SessionCodec, SessionStore } from 'affordance/durable';
import { HostOriginCheck, type HostOriginCheckOptions } from 'affordance/mcp';

import { escapeHtml } from './html/escape-html.js';
import {
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_FILES,
  type InspectorSource,
  inspectorSource,
} from './inspector-sessions.js';
import { renderInspectorHtml } from './render-inspector-html.js';

/** Options of {@link createInspectorHandler}. */
export interface InspectorHandlerOptions extends HostOriginCheckOptions {
  /**
   * Where the sessions are: a directory of session export files (`*.json`, as
   * `JSON.stringify(exportSession(session))` writes them), one such file, or
   * a `SessionStore` (sessions are then opened by id).
   */
  readonly sessions: string | SessionStore;
  /** For a store: the codec the application stores sessions with (its classes come back as they are). */
  readonly codec?: SessionCodec | undefined;
  /** The path the handler is mounted under (e.g. `/inspector` in a NestJS app); none by default. */
  readonly basePath?: string | undefined;
  /** The largest export file read, in bytes. Default 50 MiB. */
  readonly maxFileBytes?: number | undefined;
  /** The most files of a directory listed and served. Default 1000. */
  readonly maxFiles?: number | undefined;
}

/** Answers the inspector's requests; mount it in any Node HTTP server, Express or NestJS. */
export interface InspectorHandler {
  /**
   * Answers `req` on `res`: `GET /` lists the sessions, `GET /sessions/<name>`
   * is a session's page and `GET /sessions/<name>.json` its export; a request
   * with a foreign `Host` or `Origin` gets 403, any method but GET and HEAD
   * 405. Never rejects: a failure is answered 500 with its message.
   */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/**
 * The inspector as a request handler: read-only (GET and HEAD only), loopback
 * `Host` and `Origin` only unless `allowedHosts`/`allowedOrigins` say otherwise,
 * files served only by their plain names from the one directory given, and
 * no file larger than `maxFileBytes` read.
 *
 * @throws ConfigurationError when `sessions` is neither a readable directory or file nor a store.
 */
export async function createInspectorHandler(
  options: InspectorHandlerOptions,
): Promise<InspectorHandler> {
  const check = new HostOriginCheck(options, 'createInspectorHandler');
  const base = checkBasePath(options.basePath);
  const source = await inspectorSource(options.sessions, {
    codec: options.codec,
    maxFileBytes: positive(options.maxFileBytes, DEFAULT_MAX_FILE_BYTES, 'maxFileBytes'),
    maxFiles: positive(options.maxFiles, DEFAULT_MAX_FILES, 'maxFiles'),
  });
  return {
    handle: async (req, res) => {
      try {
        await answer(req, res, check, base, source);
      } catch (error) {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        send(
          res,
          req,
          500,
          'text/plain',
          `The inspector failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
  };
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  check: HostOriginCheck,
  base: string,
  source: InspectorSource,
): Promise<void> {
  const refused = check.refusal(req);
  if (refused !== undefined) {
    send(
      res,
      req,
      403,
      'text/plain',
      `Forbidden: ${refused} at this inspector (DNS rebinding protection).`,
    );
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    send(res, req, 405, 'text/plain', 'Method Not Allowed: the inspector only reads (GET, HEAD).');
    return;
  }
  const url = new URL(req.url ?? '/', 'http://inspector.invalid');
  let path = url.pathname;
  if (base !== '' && (path === base || path.startsWith(`${base}/`))) path = path.slice(base.length);
  if (path === '' || path === '/') {
    const id = url.searchParams.get('id');
    if (id !== null && id !== '') {
      // The index form of a store: on to the session's page.
      res.setHeader('Location', `${base}/sessions/${encodeURIComponent(id)}`);
      send(res, req, 303, 'text/plain', 'See Other');
      return;
    }
    send(res, req, 200, 'text/html', await indexPage(source, base));
    return;
  }
  const match = /^\/sessions\/([^/]+?)(\.json)?$/.exec(path);
  const name = match?.[1] === undefined ? undefined : safeDecode(match[1]);
  const exports = name === undefined ? undefined : await source.open(name);
  if (exports === undefined) {
    send(
      res,
      req,
      404,
      'text/plain',
      `Not Found: no session ${JSON.stringify(name ?? path)} here.`,
    );
    return;
  }
  if (match?.[2] === '.json')
    send(
      res,
      req,
      200,
      'application/json',
      JSON.stringify(exports.length === 1 ? exports[0] : exports),
    );
  else send(res, req, 200, 'text/html', renderInspectorHtml(exports));
}

async function indexPage(source: InspectorSource, base: string): Promise<string> {
  const names = await source.list();
  const link = (name: string) => `${base}/sessions/${encodeURIComponent(name)}`;
  const body =
    names === undefined
      ? `<form method="get" action="${escapeHtml(`${base}/`)}"><label>Session id <input name="id" required></label> <button>Open</button></form>`
      : names.length === 0
        ? '<p>No session exports here.</p>'
        : `<ul class="sessions">${names.map((name) => `<li><a href="${escapeHtml(link(name))}">${escapeHtml(name)}</a> <a class="json" href="${escapeHtml(`${link(name)}.json`)}">JSON</a></li>`).join('')}</ul>`;
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'">` +
    '<title>Sessions</title><style>body { font: 14px/1.5 system-ui, sans-serif; margin: 24px; }</style></head><body>' +
    `<h1>Sessions</h1><p>From ${escapeHtml(source.description)}.</p>${body}</body></html>`
  );
}

function send(
  res: ServerResponse,
  req: IncomingMessage,
  status: number,
  type: string,
  body: string,
): void {
  res.statusCode = status;
  res.setHeader('Content-Type', `${type}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.end(req.method === 'HEAD' ? undefined : body);
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function checkBasePath(path: string | undefined): string {
  if (path === undefined || path === '' || path === '/') return '';
  if (!/^\/[A-Za-z0-9._~/-]*[^/]$/.test(path)) {
    throw new ConfigurationError({
      subject: 'createInspectorHandler',
      problem: `basePath ${JSON.stringify(path)} is not a path like "/inspector".`,
      fix: 'Pass the path the handler is mounted under, starting with "/" and without a trailing "/".',
    });
  }
  return path;
}

function positive(value: number | undefined, fallback: number, option: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new ConfigurationError({
      subject: 'createInspectorHandler',
      problem: `${option} must be a positive whole number, got ${String(value)}.`,
      fix: `Pass e.g. ${option}: ${fallback}, or leave it out.`,
    });
  }
  return value;
}
