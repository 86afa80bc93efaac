import { ConfigurationError } from '../core/errors/configuration-error.js';

/**
 * How the runtime retries a call of a tool whose handler throws an error the
 * application marks transient (a dropped connection, a 503). Only for tools
 * that are `readOnly` or declared `idempotent`: a state-changing tool that is
 * neither is refused when it is defined. Each attempt is in the call's
 * `ToolInvoked.attempts`; the state is rolled back between attempts.
 */
export interface ToolRetry {
  /** How many attempts in all, the first included: 2 to 10. */
  readonly attempts: number;
  /** Whether a thrown error is worth another attempt; anything else fails the call at once. */
  readonly transient: (error: unknown) => boolean;
  /** The wait before the second attempt, doubled before each further one. Defaults to 100 ms. */
  readonly backoffMs?: number | undefined;
  /** The longest wait between two attempts. Defaults to 5,000 ms. */
  readonly maxBackoffMs?: number | undefined;
}

/** One attempt of a call, as its `ToolInvoked.attempts` records it. */
export interface ToolAttempt {
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** Whether the handler returned a result (`returned`) or threw (`threw`). */
  readonly ended: 'returned' | 'threw';
  /** What the handler threw, described (never the thrown value itself). */
  readonly error?: string | undefined;
  /** How long the attempt took, in milliseconds. */
  readonly durationMs: number;
  /** How long the runtime waited after this attempt before the next one (0 for the last). */
  readonly delayMs: number;
}

/** The longest timeout a tool may declare: 24 hours. */
const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/** A tool's (or a prompt's) `timeoutMs`, checked. @internal */
export function checkTimeout(subject: string, given: unknown, option: string): number | undefined {
  if (given === undefined) return undefined;
  if (
    typeof given === 'number' &&
    Number.isInteger(given) &&
    given >= 1 &&
    given <= MAX_TIMEOUT_MS
  ) {
    return given;
  }
  throw new ConfigurationError({
    subject,
    problem: `${option} must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${typeof given === 'number' ? String(given) : typeof given}.`,
    fix: `Pass e.g. \`${option}: 10_000\` for ten seconds, or leave it out for no limit.`,
  });
}

/**
 * A tool's `retry`, checked against what the tool declares: refused for a
 * state-changing tool that is not declared idempotent. @internal
 */
export function checkRetry(
  subject: string,
  retry: ToolRetry | undefined,
  readOnly: boolean,
  idempotent: boolean,
): ToolRetry | undefined {
  if (retry === undefined) return undefined;
  if (!readOnly && !idempotent) {
    throw new ConfigurationError({
      subject,
      problem:
        'retry is set on a tool that changes state and is not declared idempotent: ' +
        'running it again after a failure could apply its change twice.',
      fix: 'Declare `idempotent: true` if a repeated call has the same effect as one, `readOnly: true` if it changes nothing, or remove `retry`.',
    });
  }
  const { attempts, transient, backoffMs, maxBackoffMs } = retry;
  if (!Number.isInteger(attempts) || attempts < 2 || attempts > 10) {
    throw new ConfigurationError({
      subject,
      problem: `retry.attempts must be a whole number from 2 to 10 (the first attempt included), got ${String(attempts)}.`,
      fix: 'Pass e.g. `attempts: 3`.',
    });
  }
  if (typeof transient !== 'function') {
    throw new ConfigurationError({
      subject,
      problem:
        'retry.transient must be a function saying whether a thrown error is worth another attempt.',
      fix: "Pass e.g. `transient: (error) => (error as { code?: string }).code === 'ECONNRESET'`.",
    });
  }
  for (const [name, value] of [
    ['backoffMs', backoffMs],
    ['maxBackoffMs', maxBackoffMs],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 0 && value <= 60_000)) {
      throw new ConfigurationError({
        subject,
        problem: `retry.${name} must be a whole number of milliseconds from 0 to 60000, got ${String(value)}.`,
        fix: `Pass e.g. \`${name}: 200\`, or leave it out.`,
      });
    }
  }
  return Object.freeze({ attempts, transient, backoffMs, maxBackoffMs });
}

/** The wait after attempt `attempt` (1 first): `backoffMs` doubled per attempt, capped. @internal */
export function retryDelay(retry: ToolRetry, attempt: number): number {
  const base = retry.backoffMs ?? 100;
  return Math.min(retry.maxBackoffMs ?? 5_000, base * 2 ** (attempt - 1));
}
