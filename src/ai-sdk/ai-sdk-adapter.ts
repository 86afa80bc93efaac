import { inject, injectable } from 'inversify';

import {
  checkAnswerSize,
  providerCapabilities,
  ProviderAdapter,
  type ProviderCapabilities,
  type ProviderRequest,
  type ProviderStreamPart,
  type ProviderTurn,
  type RetryContext,
  SecretRedactor,
  sendWithRetries,
  streamWithRetries,
  withRequestSignal,
} from '../provider/index.js';
import { AiSdkAdapterOptions } from './ai-sdk-adapter-options.js';
import { checkAiSdkOptions } from './check-ai-sdk-options.js';
import type { AiSdkLanguageModel } from './language-model.js';
import type { ToolDefinition } from '../index.js';
import { buildCallOptions, type CallPlan } from './request/build-call-options.js';
import { checkProviderTools, knownProviderToolTypes } from './request/provider-tools.js';
import { AiSdkStreamReader } from './stream/ai-sdk-stream-reader.js';
import { readableEvents } from './stream/readable-events.js';
import { aiSdkRejectionHint, classifyAiSdkError } from './transport/classify-ai-sdk-error.js';
import { type AiSdkAnswer, readAiSdkTurn } from './turn/read-ai-sdk-turn.js';

/** Environment variables the AI SDK provider packages read API keys from: redacted wherever they show. */
const keyVariables = [
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'GOOGLE_VERTEX_API_KEY',
  'MISTRAL_API_KEY',
  'GROQ_API_KEY',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'XAI_API_KEY',
  'DEEPSEEK_API_KEY',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_BEARER_TOKEN_BEDROCK',
];

/** What `streamWithRetries` is told the answer is: the provider package already parsed the event stream. */
const eventStreamHeaders = { 'content-type': 'text/event-stream' };

/**
 * A `ProviderAdapter` over any AI SDK language model object (the
 * `LanguageModelV3` specification of `@ai-sdk/provider`, as the `ai` 6 line of
 * provider packages makes them: `@ai-sdk/google`, `@ai-sdk/mistral`,
 * `@ai-sdk/openai-compatible`, `@ai-sdk/groq`...). It only translates: the
 * neutral conversation, tools, tool choice and output schema become the
 * model's call options, and its answer (whole from `doGenerate`, in parts from
 * `doStream`) becomes the neutral turn. The runtime runs the loop; this
 * adapter retries what the provider package marks retryable (and refused
 * connections), waiting what the server asks (`retry-after`, Gemini's
 * `RetryInfo`), never past the deadline. API keys never show: errors are
 * scrubbed of the keys in the provider packages' environment variables, of
 * `options.secrets`, of `sk-` and of bearer tokens.
 *
 * @example
 * const adapter = new AiSdkAdapter({ model: google('gemini-2.5-flash') });
 * container.bind(ProviderAdapter).toConstantValue(adapter);
 */
@injectable()
export class AiSdkAdapter extends ProviderAdapter {
  override readonly name: string;
  /** The model id of the model object (e.g. `gemini-2.5-flash`). */
  override readonly model: string;
  /**
   * What this adapter can do: streaming; structured output `native` unless
   * the option or the model object says otherwise; strict tools only with
   * `strictTools: true`; parallel calls unless `parallelToolCalls: false`;
   * provider-executed tools (`NativeTool`s) where the provider has tools the
   * adapter maps or `providerTools` names (calls a provider reports are recorded).
   */
  readonly capabilities: ProviderCapabilities;
  readonly #languageModel: AiSdkLanguageModel;
  readonly #options: AiSdkAdapterOptions;
  readonly #redactor: SecretRedactor;
  readonly #plan: CallPlan;

  constructor(@inject(AiSdkAdapterOptions) options: AiSdkAdapterOptions) {
    super();
    const model = checkAiSdkOptions(options);
    this.#languageModel = model;
    this.#options = options;
    this.name = options.name ?? model.provider;
    this.model = model.modelId;
    const structured =
      options.structuredOutput ?? (model.supportsStructuredOutputs === false ? 'text' : 'native');
    this.capabilities = providerCapabilities({
      strictTools: options.strictTools ?? false,
      nativeTools:
        knownProviderToolTypes(model.provider).length > 0 ||
        Object.keys(options.providerTools ?? {}).length > 0,
      parallelToolCalls: options.parallelToolCalls ?? true,
      structuredOutput: structured,
      streaming: true,
      // Tool results go as `content` outputs with image and file parts; each AI SDK provider maps them.
      mediaInToolResults: true,
    });
    this.#plan = {
      provider: model.provider,
      nativeOutput: structured === 'native',
      specificationVersion: model.specificationVersion,
      providerTools: { provider: model.provider, overrides: { ...options.providerTools } },
      parallelToolCalls: options.parallelToolCalls ?? true,
    };
    this.#redactor = new SecretRedactor(() => [
      ...(options.secrets ?? []),
      ...Object.values(options.settings?.headers ?? {}),
      ...keyVariables.map((name) => process.env[name]),
    ]);
  }

  /** The AI SDK model object requests go to. Not an own property: its settings may hold a key. */
  get languageModel(): AiSdkLanguageModel {
    return this.#languageModel;
  }

  /** What `JSON.stringify` shows of the adapter: its name and model, never the model object or a key. */
  toJSON(): { name: string; model: string } {
    return { name: this.name, model: this.model };
  }

  /** What `util.inspect` (and `console.log`) shows: the same summary as {@link AiSdkAdapter.toJSON}. */
  [Symbol.for('nodejs.util.inspect.custom')](
    _depth: number,
    options: object,
    inspect: (value: unknown, options: object) => string,
  ): string {
    return `AiSdkAdapter ${inspect(this.toJSON(), options)}`;
  }

  /**
   * Rejects, before any request, a `NativeTool` with no AI SDK provider tool
   * for this model's provider (see `AiSdkAdapterOptions.providerTools`).
   */
  override validate(tools: readonly ToolDefinition[]): void {
    checkProviderTools(tools, this.#plan.providerTools);
  }

  /** Sends one request through `doGenerate` (retrying as configured) and reads the answer. */
  override async request(request: ProviderRequest): Promise<ProviderTurn> {
    const context = this.#retryContext(request);
    const answer = await sendWithRetries(
      () =>
        withRequestSignal(context.signal, async (signal) => {
          const result = await this.#languageModel.doGenerate(this.#callOptions(request, signal));
          return result as AiSdkAnswer;
        }),
      context,
    );
    const turn = readAiSdkTurn(answer, this.#languageModel.provider, this.model);
    checkAnswerSize(turn, request);
    return turn;
  }

  /**
   * Sends one request through `doStream` and yields the answer as it
   * arrives: text and reasoning deltas, each tool call's start and argument
   * pieces, then the `turn` part, read exactly as `request()` reads the same
   * answer. Retried as `request()` is, but only until the first part was
   * yielded; a later failure (a dropped connection, an error part) is thrown,
   * never restarted.
   */
  override async *stream(
    request: ProviderRequest,
  ): AsyncGenerator<ProviderStreamPart, void, undefined> {
    const model = this.#languageModel;
    yield* streamWithRetries(
      {
        open: async (signal) => {
          const result = (await model.doStream(this.#callOptions(request, signal))) as {
            stream: ReadableStream<unknown>;
          };
          return {
            data: readableEvents(result.stream),
            response: new Response(null, { headers: eventStreamHeaders }),
          };
        },
        reader: () => new AiSdkStreamReader(model.provider, this.model),
        readWhole: () => Promise.reject(new Error('unreachable: the stream is always events')),
      },
      this.#retryContext(request),
    );
  }

  #callOptions(request: ProviderRequest, signal: AbortSignal | undefined): unknown {
    return buildCallOptions(request, this.#options, this.#plan, signal);
  }

  /** Retries, deadline, cancellation and redaction of one request. */
  #retryContext(request: ProviderRequest): RetryContext {
    return {
      provider: this.name,
      api: 'language model',
      prompt: request.prompt.label,
      signal: request.signal,
      deadline: request.deadline,
      clock: request.clock,
      retry: this.#options.retry,
      redactor: this.#redactor,
      classify: classifyAiSdkError,
      hint: aiSdkRejectionHint,
    };
  }
}
