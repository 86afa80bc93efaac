import {
  type AffordanceRuntime,
  type Prompt,
  type ApprovalDecision,
  ConfigurationError,
  type EvaluateOptions,
  type EvaluationState,
  type JsonValue,
  type PromptResponse,
} from '../index.js';
import type { DurableSession, SessionPersistence } from '../durable/index.js';
import { DurableCheckpoint } from './durable-checkpoint.js';
import type { EvaluationJobData, EvaluationJobResult } from './evaluation-job.js';
import { evaluationRecordKey, readRecord, recordJson } from './evaluation-record.js';
import { checkJobData } from './check-job-data.js';
import type { EvaluationJobLike, EvaluationJobPrompt } from './evaluation-job-prompt.js';

/** What running a job needs. */
export interface EvaluationJobContext {
  /** The runtime that evaluates; it needs a `stateSecret` (checkpoints are signed states). */
  readonly runtime: AffordanceRuntime;
  /** Where sessions are loaded from and committed to. */
  readonly persistence: SessionPersistence;
  /** The prompts jobs may name, by name. */
  readonly prompts: Readonly<Record<string, EvaluationJobPrompt>>;
  /**
   * Runs the evaluation instead of `runtime.evaluate` (same prompt and
   * options), e.g. NestJS's `AffordanceService.evaluate` with a request made
   * from the job, so request-scoped sections resolve in a worker.
   */
  readonly evaluate?:
    | ((
        prompt: Prompt,
        options: EvaluateOptions,
        job: EvaluationJobLike,
      ) => Promise<PromptResponse>)
    | undefined;
}

interface StartPoint {
  readonly state: EvaluationState | null;
  readonly decisions: readonly ApprovalDecision[];
  readonly started: readonly string[];
}

/**
 * Runs one evaluation job on its stored session: a finished job returns its
 * stored result; a job that was running when its worker died recovers from its
 * last checkpoint (committed calls are not run again; a call that had started
 * without a record is recorded with outcome `unknown`); a `resume` job takes
 * over the paused evaluation it names, once. The session and the job's record
 * are committed at every checkpoint and at the end.
 */
export async function runEvaluationJob(
  job: EvaluationJobLike,
  context: EvaluationJobContext,
  signal?: AbortSignal,
): Promise<EvaluationJobResult> {
  const { data, jobId, entry } = checkJobData(job, context.prompts);
  const params = entry.params?.(data.data) ?? [];
  // Before the load: the stored session holds instances of these classes.
  context.persistence.codec.registerPrompt(entry.prompt, params);
  const durable = await context.persistence.open(data.sessionId, { setup: entry.setup });
  const key = evaluationRecordKey(jobId);
  const own = readRecord(durable.records, key);
  if (own !== undefined && own.status !== 'running') return own.result;
  const from: StartPoint =
    own !== undefined
      ? { state: own.state, decisions: own.decisions, started: own.startedCalls }
      : await startPoint(durable, data, jobId, key);
  const checkpoint = new DurableCheckpoint(
    durable,
    key,
    (progress) => job.updateProgress(progress),
    from,
  );
  const options: EvaluateOptions = {
    session: durable.session,
    params,
    input: data.input,
    maxTurns: data.maxTurns,
    checkpoint,
    signal,
  };
  const evaluate =
    context.evaluate ??
    ((prompt: Prompt, given: EvaluateOptions) => context.runtime.evaluate(prompt, given));
  let response: PromptResponse;
  try {
    response = await evaluate(
      entry.prompt,
      from.state === null
        ? options
        : Object.assign({}, options, {
            resume: {
              state: from.state,
              decisions: from.decisions,
              recovery: { startedCalls: from.started },
            },
          }),
      job,
    );
  } catch (error) {
    // What the evaluation recorded before it failed is kept; the job's checkpoint stays for a retry.
    await durable.commit().catch(() => undefined);
    throw error;
  }
  return await finishJob(durable, key, response);
}

/** Where a job with no record starts: a new evaluation, or the paused one a `resume` job names. */
async function startPoint(
  durable: DurableSession,
  data: EvaluationJobData,
  jobId: string,
  key: string,
): Promise<StartPoint> {
  if (data.kind === 'evaluate') return { state: null, decisions: [], started: [] };
  const pausedKey = evaluationRecordKey(data.resumeOf ?? '');
  const paused = readRecord(durable.records, pausedKey);
  if (paused?.status !== 'interrupted') {
    throw new ConfigurationError({
      subject: `Resume job ${jobId} of session ${data.sessionId}`,
      problem:
        paused === undefined
          ? `job ${data.resumeOf ?? ''} has no paused evaluation in this session.`
          : `job ${data.resumeOf ?? ''}'s evaluation is ${paused.status === 'resumed' ? `already resumed by job ${paused.by}` : paused.status}, not waiting for approval.`,
      fix: 'Resume the job whose result has status interrupted, once, with EvaluationQueue.resume.',
    });
  }
  const decisions = data.decisions ?? [];
  // Taking the paused evaluation and starting this job's record is one commit: a second resume conflicts.
  await durable.commit({
    records: {
      [pausedKey]: recordJson({ status: 'resumed', by: jobId, result: paused.result }),
      [key]: recordJson({ status: 'running', state: paused.state, decisions, startedCalls: [] }),
    },
  });
  return { state: paused.state, decisions, started: [] };
}

/** Commits the evaluation's end with the job's result, and returns the result. */
async function finishJob(
  durable: DurableSession,
  key: string,
  response: PromptResponse,
): Promise<EvaluationJobResult> {
  if (response.status === 'interrupted') {
    const result: EvaluationJobResult = {
      status: 'interrupted',
      evaluationId: response.evaluationId,
      pending: response.interruption.pending.map((call) => ({
        callId: call.callId,
        name: call.name,
        arguments: toJson(call.arguments),
        reason: call.reason,
      })),
    };
    const state = response.interruption.state;
    await durable.commit({
      records: { [key]: recordJson({ status: 'interrupted', state, result }) },
    });
    return result;
  }
  const result: EvaluationJobResult = {
    status: 'completed',
    evaluationId: response.evaluationId,
    text: response.text,
    output: toJson(response.output),
    turns: response.turns,
    toolCalls: response.toolCalls.length,
  };
  await durable.commit({ records: { [key]: recordJson({ status: 'completed', result }) } });
  return result;
}

function toJson(value: unknown): JsonValue {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}
