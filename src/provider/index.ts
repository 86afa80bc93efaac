/**
 * affordance/provider: the provider seam, for people writing an adapter. An
 * adapter extends {@link ProviderAdapter}: it turns one neutral
 * {@link ProviderRequest} into one neutral {@link ProviderTurn} and declares
 * its {@link ProviderCapabilities}; the runtime owns everything else. The
 * helpers below build the schemas a provider is sent and read what it answers
 * the way the runtime does.
 * @packageDocumentation
 */
export type {
  ConversationMessage,
  FinishReason,
  ProviderNativeCall,
  ProviderToolCall,
  ProviderTurn,
  ToolChoice,
} from './conversation.js';
export { functionToolSchema, type FunctionToolSchema } from './function-tool-schema.js';
export { ProviderAdapter } from './provider-adapter.js';
export {
  PROVIDER_SEAM_VERSION,
  providerCapabilities,
  type ProviderCapabilities,
} from './provider-capabilities.js';
export type {
  ProviderRequest,
  RequestDeadline,
  RequestOutput,
  RequestPrompt,
} from './provider-request.js';
export { partsOfTurn, type ProviderStreamPart } from './provider-stream-part.js';
export { sanitizeSchemaName } from './sanitize-schema-name.js';
export { TokenUsage, type TokenUsageInit } from './token-usage.js';
export { toolSpecOf, type ToolSpec } from './tool-spec.js';

export { isPlainObject } from '../schema/plain-object.js';
export { normalizeStrictArguments } from '../schema/normalize-strict-arguments.js';
export { outputJsonSchema } from '../schema/output-json-schema.js';
export type {
  JsonSchema,
  ParamsJsonSchema,
  SchemaGap,
  SchemaProfile,
} from '../schema/params-json-schema.js';
export {
  parseStructuredOutput,
  type ParseStructuredOutputOptions,
  type StructuredAnswer,
} from '../schema/parse-structured-output.js';
export {
  parseToolArguments,
  type ParseToolArgumentsOptions,
} from '../schema/parse-tool-arguments.js';
export { toJsonSchema } from '../schema/to-json-schema.js';
