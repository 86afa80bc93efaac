import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { message as anthropicMessage, messageEvents, text } from './anthropic-payloads.js';
import { message, responseBody } from './openai-payloads.js';
import { responsesStreamEvents } from './responses-stream-events.js';

/** Which wire format the server speaks. */
export type HugeAnswerApi = 'openai-responses' | 'anthropic-messages';

/** What the server sent for one request. */
export interface SentAnswer {
  /** Whether the request asked for a stream. */
  readonly streamed: boolean;
  /** Characters of answer text written to the socket. */
  readonly textChars: number;
  /** Whether the client closed the connection before the answer was complete. */
  readonly cut: boolean;
}

const MARK = '@@HUGE@@';
/** Characters of text per streamed delta, and per written piece of a whole body. */
const PIECE = 16 * 1024;

/**
 * A provider on 127.0.0.1 whose every answer is one assistant message of
 * `textChars` characters (`x`), whole (a JSON body sent in pieces, without a
 * content length, so it can only be known long by reading it) or streamed
 * (16 KiB text deltas). Each piece waits for the socket to drain, so a client
 * that stops reading stops the server; `answers()` says how much each request
 * got before it ended or was cut.
 */
export class HugeAnswerServer {
  readonly #server: Server;
  readonly #sent: SentAnswer[] = [];
  readonly #finished: Promise<void>[] = [];
  /** The streamed Responses message, whose id the deltas name. */
  readonly #message = message('');

  private constructor(
    readonly api: HugeAnswerApi,
    readonly textChars: number,
  ) {
    this.#server = createServer((request, response) => {
      this.#handle(request, response);
    });
  }

  /** Starts the server on a free port. */
  static async start(api: HugeAnswerApi, textChars: number): Promise<HugeAnswerServer> {
    const instance = new HugeAnswerServer(api, textChars);
    await new Promise<void>((resolve) => instance.#server.listen(0, '127.0.0.1', resolve));
    return instance;
  }

  /** The base URL for the SDK client (`/v1` included for OpenAI). */
  get baseURL(): string {
    const root = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this.api === 'openai-responses' ? `${root}/v1` : root;
  }

  /** What each request got so far, once every answer has ended (written whole or cut). */
  async answers(): Promise<readonly SentAnswer[]> {
    await Promise.all(this.#finished);
    return this.#sent;
  }

  /** Stops the server. */
  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => {
      this.#server.close(() => {
        resolve();
      });
    });
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      const streamed = (JSON.parse(body) as { stream?: boolean }).stream === true;
      this.#finished.push(this.#answer(streamed, response));
    });
  }

  async #answer(streamed: boolean, response: ServerResponse): Promise<void> {
    const state: { cut: boolean } = { cut: false };
    const closed = new Promise<void>((resolve) => {
      response.once('close', () => {
        if (!response.writableFinished) state.cut = true;
        resolve();
      });
    });
    const [before, after] = streamed ? this.#events() : this.#body();
    response.writeHead(200, {
      'content-type': streamed ? 'text/event-stream; charset=utf-8' : 'application/json',
    });
    let textChars = 0;
    const write = async (chunk: string): Promise<boolean> => {
      if (state.cut || response.destroyed) return false;
      if (!response.write(chunk)) {
        await Promise.race([new Promise((resolve) => response.once('drain', resolve)), closed]);
      }
      return !(state.cut as boolean) && !response.destroyed;
    };
    let going = await write(before);
    while (going && textChars < this.textChars) {
      const size = Math.min(PIECE, this.textChars - textChars);
      going = await write(streamed ? this.#delta('x'.repeat(size)) : 'x'.repeat(size));
      if (going) textChars += size;
    }
    if (going && (await write(after))) response.end();
    this.#sent.push({ streamed, textChars, cut: state.cut });
  }

  /** A whole body around the text: what comes before it and after it. */
  #body(): [string, string] {
    const whole =
      this.api === 'openai-responses'
        ? responseBody([message(MARK)])
        : anthropicMessage([text(MARK)]);
    const [before = '', after = ''] = JSON.stringify(whole).split(MARK);
    return [before, after];
  }

  /** The stream's events around the text deltas. */
  #events(): [string, string] {
    if (this.api === 'openai-responses') {
      const events = responsesStreamEvents(responseBody([this.#message]));
      const at = events.findIndex((event) => event.includes('"response.output_text.done"'));
      return [sse(events.slice(0, at)), sse(events.slice(at))];
    }
    const events = messageEvents(anthropicMessage([text('')])).map((event) => ({
      type: String(event['type']),
      data: JSON.stringify(event),
    }));
    const at = events.findIndex((event) => event.type === 'content_block_stop');
    // The one empty text delta of an empty block is left out: the deltas are the server's own.
    const opening = events.slice(0, at).filter((event) => event.type !== 'content_block_delta');
    return [anthropicSse(opening), anthropicSse(events.slice(at))];
  }

  /** One text delta event. */
  #delta(piece: string): string {
    if (this.api === 'openai-responses') {
      return sse([
        JSON.stringify({
          type: 'response.output_text.delta',
          item_id: this.#message['id'],
          output_index: 0,
          content_index: 0,
          delta: piece,
          logprobs: [],
        }),
      ]);
    }
    const event = {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: piece },
    };
    return anthropicSse([{ type: event.type, data: JSON.stringify(event) }]);
  }
}

function sse(events: readonly string[]): string {
  return events.map((data) => `data: ${data}\n\n`).join('');
}

function anthropicSse(events: readonly { type: string; data: string }[]): string {
  return events.map(({ type, data }) => `event: ${type}\ndata: ${data}\n\n`).join('');
}
