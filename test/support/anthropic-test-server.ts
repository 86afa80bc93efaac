import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import Anthropic, { type ClientOptions } from '@anthropic-ai/sdk';

import { anthropicRequestViolations } from './anthropic-request-check.js';
import { deferred, type Deferred } from './deferred.js';

/** A recognisable API key: no error, event or payload may ever show it. */
export const TEST_ANTHROPIC_KEY = 'sk-ant-api03-TESTKEY-do-not-leak-0123456789abcdef';

/** What the test server answers to one request. */
export interface AnthropicReply {
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
  /** A streamed body: each event as `event: <its type>` and `data: <JSON>`. */
  readonly events?: readonly unknown[];
  /** With `events`: close the connection after this many events. */
  readonly dropAfter?: number;
}

/** A reply, or a function computing it from the request. */
export type AnthropicResponder =
  AnthropicReply | ((request: AnthropicRecordedRequest) => AnthropicReply);

/** One request the server received. */
export interface AnthropicRecordedRequest {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
  /** Violations of the SDK's request types (empty when the body fits). */
  readonly violations: readonly string[];
  /** Resolves when the connection closes before the reply was finished. */
  readonly cutOff: Promise<void>;
}

/**
 * A local HTTP server on 127.0.0.1 that plays the Anthropic Messages API
 * (`POST /v1/messages`): each request gets the next queued reply, and every
 * body is checked against the SDK's request types. `problems()` lists
 * violations, requests nobody expected and requests that did not carry the
 * test key as `Authorization: Bearer`.
 */
export class AnthropicTestServer {
  /** Every request received, in order. */
  readonly requests: AnthropicRecordedRequest[] = [];
  readonly #server: Server;
  readonly #queue: AnthropicResponder[] = [];
  readonly #unexpected: string[] = [];
  readonly #waiting: { count: number; done: Deferred<AnthropicRecordedRequest> }[] = [];

  private constructor(server: Server) {
    this.#server = server;
  }

  /** Starts a server on a free port of 127.0.0.1. */
  static async start(): Promise<AnthropicTestServer> {
    const handlers: ((request: IncomingMessage, response: ServerResponse) => void)[] = [];
    const server = createServer((request, response) => {
      for (const handler of handlers) handler(request, response);
    });
    const instance = new AnthropicTestServer(server);
    handlers.push((request, response) => {
      void instance.handle(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return instance;
  }

  /** `http://127.0.0.1:<port>` (the SDK adds `/v1/messages`). */
  get baseURL(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** A real SDK client for this server, with the SDK's default retries (the adapter turns them off). */
  client(options: Partial<ClientOptions> = {}): Anthropic {
    return new Anthropic({ apiKey: TEST_ANTHROPIC_KEY, baseURL: this.baseURL, ...options });
  }

  /** Queues replies, answered in order. */
  reply(...replies: AnthropicResponder[]): this {
    this.#queue.push(...replies);
    return this;
  }

  /** How many queued replies are still unused. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Resolves when the `count`-th request (from 1) has arrived. */
  nthRequest(count: number): Promise<AnthropicRecordedRequest> {
    const seen = this.requests[count - 1];
    if (seen !== undefined) return Promise.resolve(seen);
    const done = deferred<AnthropicRecordedRequest>();
    this.#waiting.push({ count, done });
    return done.promise;
  }

  /** Type violations of every request, requests without a queued reply, and wrong credentials. */
  problems(): string[] {
    const violations = this.requests.flatMap((request, index) => [
      ...request.violations.map((line) => `request ${index + 1} ${request.path}: ${line}`),
      ...(request.headers.authorization === `Bearer ${TEST_ANTHROPIC_KEY}`
        ? []
        : [`request ${index + 1}: no Authorization: Bearer <test key>`]),
    ]);
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
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const cutOff = deferred();
    response.on('close', () => {
      if (!response.writableFinished) cutOff.resolve();
    });
    const recorded: AnthropicRecordedRequest = {
      path,
      headers: request.headers,
      body,
      violations:
        path === '/v1/messages' && request.method === 'POST'
          ? anthropicRequestViolations(body)
          : [`unexpected ${request.method ?? ''} ${path}`],
      cutOff: cutOff.promise,
    };
    this.requests.push(recorded);
    for (const waiter of this.#waiting.filter((w) => w.count === this.requests.length)) {
      waiter.done.resolve(recorded);
    }
    const next = this.#queue.shift();
    if (next === undefined) {
      this.#unexpected.push(`request ${this.requests.length} ${path} had no queued reply`);
      send(response, { status: 500, json: errorBody('api_error', 'test server: no reply queued') });
      return;
    }
    send(response, typeof next === 'function' ? next(recorded) : next);
  }
}

/** An Anthropic error body. */
export function errorBody(type: string, message: string): Record<string, unknown> {
  return { type: 'error', error: { type, message }, request_id: 'req_test' };
}

function send(response: ServerResponse, reply: AnthropicReply): void {
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
    'request-id': 'req_test',
    ...reply.headers,
  });
  response.end(reply.raw ?? JSON.stringify(reply.json ?? {}));
}

async function sendEvents(
  response: ServerResponse,
  reply: AnthropicReply,
  events: readonly unknown[],
): Promise<void> {
  response.writeHead(reply.status ?? 200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'request-id': 'req_test',
    ...reply.headers,
  });
  response.flushHeaders();
  const stop = reply.dropAfter ?? events.length;
  for (const event of events.slice(0, stop)) {
    const type = String((event as { type?: unknown }).type);
    await new Promise<void>((resolve) => {
      response.write(`event: ${type}\ndata: ${JSON.stringify(event)}\n\n`, () => {
        resolve();
      });
    });
  }
  if (reply.dropAfter !== undefined) response.socket?.destroy();
  else response.end();
}
