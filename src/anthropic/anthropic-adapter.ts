import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { inject, injectable, optional } from 'inversify';

import { NativeTool, PromptValidationError, type ToolDefinition } from '../index.js';
import {
  checkAnswerSize,
  providerCapabilities,
  ProviderAdapter,
  type ProviderCapabilities,
  type ProviderRequest,
  type ProviderStreamPart,
  type ProviderTurn,
  readJsonBody,
  type RetryContext,
  SecretRedactor,
  sendWithRetries,
  withRequestSignal,
} from '../provider/index.js';
import { AnthropicAdapterOptions } from './anthropic-adapter-options.js';
import { checkAnthropicOptions } from './check-anthropic-options.js';
import {
  buildMessagesRequest,
  type MessagesRequestPlan,
} from './request/build-messages-request.js';
import { nativeToolEntry, serverToolOf } from './request/native-tool-entry.js';
import { streamMessages } from './stream/stream-messages.js';
import {
  anthropicRejectionHint,
  classifyAnthropicError,
} from './transport/classify-anthropic-error.js';
import { continuedBody, isPaused, mergeMessages } from './turn/pause-turn.js';
import { type MessagesTurnContext, readMessagesTurn } from './turn/read-messages-turn.js';

/** `pause_turn`s continued when `maxPauseContinuations` is not set. */
const defaultMaxPauses = 8;

/**
 * A `ProviderAdapter` over the official `@anthropic-ai/sdk`, speaking the
 * Messages API (`POST /v1/messages`). It only translates: the runtime runs
 * the loop, the tools, deadlines and budgets. The SDK's own retries are off
 * per request and an explicit `timeout` is always passed (which also turns
 * off the SDK's refusal of non-streamed requests with a large `max_tokens`);
 * the adapter retries 408, 409, 429, 529 and other 5xx, connection errors and
 * timeouts itself (see `RetryOptions`), never past the deadline. A
 * `pause_turn` (a long server-tool turn) is continued inside the adapter,
 * so the runtime sees one turn. API keys never show: the client is kept in a
 * private field and the errors it throws are scrubbed of the configured key,
 * `sk-` tokens and bearer tokens.
 *
 * @example
 * container.bind(Anthropic).toConstantValue(new Anthropic());
 * container.bind(AnthropicAdapterOptions).toConstantValue({ model: 'claude-sonnet-4-6' });
 * container.bind(ProviderAdapter).to(AnthropicAdapter).inSingletonScope();
 */
@injectable()
export class AnthropicAdapter extends ProviderAdapter {
  override readonly name: string = 'anthropic';
  /** The model requests ask for (`options.model`). */
  override readonly model: string;
  // The client and the options hold the API key: kept in private fields (see toJSON and [inspect.custom]).
  readonly #client: Anthropic;
  readonly #options: AnthropicAdapterOptions;
  readonly #redactor: SecretRedactor;
  /**
   * What this adapter can do: strict tools only with `strictTools: true`;
   * native (server) tools; parallel calls unless `parallelToolCalls: false`;
   * native structured output unless `structuredOutput: 'text'`; streaming.
   */
  readonly capabilities: ProviderCapabilities;

  /**
   * @param client the SDK client; when the container has none bound to
   *   `Anthropic`, one is built from `options.client` (reading
   *   `ANTHROPIC_API_KEY` and `ANTHROPIC_BASE_URL` as the SDK does).
   */
  constructor(
    @inject(Anthropic) @optional() client: Anthropic | undefined,
    @inject(AnthropicAdapterOptions) options: AnthropicAdapterOptions,
  ) {
    super();
    this.#options = checkAnthropicOptions(options);
    this.model = options.model;
    this.capabilities = providerCapabilities({
      strictTools: options.strictTools ?? false,
      nativeTools: true,
      parallelToolCalls: options.parallelToolCalls ?? true,
      structuredOutput: options.structuredOutput === 'text' ? 'text' : 'native',
      streaming: true,
      // tool_result blocks carry image and document blocks.
      mediaInToolResults: true,
    });
    const own = client ?? new Anthropic(Object.assign({}, options.client, { maxRetries: 0 }));
    this.#client = own;
    this.#redactor = new SecretRedactor(() => [
      own.apiKey,
      own.authToken,
      options.client?.apiKey,
      options.client?.authToken,
    ]);
  }

  /** The SDK client requests go through. Not an own property, so printing the adapter never shows its key. */
  get client(): Anthropic {
    return this.#client;
  }

  /** The adapter's options. Not an own property: `options.client` may hold an API key. */
  get options(): AnthropicAdapterOptions {
    return this.#options;
  }

  /** What `JSON.stringify` shows of the adapter: its name and model, never the client or a key. */
  toJSON(): { name: string; model: string } {
    return { name: this.name, model: this.#options.model };
  }

  /** What `util.inspect` (and `console.log`) shows: the same summary as {@link AnthropicAdapter.toJSON}. */
  [Symbol.for('nodejs.util.inspect.custom')](
    _depth: number,
    options: object,
    inspect: (value: unknown, options: object) => string,
  ): string {
    return `AnthropicAdapter ${inspect(this.toJSON(), options)}`;
  }

  /**
   * Rejects, before any request, native tools Anthropic does not run (only
   * `web_search`, `web_fetch` and `code_execution` are server tools) and two
   * native tools of one kind.
   */
  override validate(tools: readonly ToolDefinition[]): void {
    const seen = new Map<string, string>();
    for (const tool of tools) {
      if (!(tool instanceof NativeTool)) continue;
      nativeToolEntry(tool);
      const kind = serverToolOf(tool) ?? tool.type;
      const first = seen.get(kind);
      if (first !== undefined) {
        throw new PromptValidationError(
          `AnthropicAdapter: the Messages API takes one '${kind}' server tool per request, but the ` +
            `prompt has '${first}' and '${tool.name}'. Fix: keep one of them.`,
          { placeholder: tool.name },
        );
      }
      seen.set(kind, tool.name);
    }
  }

  /** Sends one request (retrying as configured, continuing a `pause_turn`) and reads the answer. */
  override async request(request: ProviderRequest): Promise<ProviderTurn> {
    const plan = buildMessagesRequest(request, this.#options);
    const context = this.#retryContext(request);
    let body = plan.body;
    let merged: unknown;
    for (let pauses = 0; ; pauses++) {
      const message = await this.#send(body, context, request.maxAnswerChars);
      merged = mergeMessages(merged, message);
      if (!isPaused(message) || pauses >= this.#maxPauses) break;
      body = continuedBody(plan.body, merged);
    }
    const turn = readMessagesTurn(merged, this.#turnContext(request, plan));
    checkAnswerSize(turn, request);
    return turn;
  }

  /**
   * Sends one request with `stream: true` and yields the answer as it
   * arrives: text and thinking deltas, each tool call's start and argument
   * pieces, then the `turn` part, read exactly as `request()` reads the same
   * answer. Retried as `request()` is, but only until the first part was
   * yielded; a later failure (a dropped connection, an `error` event) is
   * thrown, never restarted.
   */
  override async *stream(
    request: ProviderRequest,
  ): AsyncGenerator<ProviderStreamPart, void, undefined> {
    const plan = buildMessagesRequest(request, this.#options);
    const send = this.#retryContext(request);
    yield* streamMessages(this.#client, plan.body, {
      send,
      requestOptions: (signal) => this.#attemptOptions(signal),
      readJson: (response) => this.#readJson(response, send.prompt, request.maxAnswerChars),
      turn: this.#turnContext(request, plan),
      maxPauses: this.#maxPauses,
    });
  }

  get #maxPauses(): number {
    return this.#options.maxPauseContinuations ?? defaultMaxPauses;
  }

  /** One request, retried: the message JSON (a body longer than `maxAnswerChars` allows is refused). */
  #send(
    body: MessageCreateParamsNonStreaming,
    context: RetryContext,
    maxAnswerChars: number | undefined,
  ): Promise<unknown> {
    return sendWithRetries(
      () =>
        withRequestSignal(context.signal, async (signal) =>
          this.#readJson(
            await this.#client.messages.create(body, this.#attemptOptions(signal)).asResponse(),
            context.prompt,
            maxAnswerChars,
          ),
        ),
      context,
    );
  }

  #readJson(
    response: Response,
    prompt: string,
    maxAnswerChars: number | undefined,
  ): Promise<unknown> {
    return readJsonBody(response, {
      prompt,
      provider: 'Anthropic',
      api: 'Messages',
      baseURL: this.#client.baseURL,
      path: '/v1/messages',
      expected: 'the Anthropic API',
      fix:
        'Fix: set the client baseURL (or ANTHROPIC_BASE_URL) to the API root that serves ' +
        '/v1/messages, e.g. https://api.anthropic.com (without /v1).',
      maxAnswerChars,
    });
  }

  #turnContext(request: ProviderRequest, plan: MessagesRequestPlan): MessagesTurnContext {
    return {
      prompt: request.prompt.label,
      tools: request.tools.map((spec) => spec.tool),
      output: request.output,
      outputSchema: plan.output,
      outputTool: plan.outputTool,
      maxTokens: plan.maxTokens,
    };
  }

  /** Retries, deadline, cancellation and redaction of one request. */
  #retryContext(request: ProviderRequest): RetryContext {
    return {
      provider: 'Anthropic',
      api: 'Messages',
      prompt: request.prompt.label,
      signal: request.signal,
      deadline: request.deadline,
      clock: request.clock,
      retry: this.#options.retry,
      redactor: this.#redactor,
      classify: classifyAnthropicError,
      hint: anthropicRejectionHint,
    };
  }

  /** The SDK options of one attempt: its signal, the SDK's own retries off, an explicit timeout. */
  #attemptOptions(signal: AbortSignal | undefined): {
    signal?: AbortSignal;
    maxRetries: number;
    timeout: number;
  } {
    const timeout = this.#options.timeoutMs ?? 600_000;
    // No signal when nothing can abort the request (see `withRequestSignal`).
    return signal === undefined ? { maxRetries: 0, timeout } : { signal, maxRetries: 0, timeout };
  }
}
