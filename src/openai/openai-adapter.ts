import { inject, injectable, optional } from 'inversify';
import OpenAI from 'openai';

import {
  ConfigurationError,
  NativeTool,
  PromptValidationError,
  type ToolDefinition,
} from '../index.js';
import {
  checkRetryOptions,
  providerCapabilities,
  ProviderAdapter,
  type ProviderCapabilities,
  type ProviderRequest,
  type ProviderStreamPart,
  type ProviderTurn,
  type RetryContext,
  SecretRedactor,
  sendWithRetries,
  checkAnswerSize,
  type ToolSpec,
  toolSpecOf,
  withRequestSignal,
} from '../provider/index.js';
import { ApplyPatchTool } from './tools/apply-patch-tool.js';
import { buildChatRequest } from './request/build-chat-request.js';
import { buildResponsesRequest } from './request/build-responses-request.js';
import { nativeToolEntry } from './request/native-tool-entry.js';
import { OpenAIAdapterOptions, type OpenAIApi } from './openai-adapter-options.js';
import { readChatTurn } from './turn/read-chat-turn.js';
import { classifyOpenAIError, openAIRejectionHint } from './transport/classify-openai-error.js';
import { readOpenAIJson } from './transport/read-openai-json.js';
import { readResponsesTurn } from './turn/read-responses-turn.js';
import { ShellTool } from './tools/shell-tool.js';
import type { AttemptOptions } from './stream/stream-setup.js';
import { streamChat } from './stream/stream-chat.js';
import { streamResponses } from './stream/stream-responses.js';

/**
 * A `ProviderAdapter` over the official `openai` SDK, speaking the Responses
 * API (default) or Chat Completions. It only translates: the runtime runs the
 * loop, the tools, deadlines and budgets. The SDK's own retries are turned off
 * per request; the adapter retries itself (see `OpenAIRetryOptions`).
 * API keys never show: the client is kept in a private field (printing or
 * serialising the adapter shows its name, API and model), and the errors it
 * throws are scrubbed of the configured key, `sk-` tokens and bearer tokens.
 *
 * @example
 * container.bind(OpenAI).toConstantValue(new OpenAI());
 * container.bind(OpenAIAdapterOptions).toConstantValue({ model: 'gpt-5-mini' });
 * container.bind(ProviderAdapter).to(OpenAIAdapter).inSingletonScope();
 */
@injectable()
export class OpenAIAdapter extends ProviderAdapter {
  override readonly name: string = 'openai';
  /** The API spoken. */
  readonly api: OpenAIApi;
  /** The model requests ask for (`options.model`). */
  override readonly model: string;
  // The client and the options hold the API key: kept in private fields, out of what
  // util.inspect, JSON.stringify and Object.keys show (see [inspect.custom] and toJSON).
  readonly #client: OpenAI;
  readonly #options: OpenAIAdapterOptions;
  readonly #redactor: SecretRedactor;
  /** What this adapter can do: strict tools unless `strictTools: false`; native tools on Responses; streaming. */
  readonly capabilities: ProviderCapabilities;

  /**
   * @param client the SDK client; when the container has none bound to
   *   `OpenAI`, one is built from `options.client` (reading `OPENAI_API_KEY`
   *   and `OPENAI_BASE_URL` as the SDK does).
   */
  constructor(
    @inject(OpenAI) @optional() client: OpenAI | undefined,
    @inject(OpenAIAdapterOptions) options: OpenAIAdapterOptions,
  ) {
    super();
    this.#options = checkOptions(options);
    this.api = options.api ?? 'responses';
    this.model = options.model;
    this.capabilities = providerCapabilities({
      strictTools: options.strictTools ?? true,
      nativeTools: this.api === 'responses',
      parallelToolCalls: options.parallelToolCalls ?? true,
      structuredOutput:
        (options.structuredOutput ?? 'json_schema') === 'json_schema' ? 'native' : 'text',
      streaming: true,
      // Responses function outputs carry input_image / input_file parts; Chat Completions tool messages are text.
      mediaInToolResults: this.api === 'responses',
    });
    const own = client ?? new OpenAI(Object.assign({}, options.client, { maxRetries: 0 }));
    this.#client = own;
    this.#redactor = new SecretRedactor(() => [
      own.apiKey,
      own.adminAPIKey,
      own.webhookSecret,
      options.client?.apiKey,
    ]);
  }

  /** The SDK client requests go through. Not an own property, so printing the adapter never shows its key. */
  get client(): OpenAI {
    return this.#client;
  }

  /** The adapter's options. Not an own property: `options.client` may hold an API key. */
  get options(): OpenAIAdapterOptions {
    return this.#options;
  }

  /** What `JSON.stringify` shows of the adapter: its name, API and model, never the client or a key. */
  toJSON(): { name: string; api: OpenAIApi; model: string } {
    return { name: this.name, api: this.api, model: this.#options.model };
  }

  /** What `util.inspect` (and `console.log`) shows: the same summary as {@link OpenAIAdapter.toJSON}. */
  [Symbol.for('nodejs.util.inspect.custom')](
    _depth: number,
    options: object,
    inspect: (value: unknown, options: object) => string,
  ): string {
    return `OpenAIAdapter ${inspect(this.toJSON(), options)}`;
  }

  /**
   * Rejects, before any request, tools OpenAI cannot offer as declared: any
   * `NativeTool` on Chat Completions; on Responses, native `apply_patch` and
   * client-side `shell` (use `ApplyPatchTool`/`ShellTool`), `file_search`
   * without vector stores, and more than one shell or apply_patch tool.
   */
  override validate(tools: readonly ToolDefinition[]): void {
    const kinds = new Map<string, string[]>();
    for (const tool of tools) {
      const kind = openaiTypeOf(tool);
      if (kind !== undefined) kinds.set(kind, [...(kinds.get(kind) ?? []), tool.name]);
      if (!(tool instanceof NativeTool)) continue;
      if (this.api === 'chat') {
        throw new PromptValidationError(
          `OpenAIAdapter (api: 'chat'): Chat Completions cannot offer the provider-executed tool ` +
            `'${tool.name}' (${tool.type}). Use api: 'responses', or remove the NativeTool from the prompt.`,
          { placeholder: tool.name },
        );
      }
      nativeToolEntry(tool);
    }
    if (this.api === 'chat') return;
    for (const [kind, names] of kinds) {
      if (names.length > 1) {
        throw new PromptValidationError(
          `OpenAIAdapter: the Responses API takes one '${kind}' tool per request, but the prompt has ` +
            `${names.map((name) => `'${name}'`).join(', ')}. Keep one of them.`,
          { placeholder: names[1] },
        );
      }
    }
  }

  /**
   * Function tools strict as configured; on Responses, `ShellTool` and
   * `ApplyPatchTool` are sent as the provider's own `shell` and `apply_patch`
   * tools, so their arguments arrive in the provider's shape, never strict.
   */
  override toolSpec(tool: ToolDefinition, descriptions?: ReadonlyMap<string, string>): ToolSpec {
    if (this.api === 'responses' && openaiTypeOf(tool) !== undefined) {
      return toolSpecOf(tool, false, descriptions);
    }
    return super.toolSpec(tool, descriptions);
  }

  /** Sends one request (retrying as configured) and reads the answer. */
  override async request(request: ProviderRequest): Promise<ProviderTurn> {
    const context = this.#sendContext(request);
    const prompt = context.prompt;
    const maxOutputTokens = this.#options.modelSettings?.maxOutputTokens;
    const maxAnswerChars = request.maxAnswerChars;
    if (this.api === 'chat') {
      const { body, strictOutput } = buildChatRequest(request, this.#options, prompt);
      return await sendWithRetries(async () => {
        const completion = await withRequestSignal(request.signal, async (signal) =>
          readOpenAIJson(
            await this.#client.chat.completions
              .create(body, this.#attemptOptions(signal))
              .asResponse(),
            {
              prompt,
              api: context.api,
              baseURL: this.#client.baseURL,
              path: '/chat/completions',
              maxAnswerChars,
            },
          ),
        );
        const turn = readChatTurn(completion, {
          prompt,
          output: request.output,
          strictOutput,
          maxOutputTokens,
        });
        checkAnswerSize(turn, request);
        return turn;
      }, context);
    }
    const { body, strictOutput } = buildResponsesRequest(request, this.#options, prompt);
    return await sendWithRetries(async () => {
      const response = await withRequestSignal(request.signal, async (signal) =>
        readOpenAIJson(
          await this.#client.responses.create(body, this.#attemptOptions(signal)).asResponse(),
          {
            prompt,
            api: context.api,
            baseURL: this.#client.baseURL,
            path: '/responses',
            maxAnswerChars,
          },
        ),
      );
      const turn = readResponsesTurn(response, {
        prompt,
        tools: request.tools.map((spec) => spec.tool),
        output: request.output,
        strictOutput,
        maxOutputTokens,
      });
      checkAnswerSize(turn, request);
      return turn;
    }, context);
  }

  /**
   * Sends one request with `stream: true` and yields the answer as it
   * arrives: text and reasoning-summary deltas, each function call's start and
   * argument deltas, then the `turn` part, read exactly as `request()` reads
   * the same answer. Retried as `request()` is, but only until the first part
   * was yielded; a later failure is thrown, never restarted. `timeoutMs`
   * bounds the wait for the response to start; the evaluation's deadline and
   * cancellation end the stream at any point, and so does returning early.
   */
  override async *stream(
    request: ProviderRequest,
  ): AsyncGenerator<ProviderStreamPart, void, undefined> {
    const send = this.#sendContext(request);
    const prompt = send.prompt;
    const requestOptions = (signal: AbortSignal): AttemptOptions => this.#attemptOptions(signal);
    const maxOutputTokens = this.#options.modelSettings?.maxOutputTokens;
    const maxAnswerChars = request.maxAnswerChars;
    if (this.api === 'chat') {
      const { body, strictOutput } = buildChatRequest(request, this.#options, prompt);
      const turn = { prompt, output: request.output, strictOutput, maxOutputTokens };
      yield* streamChat(this.#client, body, { send, requestOptions, turn, maxAnswerChars });
      return;
    }
    const { body, strictOutput } = buildResponsesRequest(request, this.#options, prompt);
    const tools = request.tools.map((spec) => spec.tool);
    const turn = { prompt, tools, output: request.output, strictOutput, maxOutputTokens };
    yield* streamResponses(this.#client, body, { send, requestOptions, turn, maxAnswerChars });
  }

  /** Retries, deadline, cancellation and redaction of one request. */
  #sendContext(request: ProviderRequest): RetryContext {
    return {
      provider: 'OpenAI',
      prompt: request.prompt.label,
      api: this.api === 'chat' ? 'Chat Completions' : 'Responses',
      signal: request.signal,
      deadline: request.deadline,
      clock: request.clock,
      retry: this.#options.retry,
      redactor: this.#redactor,
      classify: classifyOpenAIError,
      hint: openAIRejectionHint,
    };
  }

  /** The SDK options of one attempt: its signal, the SDK's own retries off, the timeout. */
  #attemptOptions(signal: AbortSignal | undefined): AttemptOptions {
    const timeout = this.#options.timeoutMs ?? 600_000;
    return signal === undefined ? { maxRetries: 0, timeout } : { signal, maxRetries: 0, timeout };
  }
}

/** `shell` or `apply_patch` for the tools that map to those Responses tool types. */
function openaiTypeOf(tool: ToolDefinition): string | undefined {
  if (tool instanceof ShellTool || tool instanceof ApplyPatchTool) return tool.openaiType;
  if (tool instanceof NativeTool && (tool.type === 'shell' || tool.type === 'apply_patch')) {
    return tool.type;
  }
  return undefined;
}

function checkOptions(options: OpenAIAdapterOptions): OpenAIAdapterOptions {
  const problem = (subject: string, what: string, fix: string): never => {
    throw new ConfigurationError({
      subject: `OpenAIAdapterOptions.${subject}`,
      problem: what,
      fix,
    });
  };
  if (
    typeof (options as Partial<OpenAIAdapterOptions> | undefined)?.model !== 'string' ||
    options.model === ''
  ) {
    problem('model', 'is required.', "Pass the model id, e.g. { model: 'gpt-5-mini' }.");
  }
  const api = options.api as string | undefined;
  if (api !== undefined && api !== 'responses' && api !== 'chat') {
    problem(
      'api',
      `must be 'responses' or 'chat', got ${api}.`,
      "Use 'responses' (default) or 'chat'.",
    );
  }
  checkRetryOptions(options.retry, problem);
  const timeout = options.timeoutMs;
  if (timeout !== undefined && !(Number.isFinite(timeout) && timeout > 0)) {
    problem(
      'timeoutMs',
      `must be a positive number, got ${String(timeout)}.`,
      'Pass milliseconds, e.g. 60_000.',
    );
  }
  return options;
}
