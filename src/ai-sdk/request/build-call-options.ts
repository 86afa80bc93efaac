import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3ToolChoice,
} from '@ai-sdk/provider';

import {
  outputJsonSchema,
  type ProviderRequest,
  sanitizeSchemaName,
  type ToolChoice,
} from '../../provider/index.js';
import type { AiSdkAdapterOptions } from '../ai-sdk-adapter-options.js';
import { aiSdkPrompt } from './ai-sdk-prompt.js';
import { type ProviderToolPlan, providerTools } from './provider-tools.js';

/** What an adapter knows besides the request, to build its call options. */
export interface CallPlan {
  /** The model object's `provider`: assistant parts of that provider go back as they were. */
  readonly provider: string;
  /** Whether the output schema is sent as the JSON response format. */
  readonly nativeOutput: boolean;
  /** The model object's specification version (`v3`, `v2`). */
  readonly specificationVersion: string;
  /** How `NativeTool`s become provider tools. */
  readonly providerTools: ProviderToolPlan;
  /** `AiSdkAdapterOptions.parallelToolCalls`: `false` is sent where the provider has a switch. */
  readonly parallelToolCalls: boolean;
}

/**
 * The provider option that turns parallel tool calls off, by provider family
 * (the model's `provider` up to its first dot), for the packages that have one.
 */
const noParallelCalls: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  mistral: { parallelToolCalls: false },
  groq: { parallelToolCalls: false },
};

/**
 * The AI SDK call options of one request: the conversation as a prompt, the
 * function tools with the schema the runtime chose (`strict` where it chose
 * strict), the `NativeTool`s as provider tools, the tool choice, the output schema as the JSON response format
 * (when asked natively), the settings and provider options of the adapter's
 * options, and `signal` as the abort signal.
 */
export function buildCallOptions(
  request: ProviderRequest,
  options: AiSdkAdapterOptions,
  plan: CallPlan,
  signal: AbortSignal | undefined,
): LanguageModelV3CallOptions {
  const settings = options.settings ?? {};
  const call: LanguageModelV3CallOptions = {
    prompt: aiSdkPrompt(request.messages, plan.provider),
    ...(signal === undefined ? {} : { abortSignal: signal }),
  };
  const tools = [
    ...functionTools(request),
    ...providerTools(request, plan.providerTools, plan.specificationVersion),
  ];
  if (tools.length > 0) {
    call.tools = tools as NonNullable<LanguageModelV3CallOptions['tools']>;
    call.toolChoice = toolChoiceOf(request.toolChoice);
  }
  if (request.output !== undefined && plan.nativeOutput) {
    call.responseFormat = {
      type: 'json',
      schema: outputJsonSchema(request.output.type, request.output.container),
      // A class names its schema; a Standard Schema has no name, so the prompt's stands in.
      name: sanitizeSchemaName(
        typeof request.output.type === 'function' && !('~standard' in request.output.type)
          ? request.output.type.name
          : request.prompt.name,
      ),
    };
  }
  if (settings.maxOutputTokens !== undefined) call.maxOutputTokens = settings.maxOutputTokens;
  if (settings.temperature !== undefined) call.temperature = settings.temperature;
  if (settings.topP !== undefined) call.topP = settings.topP;
  if (settings.topK !== undefined) call.topK = settings.topK;
  if (settings.presencePenalty !== undefined) call.presencePenalty = settings.presencePenalty;
  if (settings.frequencyPenalty !== undefined) call.frequencyPenalty = settings.frequencyPenalty;
  if (settings.stopSequences !== undefined) call.stopSequences = [...settings.stopSequences];
  if (settings.seed !== undefined) call.seed = settings.seed;
  if (settings.headers !== undefined) call.headers = { ...settings.headers };
  const providerOptions = providerOptionsOf(options, plan, tools.length > 0);
  if (providerOptions !== undefined) {
    call.providerOptions = providerOptions as NonNullable<
      LanguageModelV3CallOptions['providerOptions']
    >;
  }
  return call;
}

/**
 * The options' provider options, with the provider's switch against parallel
 * tool calls added under its key when `parallelToolCalls` is `false` and tools
 * are offered (an explicit value in `providerOptions` wins).
 */
function providerOptionsOf(
  options: AiSdkAdapterOptions,
  plan: CallPlan,
  hasTools: boolean,
): AiSdkAdapterOptions['providerOptions'] {
  const given = options.providerOptions;
  const family = plan.provider.split('.')[0] ?? plan.provider;
  const serial = noParallelCalls[family];
  if (plan.parallelToolCalls || !hasTools || serial === undefined) return given;
  return { ...given, [family]: { ...serial, ...given?.[family] } };
}

/** The request's function tools (provider-executed ones become provider tools). */
function functionTools(request: ProviderRequest): LanguageModelV3FunctionTool[] {
  return request.tools
    .filter((spec) => !spec.tool.native)
    .map((spec) => {
      const tool: LanguageModelV3FunctionTool = {
        type: 'function',
        name: spec.name,
        description: spec.description,
        inputSchema: spec.parameters,
      };
      if (spec.strict) tool.strict = true;
      return tool;
    });
}

function toolChoiceOf(choice: ToolChoice): LanguageModelV3ToolChoice {
  if (typeof choice === 'string') return { type: choice };
  return { type: 'tool', toolName: choice.name };
}
