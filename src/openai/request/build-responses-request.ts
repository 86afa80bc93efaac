import type { ResponseCreateParamsNonStreaming } from 'openai/resources/responses/responses';

import { type ProviderRequest } from '../../provider/index.js';
import type { OpenAIAdapterOptions } from '../openai-adapter-options.js';
import { responsesInput } from './responses-input.js';
import { checkOpenAIMedia, OPENAI_RESPONSES_MEDIA } from './openai-media.js';
import { responsesToolChoice, responsesTools } from './responses-tools.js';
import { structuredOutputFormat } from './structured-output-format.js';

/** A Responses request body and what reading its answer needs to know. */
export interface ResponsesRequest {
  readonly body: ResponseCreateParamsNonStreaming;
  /** Whether the structured-output schema was sent strict. */
  readonly strictOutput: boolean;
}

/**
 * The `POST /responses` body for one provider request: instructions and
 * input, tools (with `strict` explicit), `tool_choice`, `parallel_tool_calls`,
 * the `json_schema` text format of a structured output, and the model settings.
 */
export function buildResponsesRequest(
  request: ProviderRequest,
  options: OpenAIAdapterOptions,
  prompt: string,
): ResponsesRequest {
  checkOpenAIMedia(OPENAI_RESPONSES_MEDIA, request.messages);
  const { instructions, input } = responsesInput(
    request,
    options.instructionsRole ?? 'instructions',
  );
  const body: Record<string, unknown> = { model: options.model };
  if (instructions !== undefined) body['instructions'] = instructions;
  body['input'] = input;
  if (request.tools.length > 0) {
    body['tools'] = responsesTools(request.tools);
    body['tool_choice'] = responsesToolChoice(request.toolChoice, request.tools, prompt);
    body['parallel_tool_calls'] = options.parallelToolCalls ?? true;
  }
  const settings = options.modelSettings ?? {};
  const text: Record<string, unknown> = {};
  const format =
    (options.structuredOutput ?? 'json_schema') === 'json_schema'
      ? structuredOutputFormat(request.output, request.prompt.name)
      : undefined;
  if (format !== undefined) {
    text['format'] = {
      type: 'json_schema',
      name: format.name,
      schema: format.schema,
      strict: format.strict,
    };
  }
  if (settings.verbosity !== undefined) text['verbosity'] = settings.verbosity;
  if (Object.keys(text).length > 0) body['text'] = text;
  setIfDefined(body, 'max_output_tokens', settings.maxOutputTokens);
  setIfDefined(body, 'temperature', settings.temperature);
  setIfDefined(body, 'top_p', settings.topP);
  if (settings.reasoning !== undefined) body['reasoning'] = { ...settings.reasoning };
  setIfDefined(body, 'store', settings.store);
  // Without storage, reasoning items can only be sent back with their encrypted content.
  if (settings.store === false) body['include'] = ['reasoning.encrypted_content'];
  setIfDefined(body, 'service_tier', settings.serviceTier);
  setIfDefined(body, 'safety_identifier', settings.safetyIdentifier);
  setIfDefined(body, 'prompt_cache_key', settings.promptCacheKey);
  if (settings.metadata !== undefined) body['metadata'] = { ...settings.metadata };
  Object.assign(body, settings.extraBody);
  return {
    body: body,
    strictOutput: format?.strict === true,
  };
}

function setIfDefined(body: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined) body[key] = value;
}
