import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { ProviderAdapter } from '../provider/provider-adapter.js';
import { PROVIDER_SEAM_VERSION } from '../provider/provider-capabilities.js';
import { PromptEvaluationError } from '../core/errors/prompt-evaluation-error.js';
import type { Prompt } from '../prompt/prompt.js';
import type { Deadline } from './limits/deadline.js';

/** Refuses an adapter written for another version of the provider seam. */
export function checkSeam(adapter: ProviderAdapter): void {
  const given: unknown = adapter;
  const version = (given as Partial<ProviderAdapter> | null)?.capabilities?.seamVersion;
  if (version !== PROVIDER_SEAM_VERSION || typeof adapter.request !== 'function') {
    const name =
      typeof given === 'object' && given !== null ? given.constructor.name : typeof given;
    throw new ConfigurationError({
      subject: `Provider adapter ${name}`,
      problem:
        version === undefined
          ? 'is not a provider adapter for this version of affordance: it declares no capabilities.seamVersion.'
          : `implements provider seam version ${String(version)}; this runtime speaks version ${PROVIDER_SEAM_VERSION}.`,
      fix: `Extend ProviderAdapter and declare capabilities with seamVersion: ${PROVIDER_SEAM_VERSION} (PROVIDER_SEAM_VERSION), or update the adapter's package.`,
    });
  }
}

export function checkSecret(secret: unknown): string | undefined {
  if (secret === undefined) return undefined;
  if (typeof secret !== 'string' || secret.length < 16) {
    throw new ConfigurationError({
      subject: 'stateSecret',
      problem: 'must be a string of at least 16 characters.',
      fix: 'Pass a long random secret from your configuration, e.g. `stateSecret: process.env.AFFORDANCE_STATE_SECRET`, or leave it out (the runtime then neither saves nor resumes evaluation states).',
    });
  }
  return secret;
}

export function positiveInteger(
  value: number,
  name: string,
  example: number = name === 'maxTurns' ? 24 : 4,
): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new ConfigurationError({
      subject: name,
      problem: `must be a positive integer, got ${String(value)}.`,
      fix: `Pass a whole number of at least 1, e.g. ${name}: ${example}, or leave it out for the default.`,
    });
  }
  return value;
}

/** `maxAnswerChars` of the runtime or of an evaluation, checked. @internal */
export function answerLimit(value: number): number {
  return positiveInteger(value, 'maxAnswerChars', 4_194_304);
}

/** Throws when `deadline` passed before the evaluation of `prompt` started. @internal */
export function checkNotExpired(prompt: Prompt, deadline: Deadline | undefined): void {
  if (deadline?.expired !== true) return;
  throw new PromptEvaluationError('Deadline expired before evaluation started.', {
    phase: 'request',
    prompt: prompt.label,
    providerPayload: { deadlineExpiresAt: deadline.expiresAt.toISOString() },
  });
}
