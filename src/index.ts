/**
 * affordance: typed, validated, observable tools for large language models.
 *
 * This is the package's only public entry point for the core; every public
 * symbol is listed here by name.
 * @packageDocumentation
 */

export { Describe } from './decorators/describe.js';
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
export {
  ToolValidationError,
  type ToolValidationErrorOptions,
  type ToolValidationIssue,
} from './errors/tool-validation-error.js';

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

export type { DataClass, ResultDeclaration } from './tools/class-type.js';
export { NativeTool, type NativeToolInit, type NativeToolType } from './tools/native-tool.js';
export type { ServiceResolver, ToolContext } from './tools/tool-context.js';
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
