import type { MediaLimits } from '../content/media-limits.js';
import type { FetchMediaOptions } from './media/fetch-media-options.js';
import type { ResourceRegistry } from '../resources/resource-registry.js';
import type { Clock } from '../core/clock.js';
import type { RuntimeTelemetry } from './telemetry/runtime-telemetry.js';
import type { LoopGovernorOptions } from './governor/loop-governor-options.js';

/** Options of the affordance runtime (given to `installAffordance`). */
export interface RuntimeOptions {
  /** The most provider requests one evaluation may make. Defaults to 24. */
  readonly maxTurns?: number;
  /**
   * The most characters of text, reasoning and tool-call arguments one
   * provider answer may carry, streamed or whole; a longer answer is stopped
   * as it arrives and fails the evaluation (docs/guide/guarantees.md). Defaults
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
   * The key (at least 16 characters) that signs, with HMAC-SHA-256, every state
   * an evaluation saves when it pauses for approval or checkpoints, and checks
   * every state the runtime resumes: a state altered by whoever held it (a
   * call's arguments, the session it runs in) is refused. Give every process
   * that saves or resumes a state the same secret, from your configuration
   * (`process.env.AFFORDANCE_STATE_SECRET`). Without one, an evaluation that
   * pauses or checkpoints fails with a `ConfigurationError` naming this option,
   * and no state is resumed, unless `unsignedStates` is `'accept-forgeable'`.
   * `createTestRuntime` (affordance/testing) sets a test secret.
   */
  readonly stateSecret?: string;
  /**
   * Whether this runtime saves and resumes states without a signature:
   * `'refuse'` (the default) or `'accept-forgeable'`, the explicit loosening
   * for a runtime that never hands a state to anyone it does not trust. With
   * `'accept-forgeable'`, a runtime without `stateSecret` saves states with a
   * plain SHA-256 digest (it catches accidental changes; whoever holds the
   * state can change it and recompute it), and every runtime resumes such
   * states. A resume still checks that the calls it runs are the pending ones
   * the approver saw, as the model sent them.
   */
  readonly unsignedStates?: 'refuse' | 'accept-forgeable' | undefined;
  /**
   * Observes every evaluation for tracing and metrics, e.g. `openTelemetry()`
   * from `affordance/otel`. None by default: evaluations then pay nothing for it.
   */
  readonly telemetry?: RuntimeTelemetry | undefined;
  /**
   * The loop governor of every evaluation: it warns a model that repeats a
   * failing call or makes no progress once, then stops the evaluation with a
   * `LoopStoppedError`, and tells the model when its last turn comes. On by
   * default with `DEFAULT_LOOP_GOVERNOR`; see {@link LoopGovernorOptions}.
   */
  readonly governor?: LoopGovernorOptions | undefined;
  /**
   * Bounds on the images, documents and audio of each evaluation (parts per
   * message, bytes per part and per evaluation, pixels per image); see
   * {@link MediaLimits} for the defaults. Providers' published limits are
   * checked by each adapter on top of these.
   */
  readonly media?: MediaLimits | undefined;
  /**
   * Lets the runtime download the input's URL parts whose host `allow` names
   * (for providers that cannot fetch URLs), capped at `maxBytes` while
   * streaming; see {@link FetchMediaOptions}. Absent (the default): the
   * library fetches no URL.
   */
  readonly fetchMedia?: FetchMediaOptions | undefined;
}
