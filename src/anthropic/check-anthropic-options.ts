import { ConfigurationError } from '../index.js';
import { checkRetryOptions } from '../provider/index.js';
import {
  type AnthropicAdapterOptions,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
} from './anthropic-adapter-options.js';

/**
 * Checks an {@link AnthropicAdapterOptions} once, when the adapter is built.
 * @throws ConfigurationError naming the option and the fix.
 */
export function checkAnthropicOptions(options: AnthropicAdapterOptions): AnthropicAdapterOptions {
  const problem = (subject: string, what: string, fix: string): never => {
    throw new ConfigurationError({
      subject: `AnthropicAdapterOptions.${subject}`,
      problem: what,
      fix,
    });
  };
  if (
    typeof (options as Partial<AnthropicAdapterOptions> | undefined)?.model !== 'string' ||
    options.model === ''
  ) {
    problem('model', 'is required.', "Pass the model id, e.g. { model: 'claude-sonnet-4-6' }.");
  }
  const maxTokens = options.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS;
  if (!Number.isSafeInteger(maxTokens) || maxTokens < 1) {
    problem(
      'maxTokens',
      `must be a positive integer, got ${String(maxTokens)}.`,
      'Pass e.g. 4096.',
    );
  }
  const budget = options.thinking?.budgetTokens;
  if (
    budget !== undefined &&
    !(Number.isSafeInteger(budget) && budget >= 1024 && budget < maxTokens)
  ) {
    problem(
      'thinking.budgetTokens',
      `must be an integer of at least 1024 and below maxTokens (${maxTokens}), got ${String(budget)}.`,
      'Lower thinking.budgetTokens, or raise maxTokens above it.',
    );
  }
  if (budget !== undefined && options.modelSettings?.temperature !== undefined) {
    problem(
      'modelSettings.temperature',
      'cannot be set together with extended thinking (the API rejects it).',
      'Remove modelSettings.temperature, or remove thinking.',
    );
  }
  checkNumbers(options, problem);
  return options;
}

function checkNumbers(
  options: AnthropicAdapterOptions,
  problem: (subject: string, what: string, fix: string) => never,
): void {
  checkRetryOptions(options.retry, problem);
  const timeout = options.timeoutMs;
  if (timeout !== undefined && !(Number.isFinite(timeout) && timeout > 0)) {
    problem(
      'timeoutMs',
      `must be a positive number, got ${String(timeout)}.`,
      'Pass milliseconds, e.g. 60_000.',
    );
  }
  const pauses = options.maxPauseContinuations;
  if (pauses !== undefined && !(Number.isSafeInteger(pauses) && pauses >= 0)) {
    problem(
      'maxPauseContinuations',
      `must be a non-negative integer, got ${String(pauses)}.`,
      'Pass e.g. 8, or 0 to never continue.',
    );
  }
}
