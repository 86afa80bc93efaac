/**
 * affordance/provider: the provider seam, for people writing an adapter. An
 * adapter extends {@link ProviderAdapter}: it turns one neutral
 * {@link ProviderRequest} into one neutral {@link ProviderTurn} and declares
 * its {@link ProviderCapabilities}; the runtime owns everything else. The
 * helpers below build the schemas a provider is sent and read what it answers
 * the way the runtime does; the transport helpers ({@link sendWithRetries},
 * {@link streamWithRetries}, {@link SecretRedactor}, {@link withChildSignal})
 * give an adapter deadline-aware retries, streams retried only before their
 * first part, and errors scrubbed of API keys.
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
export {
  AnswerMeter,
  answerBodyBytes,
  answerChars,
  answerTooLarge,
  checkAnswerSize,
  DEFAULT_MAX_ANSWER_CHARS,
} from './answer-limit.js';
export { functionToolSchema, type FunctionToolSchema } from './function-tool-schema.js';
export {
  checkNativeToolConfig,
  type NativeFieldType,
  type NativeToolContract,
} from './native-tool-contract.js';
export { ProviderAdapter } from './provider-adapter.js';
export { base64Length, base64Of, dataUrlOf } from './media/media-encoding.js';
export { checkProviderMedia, type ProviderMediaLimits } from './media/provider-media-limits.js';
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
export {
  childSignal,
  type ChildSignal,
  withChildSignal,
  withRequestSignal,
} from './transport/child-signal.js';
export { type JsonBodyContext, readJsonBody } from './transport/read-json-body.js';
export {
  type HeaderReader,
  type RequestFailure,
  requestFailure,
  retryAfterMs,
} from './transport/request-failure.js';
export {
  checkRetryOptions,
  type RetryEvent,
  type RetryOptions,
} from './transport/retry-options.js';
export { SecretRedactor } from './transport/secret-redactor.js';
export {
  requestAborted,
  RetryableResponseError,
  type RetryContext,
  sendWithRetries,
} from './transport/send-with-retries.js';
export { streamBrokeOff } from './transport/stream-failure.js';
export {
  type OpenedStream,
  type StreamReader,
  type StreamSource,
  streamWithRetries,
} from './transport/stream-with-retries.js';

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
export { parseToolArgumentsSync } from '../schema/parse-tool-arguments-sync.js';
export { toJsonSchema } from '../schema/to-json-schema.js';

export { quotedName } from '../core/errors/quoted-name.js';

export { type CircuitBreakerOptions, type CircuitState } from './fallback/circuit-breaker.js';
export { CompositeAdapter, type MemberAdapter } from './fallback/composite-adapter.js';
export {
  FallbackAdapter,
  type FallbackAdapterOptions,
  type FallbackPredicate,
} from './fallback/fallback-adapter.js';
export type { FallbackEvent } from './fallback/fallback-event.js';
export {
  PROVIDER_FAILURE_KINDS,
  type ProviderFailureKind,
  providerFailureKind,
} from './fallback/provider-failure-kind.js';
export {
  type RouteChooser,
  RoutingAdapter,
  type RoutingAdapterOptions,
} from './fallback/routing-adapter.js';
export { isServedItems, type ServedItems } from './fallback/served-items.js';
