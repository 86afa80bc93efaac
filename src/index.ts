/**
 * affordance: typed, validated, observable tools for large language models.
 *
 * The entry point for people writing tools, sections, prompts and sessions,
 * and running them: every name is listed here explicitly. Adapter authors use
 * `affordance/provider`; tests use `affordance/testing` (the scripted model
 * and the scope and resource inspection helpers).
 * @packageDocumentation
 * @module affordance
 */

export { installAffordance } from './runtime/scope/install-affordance.js';
export {
  AffordanceContainer,
  EvaluationId,
  ToolCallId,
  ToolCallSignal,
} from './runtime/scope/tokens.js';

export { Describe } from './decorators/describe.js';
export { MediaReference } from './decorators/media-reference.js';
export { Reducer } from './decorators/reducer.js';
export { Section } from './decorators/section.js';
export {
  type SchemaToolDecorator,
  Tool,
  type ToolMethodDecorator,
  type ToolResultValueOf,
} from './decorators/tool.js';

export {
  AffordanceError,
  type AffordanceErrorCode,
  type AffordanceErrorOptions,
} from './core/errors/affordance-error.js';
export {
  BudgetExceededError,
  type BudgetExceededErrorOptions,
} from './core/errors/budget-exceeded-error.js';
export {
  ConfigurationError,
  type ConfigurationErrorOptions,
} from './core/errors/configuration-error.js';
export {
  DeadlineExceededError,
  type DeadlineExceededErrorOptions,
} from './core/errors/deadline-exceeded-error.js';
export {
  EvaluationStateError,
  type EvaluationStateErrorOptions,
} from './core/errors/evaluation-state-error.js';
export {
  FilesystemError,
  type FilesystemErrorOptions,
  type FilesystemErrorReason,
  type FilesystemOperation,
} from './core/errors/filesystem-error.js';
export {
  OutputParseError,
  type OutputParseErrorOptions,
} from './core/errors/output-parse-error.js';
export type { ClassRef, PromptErrorFields } from './core/errors/prompt-error-fields.js';
export {
  SessionConflictError,
  type SessionConflictErrorOptions,
} from './core/errors/session-conflict-error.js';
export {
  PromptEvaluationError,
  type PromptEvaluationErrorOptions,
  type PromptEvaluationPhase,
} from './core/errors/prompt-evaluation-error.js';
export {
  PromptOverridesError,
  type PromptOverridesErrorOptions,
} from './core/errors/prompt-overrides-error.js';
export {
  LoopStoppedError,
  type LoopStopReason,
  type LoopStoppedErrorOptions,
} from './core/errors/loop-stopped-error.js';
export { PromptRenderError } from './core/errors/prompt-render-error.js';
export {
  MediaError,
  type MediaErrorOptions,
  type MediaLimitBreach,
} from './core/errors/media-error.js';

export {
  type ContentPart,
  contentText,
  isMediaPart,
  isTextPart,
  type MediaKind,
  type MediaPart,
  mediaParts,
  type MediaRef,
  type MessageContent,
  type TextPart,
} from './content/content-part.js';
export { Media, type MediaOptions, type MediaSource } from './content/media.js';
export {
  BlobStore,
  InMemoryBlobStore,
  type InMemoryBlobStoreOptions,
} from './content/blob-store.js';
export { DEFAULT_MEDIA_LIMITS, type MediaLimits } from './content/media-limits.js';
export type { FetchMediaOptions } from './runtime/media/fetch-media-options.js';
export { MEDIA_TYPES } from './content/media-types.js';
export { PromptValidationError } from './core/errors/prompt-validation-error.js';
export { ToolCallClosedError } from './core/errors/tool-call-closed-error.js';
export {
  ToolValidationError,
  type ToolValidationErrorOptions,
  type ToolValidationIssue,
} from './core/errors/tool-validation-error.js';

export type { DispatchFailure, DispatchParticipant } from './session/dispatch-failure.js';
export { DispatchResult, type DispatchResultInit } from './session/dispatch-result.js';
export type { Dispatcher } from './session/dispatcher.js';
export {
  PromptEvent,
  type EventStampInit,
  type PromptEventInit,
} from './runtime/events/prompt-event.js';
export type { EventHandler, EventType } from './session/event-type.js';
export { InProcessDispatcher } from './session/in-process-dispatcher.js';
export {
  PromptExecuted,
  type PromptExecutedInit,
  type PromptExecutedResult,
} from './runtime/events/prompt-executed.js';
export { PromptRendered, type PromptRenderedInit } from './runtime/events/prompt-rendered.js';
export {
  LoopIntervention,
  type LoopInterventionAction,
  type LoopInterventionInit,
  type LoopInterventionReason,
} from './runtime/events/loop-intervention.js';
export { TokenUsage, type TokenUsageInit } from './provider/token-usage.js';
export {
  ToolInvoked,
  type ToolInvokedInit,
  type ToolOutcome,
} from './runtime/events/tool-invoked.js';

export { isSectionClass, type SectionOptions } from './prompt/section-metadata.js';
export { hasToolMethods, type ToolOptions } from './tools/tool-metadata.js';

export {
  JsonFilePromptOverridesStore,
  type JsonFilePromptOverridesStoreOptions,
} from './prompt/overrides/json-file-overrides-store.js';
export {
  describePrompt,
  toolContractHash,
  type PromptDescriptor,
  type SectionDescriptor,
  type ToolDescriptor,
} from './prompt/overrides/prompt-descriptor.js';
export type {
  PromptOverride,
  SectionOverride,
  SkippedOverride,
  ToolOverride,
} from './prompt/overrides/prompt-override.js';
export type {
  PromptOverridesStore,
  ResolvedOverrides,
} from './prompt/overrides/prompt-overrides-store.js';

export { MarkdownSection, type MarkdownSectionInit } from './prompt/markdown-section.js';
export { Prompt, type PromptInit, type RenderOptions } from './prompt/prompt.js';
export type { PromptRegistry, PromptTree, SectionNode } from './prompt/prompt-registry.js';
export {
  PromptSection,
  SECTION_KEY_PATTERN,
  type EnabledPredicate,
  type SectionInit,
  type SectionRef,
  type SectionRenderScope,
} from './prompt/prompt-section.js';
export { RenderedPrompt } from './prompt/rendered-prompt.js';
export type { ToolParamHint } from './prompt/tool-param-hints.js';
export { SectionParams, sectionParams } from './prompt/section-params.js';
export type { SummarizedSection } from './prompt/render-sections.js';
export {
  SectionVisibilityOverride,
  type SectionVisibility,
  type SectionVisibilityOverrideInit,
} from './prompt/section-visibility.js';
export {
  OPEN_SECTIONS_TOOL,
  OpenSectionsParams,
  READ_SECTION_TOOL,
  ReadSectionParams,
} from './prompt/disclosure-tools.js';
export {
  VisibilityExpansionRequired,
  type VisibilityExpansionRequiredOptions,
} from './core/errors/visibility-expansion-required.js';
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
export type {
  ResourceBinding,
  ResourceBindings,
  ResourceResolver,
} from './resources/resource-binding.js';
export { ResourceToken, type ResourceKey } from './resources/resource-key.js';
export { ResourceRegistry, type MergeOptions } from './resources/resource-registry.js';
export { ResourceScope } from './resources/resource-scope.js';
export { isSnapshotable, type Snapshotable } from './session/snapshotable.js';

export { AffordanceRuntime } from './runtime/affordance-runtime.js';
export { Budget, type BudgetDimension, type BudgetInit } from './runtime/limits/budget.js';
export { BudgetTracker } from './runtime/limits/budget-tracker.js';
export { systemClock, type Clock, type TimerHandle } from './core/clock.js';
export {
  compileLinearPattern,
  type CompiledLinearPattern,
  type LinearPattern,
  type LinearPatternOptions,
  type LinearPatternRefusal,
} from './core/linear-pattern.js';
export { Deadline, type DeadlineOptions } from './runtime/limits/deadline.js';
export type { EvaluateOptions } from './runtime/evaluate-options.js';
export { EvaluationStream } from './runtime/evaluation-stream.js';
export type {
  EvaluationStreamPart,
  EvaluationStreamPartType,
} from './runtime/evaluation-stream-part.js';
export type { ToolChoice } from './provider/conversation.js';
export type {
  CompletedResponse,
  InterruptedResponse,
  PromptResponse,
  PromptResponseFields,
} from './runtime/prompt-response.js';
export type { ApprovalDecision } from './runtime/approval/approval-decision.js';
export type { EvaluationRecovery, ResumeRequest } from './runtime/approval/resume-request.js';
export type { EvaluationCheckpoint } from './runtime/evaluation-checkpoint.js';
export type { EvaluationInterruption } from './runtime/approval/evaluation-interruption.js';
export {
  EVALUATION_STATE_FORMAT,
  EVALUATION_STATE_VERSION,
  type EvaluationState,
  type SavedMessage,
  type SavedToolCall,
  type SavedToolResult,
} from './runtime/approval/evaluation-state.js';
export {
  EvaluationStateStore,
  InMemoryEvaluationStateStore,
} from './runtime/approval/evaluation-state-store.js';
export type { PendingToolCall } from './runtime/approval/pending-tool-call.js';
export { ProviderAdapter } from './provider/provider-adapter.js';
export type { RuntimeOptions } from './runtime/runtime-options.js';
export type { ToolAttempt, ToolRetry } from './tools/tool-retry.js';
export {
  type AnswerCheck,
  type AnswerPolicy,
  type AnswerPolicyRef,
  type AnswerToolCall,
  type AnswerVerdict,
  Guardrail,
  type InputCheck,
  type InputPolicy,
  type InputPolicyRef,
  type InputVerdict,
} from './prompt/guardrail-policy.js';
export {
  answerCitesToolResult,
  denyInputPatterns,
  type DenyInputPatternsOptions,
  maxInputSize,
} from './runtime/guardrails/built-in-guardrails.js';
export { GuardrailChecked, type GuardrailCheckedInit } from './runtime/events/guardrail-checked.js';
export { GuardrailError, type GuardrailErrorOptions } from './core/errors/guardrail-error.js';
export {
  DEFAULT_LOOP_GOVERNOR,
  type LoopGovernorOptions,
  type LoopGovernorSettings,
} from './runtime/governor/loop-governor-options.js';
export type { EvaluationObserver } from './runtime/telemetry/evaluation-observer.js';
export type {
  DirectCallStart,
  EvaluationStart,
  RuntimeTelemetry,
} from './runtime/telemetry/runtime-telemetry.js';
export type {
  ToolCallEnd,
  ToolCallEndOutcome,
  ToolCallObserver,
} from './runtime/telemetry/tool-call-observer.js';
export type { ToolCallOutcome } from './runtime/tool-call-outcome.js';
export type {
  NestedEvaluate,
  ToolContextMembers,
  ToolProgress,
} from './runtime/tool-context-members.js';
export type { CallToolOptions, ToolCallRequest } from './runtime/call-tool-request.js';
export {
  CallBudgetPolicy,
  type CallBudgetPolicyOptions,
} from './runtime/policies/call-budget-policy.js';
export {
  SequentialDependencyPolicy,
  type SequentialDependencyPolicyOptions,
} from './runtime/policies/sequential-dependency-policy.js';

export { dump, type JsonValue } from './schema/dump.js';
export {
  type DataSchema,
  isStandardSchema,
  type InferSchemaInput,
  type InferSchemaOutput,
  type JsonSchemaConverter,
  type StandardJsonSchemaConverter,
  type StandardSchemaIssue,
  type StandardSchemaPathSegment,
  type StandardSchemaProps,
  type StandardSchemaResult,
  type StandardSchemaV1,
} from './schema/standard-schema.js';
export type { ToolParams } from './schema/tool-params.js';
export { jsonSchemaProblems, type JsonSchemaObject } from './schema/json-schema-params.js';
export type { JsonSchemaProblem } from './schema/json-schema-problem.js';

export { appendAll } from './session/append-all.js';
export type { Reducer as SliceReducer, ReducerContext } from './session/reducer.js';
export { replaceLatest } from './session/replace-latest.js';
export { Session, type CloneOptions, type SessionOptions } from './session/session.js';
export type {
  InstallOptions,
  RestoreOptions,
  SessionTransactionOptions,
} from './session/session-options.js';
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

export type { Class, DataClass, ResultDeclaration } from './core/class-type.js';
export { NativeTool, type NativeToolInit, type NativeToolType } from './tools/native-tool.js';
export { ToolContext, type ServiceResolver } from './tools/tool-context.js';
export {
  ToolDefinition,
  type ToolDefinitionInit,
  type ToolHandler,
} from './tools/tool-definition.js';
export { ToolExample, type ToolExampleInit } from './tools/tool-example.js';
export { PolicyDecision, type PolicyVerdict } from './tools/policy-decision.js';
export type {
  PolicyCall,
  PolicyRef,
  PolicyTool,
  ToolApproval,
  ToolPolicy,
} from './tools/tool-policy.js';
export { TOOL_NAME_PATTERN } from './tools/tool-name.js';
export {
  renderToolValue,
  ToolResult,
  type RenderableValue,
  type ToolResultInit,
} from './tools/tool-result.js';
