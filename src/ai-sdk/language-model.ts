import { ConfigurationError } from '../index.js';

/** The AI SDK language-model specification versions this build maps and was tested with. */
export const SUPPORTED_SPECIFICATION_VERSIONS: readonly string[] = Object.freeze(['v3', 'v2']);

/** Provider options keyed by provider, passed through to the provider package as they are. */
export type AiSdkProviderOptions = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/**
 * An AI SDK language model object, as far as the adapter reads it: the
 * `LanguageModelV3` (and `LanguageModelV2`) specification of `@ai-sdk/provider`
 * made by a provider package. Checked structurally when the adapter is built.
 */
export interface AiSdkLanguageModel {
  /** `v3` for the `ai` 6 line of provider packages, `v2` for the `ai` 5 line. */
  readonly specificationVersion: string;
  /** The provider id, e.g. `google.generative-ai`, `mistral.chat`. */
  readonly provider: string;
  /** The model id, e.g. `gemini-2.5-flash`. */
  readonly modelId: string;
  /** Whether the model supports structured outputs, where the provider package says so. */
  readonly supportsStructuredOutputs?: boolean | undefined;
  /** Generates a whole answer. */
  doGenerate(options: unknown): PromiseLike<unknown>;
  /** Generates an answer as a stream of parts. */
  doStream(options: unknown): PromiseLike<unknown>;
}

/**
 * Checks that `model` is an AI SDK language model of a supported
 * specification version (or, with `acceptUntested`, of any version whose
 * shape fits).
 * @throws ConfigurationError naming what was found and what is supported.
 */
export function checkLanguageModel(model: unknown, acceptUntested: boolean): AiSdkLanguageModel {
  const problem = (what: string, fix: string): never => {
    throw new ConfigurationError({ subject: 'AiSdkAdapterOptions.model', problem: what, fix });
  };
  if (typeof model === 'string') {
    problem(
      `is the string '${model}', not a language model object.`,
      "Pass the model object a provider package makes, e.g. google('gemini-2.5-flash') from '@ai-sdk/google'.",
    );
  }
  if (typeof model !== 'object' || model === null) {
    problem(
      `must be an AI SDK language model object, got ${model === null ? 'null' : typeof model}.`,
      "Pass the model object a provider package makes, e.g. google('gemini-2.5-flash') from '@ai-sdk/google'.",
    );
  }
  const record = model as Record<string, unknown>;
  const version = record['specificationVersion'];
  const supported = SUPPORTED_SPECIFICATION_VERSIONS.map((v) => `'${v}'`).join(' and ');
  const shapeFits =
    typeof record['doGenerate'] === 'function' &&
    typeof record['doStream'] === 'function' &&
    typeof record['provider'] === 'string' &&
    typeof record['modelId'] === 'string';
  if (typeof version !== 'string') {
    problem(
      'has no specificationVersion, so it is not an AI SDK language model (or one of its first version, ' +
        `which this adapter does not map); supported versions: ${supported}.`,
      'Pass a model object from an AI SDK provider package of the ai 6 line (@ai-sdk/provider 3), e.g. @ai-sdk/google 3.',
    );
  }
  const known = SUPPORTED_SPECIFICATION_VERSIONS.includes(version as string);
  if (!known && !(acceptUntested && shapeFits)) {
    problem(
      `has specificationVersion '${String(version)}'; this adapter supports ${supported}` +
        (shapeFits ? '.' : ', and the object lacks doGenerate/doStream or provider/modelId.'),
      'Use a provider package of the ai 6 line (@ai-sdk/provider 3, specification v3), ' +
        'or set acceptUntestedSpecification: true to try a newer model object whose shape fits.',
    );
  }
  if (!shapeFits) {
    problem(
      `declares specificationVersion '${String(version)}' but lacks doGenerate/doStream functions or provider/modelId strings.`,
      'Pass the model object a provider package makes, not a copy or a wrapper of it.',
    );
  }
  return model as AiSdkLanguageModel;
}
