import { ConfigurationError } from '../index.js';
import { checkRetryOptions } from '../provider/index.js';
import type { AiSdkAdapterOptions } from './ai-sdk-adapter-options.js';
import { type AiSdkLanguageModel, checkLanguageModel } from './language-model.js';

/**
 * Checks an {@link AiSdkAdapterOptions} once, when the adapter is built, and
 * returns its model object.
 * @throws ConfigurationError naming the option and the fix.
 */
export function checkAiSdkOptions(options: AiSdkAdapterOptions): AiSdkLanguageModel {
  const problem = (subject: string, what: string, fix: string): never => {
    throw new ConfigurationError({ subject: `AiSdkAdapterOptions.${subject}`, problem: what, fix });
  };
  if (typeof options !== 'object' || (options as unknown) === null) {
    problem(
      '',
      `must be an object, got ${(options as unknown) === null ? 'null' : typeof options}.`,
      "Pass { model: google('gemini-2.5-flash') } (a model object of an AI SDK provider package).",
    );
  }
  const model = checkLanguageModel(options.model, options.acceptUntestedSpecification === true);
  checkRetryOptions(options.retry, problem);
  const output = options.structuredOutput as unknown;
  if (output !== undefined && output !== 'native' && output !== 'text') {
    problem(
      'structuredOutput',
      `must be 'native' or 'text', got ${JSON.stringify(output)}.`,
      "Pass 'native' (the schema is sent) or 'text' (JSON read from the answer's text).",
    );
  }
  for (const [key, id] of Object.entries(options.providerTools ?? {})) {
    if (typeof id !== 'string' || !/^[^.\s]+\.[^\s]+$/.test(id)) {
      problem(
        `providerTools.${key}`,
        `must be an AI SDK provider tool id '<provider>.<tool>', got ${JSON.stringify(id)}.`,
        "Pass the id the provider package gives the tool, e.g. 'google.google_search' or 'openai.web_search'.",
      );
    }
  }
  const max = options.settings?.maxOutputTokens;
  if (max !== undefined && !(Number.isSafeInteger(max) && max > 0)) {
    problem(
      'settings.maxOutputTokens',
      `must be a positive integer, got ${String(max)}.`,
      'Pass e.g. 4096, or leave it out.',
    );
  }
  return model;
}
