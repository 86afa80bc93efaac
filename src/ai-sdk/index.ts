/**
 * affordance/ai-sdk: a `ProviderAdapter` over any AI SDK language model
 * object (`@ai-sdk/provider`'s `LanguageModelV3` specification, and `v2`), so
 * every provider package of the AI SDK (`@ai-sdk/google`, `@ai-sdk/mistral`,
 * `@ai-sdk/openai-compatible`, `@ai-sdk/groq`...) serves affordance prompts.
 * `@ai-sdk/provider` is an optional peer dependency; core affordance never
 * imports it, and this entry point reads model objects structurally.
 * @packageDocumentation
 */
export { AiSdkAdapter } from './ai-sdk-adapter.js';
export {
  AiSdkAdapterOptions,
  type AiSdkCallSettings,
  type AiSdkStructuredOutput,
} from './ai-sdk-adapter-options.js';
export {
  type AiSdkLanguageModel,
  type AiSdkProviderOptions,
  SUPPORTED_SPECIFICATION_VERSIONS,
} from './language-model.js';
