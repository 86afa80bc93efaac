import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import OpenAI, { type ClientOptions } from 'openai';

import { deferred, type Deferred } from './deferred.js';
import { openAIRequestViolations, requestSchemaFor } from './openai-schema-validator.js';

/** What the test server answers to one request. */
export interface Reply {
  /** HTTP status; 200 by default. */
  readonly status?: number;
  /** Extra response headers (e.g. `retry-after`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON body. */
  readonly json?: unknown;
  /** A raw body, sent as is with `content-type: application/json` (e.g. malformed JSON). */
  readonly raw?: string;
  /** Never answer: the request hangs until the client gives up. */
  readonly hang?: boolean;
  /** Close the connection without answering. */
  readonly drop?: boolean;
  /**
   * A streamed body (`text/event-stream`): each event sent as `data: <text>\n\n`
   * (after `event: <name>\n` when it has a name), then `data: [DONE]\n\n`.
   */
  readonly sse?: readonly SseEvent[];
  /** With `sse`: close the connection after this many events, without finishing the body. */
  readonly dropAfter?: number;
  /** With `sse`: send this many events, then keep the connection open and send nothing more. */
  readonly holdAfter?: number;
}

/** One server-sent event: its `data` text, or a named event. */
export type SseEvent = string | { readonly event: string; readonly data: string };

/** A reply, or a function computing it from the request. */
export type Responder = Reply | ((request: RecordedRequest) => Reply);

/** One request the server received. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** The query string, `?` included (`''` when none), e.g. Azure's `?api-version=...`. */
  readonly search: string;
  readonly headers: IncomingMessage['headers'];
  /** The JSON body. */
  readonly body: Record<string, unknown>;
  /** Violations of OpenAI's published request schema (empty when valid). */
  readonly violations: readonly string[];
  /** Resolves when the connection closes before the reply was finished (the client gave up). */
  readonly cutOff: Promise<void>;
}

/**
 * A local HTTP server on 127.0.0.1 that plays OpenAI: each request is
 * answered with the next queued reply, and every request body is validated
 * against OpenAI's published schema (`CreateResponse`,
 * `CreateChatCompletionRequest`). `problems()` lists schema violations and
 * requests nobody expected; assert it is empty after each test.
 */
export class OpenAITestServer {
  /** Every request received, in order. */
  readonly requests: RecordedRequest[] = [];
  readonly #server: Server;
  readonly #queue: Responder[] = [];
  readonly #unexpected: string[] = [];
  readonly #waiting: { count: number; done: Deferred<RecordedRequest> }[] = [];

  private constructor(server: Server) {
    this.#server = server;
  }

  /** Starts a server on a free port of 127.0.0.1. */
  static async start(): Promise<OpenAITestServer> {
    const handlers: ((request: IncomingMessage, response: ServerResponse) => void)[] = [];
    const server = createServer((request, response) => {
      for (const handler of handlers) handler(request, response);
    });
    const instance = new OpenAITestServer(server);
    handlers.push((request, response) => {
      void instance.handle(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return instance;
  }

  /** `http://127.0.0.1:<port>/v1`. */
  get baseURL(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/v1`;
  }

  /**
   * A real SDK client for this server. It keeps the SDK's default of 2
   * retries, so tests show that the adapter turns them off.
   */
  client(options: Partial<ClientOptions> = {}): OpenAI {
    return new OpenAI({ apiKey: 'sk-test', baseURL: this.baseURL, timeout: 10_000, ...options });
  }

  /** Queues replies, answered in order. */
  reply(...replies: Responder[]): this {
    this.#queue.push(...replies);
    return this;
  }

  /** How many queued replies are still unused. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Resolves when the `count`-th request (from 1) has arrived. */
  nthRequest(count: number): Promise<RecordedRequest> {
    const seen = this.requests[count - 1];
    if (seen !== undefined) return Promise.resolve(seen);
    const done = deferred<RecordedRequest>();
    this.#waiting.push({ count, done });
    return done.promise;
  }

  /** Schema violations of every request, and requests that found no queued reply. */
  problems(): string[] {
    const violations = this.requests.flatMap((request, index) =>
      request.violations.map((line) => `request ${index + 1} ${request.path}: ${line}`),
    );
    return [...violations, ...this.#unexpected];
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
    const body = (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
    const url = new URL(request.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const schema = requestSchemaFor(path);
    const cutOff = deferred();
    response.on('close', () => {
      if (!response.writableFinished) cutOff.resolve();
    });
    const recorded: RecordedRequest = {
      method: request.method ?? 'GET',
      path,
      search: url.search,
      headers: request.headers,
      body,
      violations:
        schema === undefined
          ? [`no published schema for ${path}`]
          : openAIRequestViolations(schema, body),
      cutOff: cutOff.promise,
    };
    this.requests.push(recorded);
    for (const waiter of this.#waiting.filter((w) => w.count === this.requests.length)) {
      waiter.done.resolve(recorded);
    }
    const next = this.#queue.shift();
    if (next === undefined) {
      this.#unexpected.push(`request ${this.requests.length} ${path} had no queued reply`);
      send(response, { status: 500, json: { error: { message: 'test server: no reply queued' } } });
      return;
    }
    send(response, typeof next === 'function' ? next(recorded) : next);
  }
}

function send(response: ServerResponse, reply: Reply): void {
  if (reply.hang === true) return;
  if (reply.drop === true) {
    response.socket?.destroy();
    return;
  }
  if (reply.sse !== undefined) {
    void sendEvents(response, reply, reply.sse);
    return;
  }
  const body = reply.raw ?? JSON.stringify(reply.json ?? {});
  response.writeHead(reply.status ?? 200, {
    'content-type': 'application/json',
    'x-request-id': `req_test_${Date.now()}`,
    ...reply.headers,
  });
  response.end(body);
}

/** Sends `events` one write at a time, then `[DONE]`, or stops as `dropAfter` / `holdAfter` say. */
async function sendEvents(
  response: ServerResponse,
  reply: Reply,
  events: readonly SseEvent[],
): Promise<void> {
  response.writeHead(reply.status ?? 200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-request-id': `req_test_${Date.now()}`,
    ...reply.headers,
  });
  response.flushHeaders();
  const stop = reply.dropAfter ?? reply.holdAfter ?? events.length;
  for (const event of events.slice(0, stop)) {
    const frame =
      typeof event === 'string'
        ? `data: ${event}\n\n`
        : `event: ${event.event}\ndata: ${event.data}\n\n`;
    // Each write is flushed before the next, so a drop comes after the events it follows.
    await new Promise<void>((resolve) => {
      response.write(frame, () => {
        resolve();
      });
    });
  }
  if (reply.dropAfter !== undefined) response.socket?.destroy();
  else if (reply.holdAfter === undefined) response.end('data: [DONE]\n\n');
}
