import { OutputParseError } from '../core/errors/output-parse-error.js';
import type { PromptEvaluationError } from '../core/errors/prompt-evaluation-error.js';
import type { ProviderTurn } from '../provider/conversation.js';
import type { RequestOutput } from '../provider/provider-request.js';
import { parseStructuredOutput } from '../schema/parse-structured-output.js';

/** The final answer's text, or its structured output parsed into the prompt's output class. @internal */
export interface ParsedAnswer {
  readonly text: string | null;
  readonly output: unknown;
}

/**
 * Reads the final answer: its text for a free-text prompt, or the structured
 * output parsed and validated into `output`'s class. A parse failure becomes
 * the evaluation's error through `fail` (phase `response`, with the raw answer
 * as the provider payload). @internal
 */
export async function parseAnswer(
  answer: ProviderTurn,
  output: RequestOutput | undefined,
  fail: (error: OutputParseError) => PromptEvaluationError,
): Promise<ParsedAnswer> {
  const text = answer.text ?? null;
  if (output === undefined) return { text, output: null };
  try {
    const parsed = await parseStructuredOutput(output.type, output.container, {
      text,
      parsed: answer.parsed,
    });
    return { text: null, output: parsed };
  } catch (error) {
    if (OutputParseError.is(error)) throw fail(error);
    throw error;
  }
}
