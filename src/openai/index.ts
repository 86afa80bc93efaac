/**
 * affordance/openai: the OpenAI adapter (Responses API and Chat Completions)
 * over the official `openai` SDK, an optional peer dependency. Core affordance
 * never imports `openai`; only this entry point does.
 * @packageDocumentation
 */
export {
  ApplyPatchOperation,
  type ApplyPatchOperationType,
} from './tools/apply-patch-operation.js';
export { ApplyPatchTool, type ApplyPatchToolInit } from './tools/apply-patch-tool.js';
export { OpenAIAdapter } from './openai-adapter.js';
export {
  OpenAIAdapterOptions,
  type OpenAIApi,
  type OpenAIInstructionsRole,
} from './openai-adapter-options.js';
export type { OpenAIModelSettings } from './openai-model-settings.js';
export type { OpenAIRetryEvent, OpenAIRetryOptions } from './openai-retry-options.js';
export { ShellCallParams } from './tools/shell-call-params.js';
export { ShellCommandOutput } from './tools/shell-command-output.js';
export { ShellTool, type ShellToolInit } from './tools/shell-tool.js';
