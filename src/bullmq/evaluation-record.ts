import type { ApprovalDecision, EvaluationState, JsonValue } from '../index.js';
import type { EvaluationJobResult } from './evaluation-job.js';

/**
 * What the worker keeps about one job in the records of its session,
 * committed together with the session's slices. @internal
 */
export type EvaluationRecord =
  | {
      /** Started and not finished: `state` resumes it, `startedCalls` ran past their checkpoint. */
      readonly status: 'running';
      readonly state: EvaluationState | null;
      readonly decisions: readonly ApprovalDecision[];
      readonly startedCalls: readonly string[];
    }
  | {
      /** Paused for approval: `state` is resumed by a `resume` job. */
      readonly status: 'interrupted';
      readonly state: EvaluationState;
      readonly result: EvaluationJobResult;
    }
  | { readonly status: 'resumed'; readonly by: string; readonly result: EvaluationJobResult }
  | { readonly status: 'completed'; readonly result: EvaluationJobResult };

/** The record key of job `jobId`. @internal */
export function evaluationRecordKey(jobId: string): string {
  return `affordance.evaluation:${jobId}`;
}

/** `record` as a stored JSON value. @internal */
export function recordJson(record: EvaluationRecord): JsonValue {
  return record as unknown as JsonValue;
}

/** The record stored under `key`, if any. @internal */
export function readRecord(
  records: Readonly<Record<string, JsonValue>>,
  key: string,
): EvaluationRecord | undefined {
  const value = records[key];
  return value === undefined ? undefined : (value as unknown as EvaluationRecord);
}
