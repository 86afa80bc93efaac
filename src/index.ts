/**
 * affordance: typed, validated, observable tools for large language models.
 *
 * This is the package's only public entry point for the core; every public
 * symbol is listed here by name.
 * @packageDocumentation
 */

export { assertScopes } from './container/assert-scopes.js';
export {
  checkScopes,
  type CheckScopesOptions,
  type ScopedServiceIds,
  type ScopeHop,
  type ScopeLeak,
  type ScopeProblem,
  type UnboundRoot,
  type UnplannableRoot,
  type ValueScope,
} from './container/check-scopes.js';
export { installAffordance } from './container/install-affordance.js';
export {
  AffordanceContainer,
  EvaluationId,
  ToolCallId,
  ToolCallSignal,
} from './container/tokens.js';

export { Describe } from './decorators/describe.js';
export { Reducer } from './decorators/reducer.js';
export { Section } from './decorators/section.js';
export { Tool } from './decorators/tool.js';

export {
  AffordanceError,
  type AffordanceErrorCode,
  type AffordanceErrorOptions,
} from './errors/affordance-error.js';
export {
  BudgetExceededError,
  type BudgetExceededErrorOptions,
} from './errors/budget-exceeded-error.js';
export {
  ConfigurationError,
  type ConfigurationErrorOptions,
} from './errors/configuration-error.js';
export {
  DeadlineExceededError,
  type DeadlineExceededErrorOptions,
} from './errors/deadline-exceeded-error.js';
export {
  FilesystemError,
  type FilesystemErrorOptions,
  type FilesystemErrorReason,
  type FilesystemOperation,
} from './errors/filesystem-error.js';
export { OutputParseError, type OutputParseErrorOptions } from './errors/output-parse-error.js';
export type { ClassRef, PromptErrorFields } from './errors/prompt-error-fields.js';
export {
  PromptEvaluationError,
  type PromptEvaluationErrorOptions,
  type PromptEvaluationPhase,
} from './errors/prompt-evaluation-error.js';
export {
  PromptOverridesError,
  type PromptOverridesErrorOptions,
} from './errors/prompt-overrides-error.js';
export { PromptRenderError } from './errors/prompt-render-error.js';
export { PromptValidationError } from './errors/prompt-validation-error.js';
export { ToolCallClosedError } from './errors/tool-call-closed-error.js';
export {
  ToolValidationError,
  type ToolValidationErrorOptions,
  type ToolValidationIssue,
} from './errors/tool-validation-error.js';

export type { DispatchFailure, DispatchParticipant } from './events/dispatch-failure.js';
export { DispatchResult, type DispatchResultInit } from './events/dispatch-result.js';
export type { Dispatcher } from './events/dispatcher.js';
export { PromptEvent, type EventStampInit, type PromptEventInit } from './events/prompt-event.js';
export type { EventHandler, EventType } from './events/event-type.js';
export { InProcessDispatcher } from './events/in-process-dispatcher.js';
export {
  PromptExecuted,
  type PromptExecutedInit,
  type PromptExecutedResult,
} from './events/prompt-executed.js';
export { PromptRendered, type PromptRenderedInit } from './events/prompt-rendered.js';
export { TokenUsage, type TokenUsageInit } from './events/token-usage.js';
export { ToolInvoked, type ToolInvokedInit, type ToolOutcome } from './events/tool-invoked.js';

export type { SectionOptions } from './metadata/section-metadata.js';
export type { ToolOptions } from './metadata/tool-metadata.js';

export {
  JsonFilePromptOverridesStore,
  type JsonFilePromptOverridesStoreOptions,
} from './overrides/json-file-overrides-store.js';
export {
  describePrompt,
  toolContractHash,
  type PromptDescriptor,
  type SectionDescriptor,
  type ToolDescriptor,
} from './overrides/prompt-descriptor.js';
export type { PromptOverride, SectionOverride, ToolOverride } from './overrides/prompt-override.js';
export type {
  PromptOverridesStore,
  ResolvedOverrides,
  SkippedOverride,
} from './overrides/prompt-overrides-store.js';

export { MarkdownSection, type MarkdownSectionInit } from './prompt/markdown-section.js';
export { Prompt, type PromptInit, type RenderOptions } from './prompt/prompt.js';
export {
  PromptSection,
  SECTION_KEY_PATTERN,
  type EnabledPredicate,
  type SectionInit,
  type SectionRef,
  type SectionRenderScope,
} from './prompt/prompt-section.js';
export { RenderedPrompt } from './prompt/rendered-prompt.js';
export { Template } from './prompt/template.js';

export { Filesystem } from './resources/filesystem.js';
export type {
  EditOptions,
  EditResult,
  EntryKind,
  FileRead,
  FileStat,
  GlobOptions,
  GrepMatch,
  GrepOptions,
  GrepResult,
  ReadOptions,
  RemoveOptions,
  WriteMode,
  WriteOptions,
  WriteResult,
} from './resources/filesystem.js';
export { defaultFilesystemLimits, type FilesystemLimits } from './resources/filesystem-limits.js';
export type { FilesystemSnapshot } from './resources/filesystem-snapshot.js';
export { InMemoryFilesystem } from './resources/in-memory-filesystem.js';
export type { InMemoryFilesystemOptions } from './resources/in-memory-filesystem-options.js';
export type { ResourceBinding, ResourceResolver } from './resources/resource-binding.js';
export { ResourceContext, ResourceSnapshot } from './resources/resource-context.js';
export { ResourceToken, type ResourceKey } from './resources/resource-key.js';
export { ResourceRegistry, type MergeOptions } from './resources/resource-registry.js';
export { ResourceScope } from './resources/resource-scope.js';
export { isSnapshotable, type Snapshotable } from './resources/snapshotable.js';

export { AffordanceRuntime } from './runtime/affordance-runtime.js';
export { Budget, type BudgetDimension, type BudgetInit } from './runtime/budget.js';
export { BudgetTracker } from './runtime/budget-tracker.js';
export { systemClock, type Clock, type TimerHandle } from './runtime/clock.js';
export type {
  ConversationMessage,
  ProviderNativeCall,
  ProviderToolCall,
  ProviderTurn,
  ToolChoice,
} from './runtime/conversation.js';
export { Deadline, type DeadlineOptions } from './runtime/deadline.js';
export type { EvaluateOptions } from './runtime/evaluate-options.js';
export { ManualClock } from './runtime/manual-clock.js';
export { outputJsonSchema } from './runtime/output-json-schema.js';
export {
  parseStructuredOutput,
  type ParseStructuredOutputOptions,
  type StructuredAnswer,
} from './runtime/parse-structured-output.js';
export type { PromptResponse } from './runtime/prompt-response.js';
export { ProviderAdapter } from './runtime/provider-adapter.js';
export type { ProviderRequest } from './runtime/provider-request.js';
export type { RuntimeOptions } from './runtime/runtime-options.js';
export { sanitizeSchemaName } from './runtime/sanitize-schema-name.js';
export type { ToolCallOutcome } from './runtime/tool-call-outcome.js';

export { dump, type JsonValue } from './schema/dump.js';
export { normalizeStrictArguments } from './schema/normalize-strict-arguments.js';
export type {
  JsonSchema,
  ParamsJsonSchema,
  SchemaGap,
  SchemaProfile,
} from './schema/params-json-schema.js';
export {
  parseToolArguments,
  type ParseToolArgumentsOptions,
} from './schema/parse-tool-arguments.js';
export { toJsonSchema } from './schema/to-json-schema.js';

export { appendAll } from './session/append-all.js';
export type { Reducer as SliceReducer, ReducerContext } from './session/reducer.js';
export { replaceLatest } from './session/replace-latest.js';
export {
  Session,
  type CloneOptions,
  type InstallOptions,
  type RestoreOptions,
  type SessionOptions,
  type SessionTransactionOptions,
} from './session/session.js';
export type { SessionSnapshot } from './session/session-snapshot.js';
export { SliceAccessor, type RegisterOptions } from './session/slice-accessor.js';
export {
  SliceOp,
  type AppendOp,
  type ClearOp,
  type ExtendOp,
  type ReplaceOp,
} from './session/slice-op.js';
export { SlicePolicy } from './session/slice-policy.js';
export type { SliceType } from './session/slice-type.js';
export type { SessionView, SliceView } from './session/slice-view.js';
export { transaction, type TransactionOptions } from './session/transaction.js';
export { upsertBy } from './session/upsert-by.js';

export type { DataClass, ResultDeclaration } from './tools/class-type.js';
export { NativeTool, type NativeToolInit, type NativeToolType } from './tools/native-tool.js';
export { ToolContext, type ServiceResolver } from './tools/tool-context.js';
export {
  ToolDefinition,
  type ToolDefinitionInit,
  type ToolHandler,
} from './tools/tool-definition.js';
export { ToolExample, type ToolExampleInit } from './tools/tool-example.js';
export { TOOL_NAME_PATTERN } from './tools/tool-name.js';
export {
  renderToolValue,
  ToolResult,
  type RenderableValue,
  type ToolResultInit,
} from './tools/tool-result.js';
