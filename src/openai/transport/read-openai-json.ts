import { readJsonBody } from '../../provider/index.js';

/** Where an OpenAI response came from, for the message of {@link readOpenAIJson}. */
export interface OpenAIJsonContext {
  /** `ns/key` of the prompt, for error messages. */
  readonly prompt: string;
  /** `Responses` or `Chat Completions`, for error messages. */
  readonly api: string;
  /** The client's `baseURL`. */
  readonly baseURL: string;
  /** The path requested under `baseURL`: `/responses` or `/chat/completions`. */
  readonly path: string;
  /** The request's `maxAnswerChars`: a longer body is refused unread (see `readJsonBody`). */
  readonly maxAnswerChars: number | undefined;
}

/**
 * Reads the body of a successful OpenAI response as JSON with `readJsonBody`:
 * a body that is not JSON (a web page at a wrong `baseURL`) fails at once,
 * naming the URL and how to set `baseURL` (or `OPENAI_BASE_URL`); a body
 * longer than an answer of `maxAnswerChars` can be fails without being read whole.
 */
export function readOpenAIJson(response: Response, context: OpenAIJsonContext): Promise<unknown> {
  return readJsonBody(response, {
    prompt: context.prompt,
    provider: 'OpenAI',
    api: context.api,
    baseURL: context.baseURL,
    path: context.path,
    expected: 'an OpenAI-compatible API',
    fix: fixFor(context.path),
    maxAnswerChars: context.maxAnswerChars,
  });
}

/** The advice for a base URL that does not serve `path`, by path (one or two paths, built once each). */
const fixes = new Map<string, string>();

function fixFor(path: string): string {
  let fix = fixes.get(path);
  if (fix === undefined) {
    fix =
      `Set the client baseURL (or OPENAI_BASE_URL) to the API root that serves ${path}, ` +
      'e.g. https://api.openai.com/v1' +
      `${path === '/responses' ? "; for a server that speaks only Chat Completions, use api: 'chat'" : ''}.`;
    fixes.set(path, fix);
  }
  return fix;
}
