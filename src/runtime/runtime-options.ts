import type { ResourceRegistry } from '../resources/resource-registry.js';
import type { Clock } from '../core/clock.js';
import type { RuntimeTelemetry } from './telemetry/runtime-telemetry.js';

/** Options of the affordance runtime (given to `installAffordance`). */
export interface RuntimeOptions {
  /** The most provider requests one evaluation may make. Defaults to 24. */
  readonly maxTurns?: number;
  /**
   * The most characters of text, reasoning and tool-call arguments one
   * provider answer may carry, streamed or whole; a longer answer is stopped
   * as it arrives and fails the evaluation (README, "Guarantees"). Defaults
   * to 4 Mi (`DEFAULT_MAX_ANSWER_CHARS`, 4,194,304).
   */
  readonly maxAnswerChars?: number;
  /** How many read-only tool calls of one turn may run at once. Defaults to 4. */
  readonly readOnlyConcurrency?: number;
  /** Source of time. Defaults to the system clock. */
  readonly clock?: Clock;
  /** Resources every evaluation gets (e.g. a `Filesystem`); per-evaluation ones are merged over them. */
  readonly resources?: ResourceRegistry;
  /**
   * Signs the state an evaluation saves when it pauses for approval (HMAC-SHA-256),
   * so a state kept outside the server (e.g. by a client) cannot be altered;
   * a runtime with a secret resumes only states signed with it. Without one,
   * states carry a plain SHA-256 digest that catches accidental changes only.
   */
  readonly stateSecret?: string;
  /**
   * Observes every evaluation for tracing and metrics, e.g. `openTelemetry()`
   * from `affordance/otel`. None by default: evaluations then pay nothing for it.
   */
  readonly telemetry?: RuntimeTelemetry | undefined;
}
