import { PromptEvaluationError } from '../../core/errors/prompt-evaluation-error.js';
import { answerBodyBytes, answerTooLarge } from '../answer-limit.js';

/** Where a response came from, for the message of {@link readJsonBody}. */
export interface JsonBodyContext {
  /** `ns/key` of the prompt, for error messages. */
  readonly prompt: string;
  /** The provider, for messages: `OpenAI`, `Anthropic`. */
  readonly provider: string;
  /** The API, for messages: `Responses`, `Messages`. */
  readonly api: string;
  /** The client's `baseURL`. */
  readonly baseURL: string;
  /** The path requested under `baseURL`: `/responses`, `/v1/messages`... */
  readonly path: string;
  /** What the base URL should have been, for messages: `an OpenAI-compatible API`. */
  readonly expected: string;
  /** How to fix the base URL, one or more sentences naming the client option and environment variable. */
  readonly fix: string;
  /**
   * The request's `maxAnswerChars`: a body longer than `answerBodyBytes` of it
   * is refused without being read whole. Absent: the body is read whatever its size.
   */
  readonly maxAnswerChars?: number | undefined;
}

/** How much of a body that is not JSON is read and quoted. */
const quotedChars = 200;
const readBytes = 4_096;
/** Decodes whole bodies (no `stream` option, so it keeps no state between calls). */
const utf8 = new TextDecoder();

/**
 * Reads the body of a successful provider response as JSON. A JSON content type
 * whose body does not parse rejects with the parser's `SyntaxError` (a
 * truncated body: retryable). Any other content type (the HTML page a web
 * server sends at a wrong `baseURL`) can never become an answer: it throws at
 * once, naming the URL, what came back and how to fix the base URL. Only the
 * first few kilobytes of such a body are read. With `context.maxAnswerChars`,
 * a body longer than {@link answerBodyBytes} of it (by its declared length, or
 * as it arrives) is refused: its reading stops there and the error of
 * `answerTooLarge` is thrown (docs/guide/guarantees.md).
 *
 * @throws PromptEvaluationError (phase `response`) for a body that is not JSON, or that is too long.
 */
export async function readJsonBody(response: Response, context: JsonBodyContext): Promise<unknown> {
  const contentType = response.headers.get('content-type') ?? '';
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType.includes('application/json') || mediaType.endsWith('+json')) {
    if (response.headers.get('content-length') === '0') return undefined;
    if (context.maxAnswerChars === undefined) {
      const json: unknown = await response.json();
      return json;
    }
    return JSON.parse(await readBounded(response, context.maxAnswerChars, context.prompt));
  }
  const start = quote(await readStart(response));
  const url = response.url === '' ? `${context.baseURL}${context.path}` : response.url;
  const got = mediaType === '' ? 'no content type' : mediaType;
  throw new PromptEvaluationError(
    `The ${context.provider} ${context.api} endpoint POST ${url} answered HTTP ${response.status} with ${got}, ` +
      `not JSON${start === '' ? ' (empty body)' : ` (body starts: "${start}")`}, so the client ` +
      `baseURL (${context.baseURL}) is likely not ${context.expected}. ${context.fix}`,
    {
      phase: 'response',
      prompt: context.prompt,
      providerPayload: { url, status: response.status, contentType, bodyStart: start },
    },
  );
}

/** One read of a body stream. */
type ReadResult = { done: true; value?: undefined } | { done: false; value: Uint8Array };

/** The first {@link readBytes} bytes of the body as text; the rest is never downloaded. */
async function readStart(response: Response): Promise<string> {
  const body = response.body;
  if (body === null) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < readBytes) {
      const { done, value } = (await reader.read()) as ReadResult;
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return utf8.decode(joined(chunks, size).subarray(0, readBytes));
}

/** The body as text, refused once it is longer than a whole answer of `maxAnswerChars` can be. */
async function readBounded(
  response: Response,
  maxAnswerChars: number,
  prompt: string,
): Promise<string> {
  const most = answerBodyBytes(maxAnswerChars);
  const tooLong = (found: string) =>
    answerTooLarge(
      prompt,
      maxAnswerChars,
      `its body ${found}, over the ${most} bytes it may take`,
      {
        bodyBytes: most,
      },
    );
  const declared = Number(response.headers.get('content-length') ?? NaN);
  const body = response.body;
  if (declared > most) {
    await body?.cancel().catch(() => undefined);
    throw tooLong(`declares ${declared} bytes`);
  }
  if (body === null) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = (await reader.read()) as ReadResult;
    if (done) break;
    size += value.byteLength;
    if (size > most) {
      await reader.cancel().catch(() => undefined);
      throw tooLong(`passed ${most} bytes`);
    }
    chunks.push(value);
  }
  // A body that came in one chunk (most answers) is decoded as it is, not copied first.
  return utf8.decode(chunks.length === 1 ? chunks[0] : joined(chunks, size));
}

/** `chunks` in one array of `size` bytes. */
function joined(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** One line of at most {@link quotedChars} characters, with a marker when cut. */
function quote(text: string): string {
  const line = text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
  return line.length <= quotedChars ? line : `${line.slice(0, quotedChars)}… (cut)`;
}
