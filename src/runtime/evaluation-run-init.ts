import type { Clock } from '../core/clock.js';
import type { EvaluateOptions } from './evaluate-options.js';
import type { PartSink } from './evaluation-stream.js';
import type { ResumePoint } from './approval/resume-point.js';
import type { StateSigner } from './approval/state-signer.js';
import type { EvaluationScope } from './scope/evaluation-scope.js';
import type { ToolExecutor } from './tool-executor.js';
import type { EvaluationObserver } from './telemetry/evaluation-observer.js';
import type { LoopGovernor } from './governor/loop-governor.js';

/** What one evaluation needs from the runtime that runs it. */
export interface EvaluationRunInit {
  readonly scope: EvaluationScope;
  readonly executor: ToolExecutor;
  readonly clock: Clock;
  readonly maxTurns: number;
  /** The most characters of one answer (`maxAnswerChars`), sent with each request. */
  readonly maxAnswerChars: number;
  readonly options: EvaluateOptions;
  /** Where a streamed evaluation sends its parts; absent for `evaluate`. */
  readonly sink?: PartSink | undefined;
  /** Where a resumed evaluation picks up; absent for a new one. */
  readonly resume?: ResumePoint | undefined;
  /** Signs the state saved when the evaluation pauses for approval or checkpoints. */
  readonly signer: StateSigner;
  /** Follows the evaluation for tracing and metrics, when the runtime has telemetry. */
  readonly observer?: EvaluationObserver | undefined;
  /** Watches the turns for a model that loops (see `LoopGovernorOptions`). */
  readonly governor: LoopGovernor;
}
