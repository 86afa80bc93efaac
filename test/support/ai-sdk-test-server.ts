import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { deferred, type Deferred } from './deferred.js';

/** A JSON object of a request or response body. */
export type Json = Record<string, unknown>;

/** What the server answers to one request. */
export interface WireReply {
  /** HTTP status; 200 by default. */
  readonly status?: number;
  /** Extra response headers (e.g. `retry-after`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON body. */
  readonly json?: unknown;
  /** A raw body, sent as is with `rawType` (default `application/json`). */
  readonly raw?: string;
  /** The content type of `raw`. */
  readonly rawType?: string;
  /** Never answer: the request hangs until the client gives up. */
  readonly hang?: boolean;
  /** Close the connection without answering. */
  readonly drop?: boolean;
  /** A streamed body: each entry as one `data:` line of server-sent events (objects as JSON, strings as they are). */
  readonly events?: readonly unknown[];
  /** With `events`: close the connection after this many events. */
  readonly dropAfter?: number;
}

/** A reply, or a function computing it from the request. */
export type WireResponder = WireReply | ((request: WireRequest) => WireReply);

/** One request the server received. */
export interface WireRequest {
  readonly method: string;
  /** The path without the query. */
  readonly path: string;
  /** The query parameters. */
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: Json;
  /** Resolves when the connection closes before the reply was finished. */
  readonly cutOff: Promise<void>;
}

/**
 * A local HTTP server on 127.0.0.1 that plays a provider's HTTP API for the
 * AI SDK provider packages: each request gets the next queued reply (JSON,
 * server-sent events, an error status, a dropped connection or no answer).
 * `problems()` lists requests nobody expected and requests `check` found wrong.
 */
export class WireTestServer {
  /** Every request received, in order. */
  readonly requests: WireRequest[] = [];
  readonly #server: Server;
  readonly #queue: WireResponder[] = [];
  readonly #problems: string[] = [];
  readonly #waiting: { count: number; done: Deferred<WireRequest> }[] = [];
  readonly #check: (request: WireRequest) => readonly string[];

  private constructor(server: Server, check: (request: WireRequest) => readonly string[]) {
    this.#server = server;
    this.#check = check;
  }

  /** Starts a server on a free port of 127.0.0.1; `check` lists what is wrong with a request. */
  static async start(
    check: (request: WireRequest) => readonly string[] = () => [],
  ): Promise<WireTestServer> {
    const handlers: ((request: IncomingMessage, response: ServerResponse) => void)[] = [];
    const server = createServer((request, response) => {
      for (const handler of handlers) handler(request, response);
    });
    const instance = new WireTestServer(server, check);
    handlers.push((request, response) => {
      void instance.handle(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return instance;
  }

  /** `http://127.0.0.1:<port>`. */
  get origin(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Queues replies, answered in order. */
  reply(...replies: WireResponder[]): this {
    this.#queue.push(...replies);
    return this;
  }

  /** How many queued replies are still unused. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Resolves when the `count`-th request (from 1) has arrived. */
  nthRequest(count: number): Promise<WireRequest> {
    const seen = this.requests[count - 1];
    if (seen !== undefined) return Promise.resolve(seen);
    const done = deferred<WireRequest>();
    this.#waiting.push({ count, done });
    return done.promise;
  }

  /** Requests without a queued reply, and what `check` found wrong. */
  problems(): string[] {
    return [...this.#problems];
  }

  /** Stops the server, cutting hanging connections. */
  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => {
      this.#server.close(() => {
        resolve();
      });
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = (text === '' ? {} : JSON.parse(text)) as Json;
    const url = new URL(request.url ?? '/', 'http://localhost');
    const cutOff = deferred();
    response.on('close', () => {
      if (!response.writableFinished) cutOff.resolve();
    });
    const recorded: WireRequest = {
      method: request.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      headers: request.headers,
      body,
      cutOff: cutOff.promise,
    };
    this.requests.push(recorded);
    const number = this.requests.length;
    this.#problems.push(...this.#check(recorded).map((line) => `request ${number}: ${line}`));
    for (const waiter of this.#waiting.filter((w) => w.count === number)) {
      waiter.done.resolve(recorded);
    }
    const next = this.#queue.shift();
    if (next === undefined) {
      this.#problems.push(`request ${number} ${recorded.path} had no queued reply`);
      send(response, { status: 400, json: { error: { message: 'test server: no reply queued' } } });
      return;
    }
    send(response, typeof next === 'function' ? next(recorded) : next);
  }
}

function send(response: ServerResponse, reply: WireReply): void {
  if (reply.hang === true) return;
  if (reply.drop === true) {
    response.socket?.destroy();
    return;
  }
  if (reply.events !== undefined) {
    void sendEvents(response, reply, reply.events);
    return;
  }
  response.writeHead(reply.status ?? 200, {
    'content-type':
      reply.raw === undefined ? 'application/json' : (reply.rawType ?? 'application/json'),
    'x-request-id': 'req_test',
    ...reply.headers,
  });
  response.end(reply.raw ?? JSON.stringify(reply.json ?? {}));
}

async function sendEvents(
  response: ServerResponse,
  reply: WireReply,
  events: readonly unknown[],
): Promise<void> {
  response.writeHead(reply.status ?? 200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-request-id': 'req_test',
    ...reply.headers,
  });
  response.flushHeaders();
  const stop = reply.dropAfter ?? events.length;
  for (const event of events.slice(0, stop)) {
    const data = typeof event === 'string' ? event : JSON.stringify(event);
    await new Promise<void>((resolve) => {
      response.write(`data: ${data}\n\n`, () => {
        resolve();
      });
    });
  }
  if (reply.dropAfter !== undefined) response.socket?.destroy();
  else response.end();
}
