import type { ServiceIdentifier } from 'inversify';

import type { RetryOptions } from '../provider/index.js';
import type { AiSdkLanguageModel, AiSdkProviderOptions } from './language-model.js';

/**
 * Call settings of an {@link AiSdkAdapter}, sent with every request as the
 * AI SDK's call options (each provider package maps them to its wire, and
 * reports a setting it cannot honour as a warning in the turn's `raw.warnings`).
 */
export interface AiSdkCallSettings {
  /** The most tokens one answer may generate. */
  readonly maxOutputTokens?: number | undefined;
  /** Sampling temperature; its range depends on the provider. */
  readonly temperature?: number | undefined;
  /** Nucleus sampling mass. */
  readonly topP?: number | undefined;
  /** Sample only from the k likeliest tokens. */
  readonly topK?: number | undefined;
  /** Penalty on tokens already in the prompt. */
  readonly presencePenalty?: number | undefined;
  /** Penalty on tokens by how often they appeared. */
  readonly frequencyPenalty?: number | undefined;
  /** Texts that end the answer. */
  readonly stopSequences?: readonly string[] | undefined;
  /** Seed for deterministic sampling, where the provider has one. */
  readonly seed?: number | undefined;
  /** Extra HTTP headers of every request (values here are redacted from errors like API keys). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * How a prompt's structured output is asked for:
 * - `native`: the output schema is sent as the call's JSON response format, which
 *   the provider package turns into its own constrained output (Gemini
 *   `responseSchema`, Mistral and Chat Completions `json_schema`);
 * - `text`: no schema is sent; the answer's JSON is read from its text.
 */
export type AiSdkStructuredOutput = 'native' | 'text';

/** Options of an {@link AiSdkAdapter}; bind them under the {@link AiSdkAdapterOptions} token. */
export interface AiSdkAdapterOptions {
  /**
   * The AI SDK language model object the adapter asks, as a provider package
   * makes it: `google('gemini-2.5-flash')`, `mistral('mistral-small-latest')`,
   * `createOpenAICompatible({ ... }).chatModel('llama3.2')`...
   */
  readonly model: AiSdkLanguageModel;
  /** The name recorded in events; the model object's `provider` (e.g. `google.generative-ai`) by default. */
  readonly name?: string | undefined;
  /** Settings sent with every request. */
  readonly settings?: AiSdkCallSettings | undefined;
  /**
   * Provider options passed through as they are with every request, keyed by
   * provider (`{ google: { thinkingConfig: { includeThoughts: true } } }`).
   */
  readonly providerOptions?: AiSdkProviderOptions | undefined;
  /**
   * Send tools `strict` when their params class fits the strict profile
   * (every field required, optional ones nullable). Only for providers that
   * honour the AI SDK's `strict` tool flag. Default `false`.
   */
  readonly strictTools?: boolean | undefined;
  /**
   * Whether the model may call several tools in one turn, as declared in
   * `capabilities`. The AI SDK has no common switch for it: `false` is sent
   * as the provider option of Mistral and Groq models (`parallelToolCalls:
   * false`); for another provider turn it off through `providerOptions` where
   * it has a switch (an OpenAI-compatible server: `{ [name]:
   * { parallel_tool_calls: false } }`, passed into the body). Default `true`.
   */
  readonly parallelToolCalls?: boolean | undefined;
  /**
   * AI SDK provider tool ids for `NativeTool`s, by tool name or type (e.g.
   * `{ web_search: 'openai.web_search' }`); the tool's `config` is sent as
   * the provider tool's arguments. Without an entry, a `NativeTool` maps to
   * the tool the model's provider defines for its type, where the adapter
   * knows one (Google: `web_search` → `google.google_search`, `web_fetch` →
   * `google.url_context`, `code_execution` / `code_interpreter` →
   * `google.code_execution`, `file_search` → `google.file_search`; Groq:
   * `web_search` → `groq.browser_search`); any other is refused before the
   * first request.
   */
  readonly providerTools?: Readonly<Record<string, string>> | undefined;
  /**
   * How structured output is asked for. Default `native`, or `text` when the
   * model object says it does not support structured outputs
   * (`supportsStructuredOutputs: false`, as `@ai-sdk/openai-compatible` models do unless told).
   */
  readonly structuredOutput?: AiSdkStructuredOutput | undefined;
  /** Retries of failed requests (the provider packages do not retry; the AI SDK's own loop does, and is not used). */
  readonly retry?: RetryOptions | undefined;
  /**
   * Secrets to keep out of every error and payload the adapter hands back,
   * besides the keys of the provider packages' environment variables
   * (`GOOGLE_GENERATIVE_AI_API_KEY`, `MISTRAL_API_KEY`, `GROQ_API_KEY`...), `sk-`
   * tokens and bearer tokens. Pass the `apiKey` you gave the provider package.
   */
  readonly secrets?: readonly string[] | undefined;
  /**
   * Also accept model objects of a specification version this build was not
   * tested with (e.g. `v4`) when their shape fits (`doGenerate` and `doStream`
   * functions, `provider` and `modelId` strings). Default `false`: such a model
   * is refused, naming its version and the supported ones.
   */
  readonly acceptUntestedSpecification?: boolean | undefined;
}

/**
 * Token of the {@link AiSdkAdapterOptions} in the container:
 * `container.bind(AiSdkAdapterOptions).toConstantValue({ model: google('gemini-2.5-flash') })`.
 */
export const AiSdkAdapterOptions: ServiceIdentifier<AiSdkAdapterOptions> = Symbol.for(
  'affordance.ai-sdk.adapter-options',
);
