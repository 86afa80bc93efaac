import type {
  ApprovalDecision,
  EvaluationCheckpoint,
  EvaluationState,
  ToolCallOutcome,
} from '../index.js';
import type { DurableSession } from '../durable/index.js';
import type { ProviderToolCall } from '../provider/index.js';
import type { EvaluationJobProgress } from './evaluation-job.js';
import { recordJson } from './evaluation-record.js';

/** Where a job's progress goes (BullMQ's `job.updateProgress`). @internal */
export type ReportProgress = (progress: EvaluationJobProgress) => Promise<void>;

/**
 * The checkpoint of one job on its durable session: the turn's state and the
 * started calls go into the job's record, and the session (with each call's
 * `ToolInvoked` and what the call changed) is committed once the calls are
 * recorded, so a job re-run after a crash finds every committed call. @internal
 */
export class DurableCheckpoint implements EvaluationCheckpoint {
  readonly #durable: DurableSession;
  readonly #key: string;
  readonly #report: ReportProgress;
  #state: EvaluationState | null;
  #decisions: readonly ApprovalDecision[];
  #started: string[];
  #toolCalls = 0;

  constructor(
    durable: DurableSession,
    key: string,
    report: ReportProgress,
    from: {
      state: EvaluationState | null;
      decisions: readonly ApprovalDecision[];
      started: readonly string[];
    },
  ) {
    this.#durable = durable;
    this.#key = key;
    this.#report = report;
    this.#state = from.state;
    this.#decisions = from.decisions;
    this.#started = [...from.started];
  }

  /** {@inheritDoc EvaluationCheckpoint.turnStarted} */
  async turnStarted(state: EvaluationState): Promise<void> {
    this.#state = state;
    // The state carries the decisions given so far (`decided`).
    this.#decisions = [];
    this.#started = [];
    await this.#commit();
    await this.#progress(state.turn, []);
  }

  /** {@inheritDoc EvaluationCheckpoint.callsStarting} */
  async callsStarting(calls: readonly ProviderToolCall[]): Promise<void> {
    for (const call of calls) this.#started.push(call.callId);
    await this.#commit();
  }

  /** {@inheritDoc EvaluationCheckpoint.callsRecorded} */
  async callsRecorded(outcomes: readonly ToolCallOutcome[]): Promise<void> {
    this.#toolCalls += outcomes.length;
    await this.#commit();
    await this.#progress(
      this.#state?.turn ?? 0,
      outcomes.map((outcome) => outcome.call.name),
    );
  }

  /** Commits the session with the job's running record. */
  async #commit(): Promise<void> {
    await this.#durable.commit({
      records: {
        [this.#key]: recordJson({
          status: 'running',
          state: this.#state,
          decisions: this.#decisions,
          startedCalls: this.#started,
        }),
      },
    });
  }

  async #progress(turn: number, lastCalls: readonly string[]): Promise<void> {
    const evaluationId = this.#state?.evaluationId;
    if (evaluationId === undefined) return;
    await this.#report({ evaluationId, turn, toolCalls: this.#toolCalls, lastCalls });
  }
}
