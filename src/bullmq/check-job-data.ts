import { MAX_STORED_NAME_LENGTH } from '../durable/index.js';

import { ConfigurationError } from '../index.js';
import type { EvaluationJobData } from './evaluation-job.js';
import type { EvaluationJobLike, EvaluationJobPrompt } from './evaluation-job-prompt.js';
import { evaluationRecordKey } from './evaluation-record.js';

/**
 * The longest `input` a job may carry, in characters (`input.length`): 1 MiB
 * of text, about 250,000 tokens, beyond any model's useful message. A longer
 * one fails the job at once (docs/guide/durable.md).
 */
export const MAX_JOB_INPUT_LENGTH = 1024 * 1024;

/**
 * The largest `maxTurns` a job may carry: each turn is a paid request to the
 * model, and the runtime's default is 24. A larger one fails the job at once.
 */
export const MAX_JOB_TURNS = 1_000;

/** The longest job id whose record key (`evaluationRecordKey`) the stores take. */
const MAX_JOB_ID_LENGTH = MAX_STORED_NAME_LENGTH - evaluationRecordKey('').length;

type Refuse = (problem: string, fix: string) => ConfigurationError;

/** A job's data, checked, with its id and the prompt it names. @internal */
export interface CheckedJob {
  readonly data: EvaluationJobData;
  readonly jobId: string;
  readonly entry: EvaluationJobPrompt;
}

/**
 * Checks every field a job carries before anything is loaded: an id, a known
 * prompt, a session id, the input and turn limit within
 * {@link MAX_JOB_INPUT_LENGTH} and {@link MAX_JOB_TURNS}, for `resume` the
 * paused job and its decisions, and the propagated context. @internal
 * @throws ConfigurationError naming the job, the field and the fix.
 */
export function checkJobData(
  job: EvaluationJobLike,
  prompts: Readonly<Record<string, EvaluationJobPrompt>>,
): CheckedJob {
  const jobId = job.id;
  const shownId = typeof jobId === 'string' && jobId.length > 40 ? `${jobId.slice(0, 40)}…` : jobId;
  const subject = `Evaluation job ${shownId ?? '(no id)'}`;
  const refuse: Refuse = (problem, fix) => new ConfigurationError({ subject, problem, fix });
  if (typeof jobId !== 'string' || jobId === '') {
    throw refuse(
      'has no id.',
      'Run evaluation jobs through a BullMQ Worker, which gives every job an id.',
    );
  }
  if (jobId.length > MAX_JOB_ID_LENGTH) {
    throw refuse(
      `has an id of ${jobId.length} characters; its record key would be longer than MAX_STORED_NAME_LENGTH (${MAX_STORED_NAME_LENGTH}) allows.`,
      `Give jobs ids of at most ${MAX_JOB_ID_LENGTH} characters (hash longer ones), or let BullMQ number them.`,
    );
  }
  const data: unknown = job.data;
  if (typeof data !== 'object' || data === null) {
    throw refuse(`has data ${shown(data)}.`, 'Add jobs with EvaluationQueue.enqueue or .resume.');
  }
  const given = data as Partial<EvaluationJobData>;
  if (given.kind !== 'evaluate' && given.kind !== 'resume') {
    throw refuse(
      `has kind ${shown(given.kind)}.`,
      "Use 'evaluate' or 'resume' (EvaluationQueue.enqueue or .resume set it).",
    );
  }
  if (typeof given.sessionId !== 'string' || given.sessionId === '') {
    throw refuse('has no sessionId.', 'Give every job the id of the session it records in.');
  }
  const name = given.prompt;
  const entry =
    typeof name === 'string' && Object.hasOwn(prompts, name) ? prompts[name] : undefined;
  if (entry === undefined) {
    throw refuse(
      `names prompt ${shown(name)}, which this worker does not know (it knows: ${Object.keys(prompts).join(', ') || 'none'}).`,
      'Add the prompt to the prompts option of createEvaluationWorker under that name, or enqueue a known name.',
    );
  }
  if (given.kind === 'resume') checkResume(given, refuse);
  checkInput(given, refuse);
  const context: unknown = given.context;
  if (
    context !== undefined &&
    (typeof context !== 'object' ||
      context === null ||
      Array.isArray(context) ||
      !Object.values(context).every((value) => typeof value === 'string'))
  ) {
    throw refuse(
      `carries context ${shown(context)}, which is not a record of strings.`,
      'Leave context to EvaluationQueue (its propagation option fills it), or give string fields such as { traceparent }.',
    );
  }
  return { data: given as EvaluationJobData, jobId, entry };
}

function checkResume(given: Partial<EvaluationJobData>, refuse: Refuse): void {
  if (typeof given.resumeOf !== 'string' || !Array.isArray(given.decisions)) {
    throw refuse(
      'is a resume job without resumeOf (the paused job id) and decisions.',
      'Add resume jobs with EvaluationQueue.resume({ prompt, sessionId, resumeOf, decisions }).',
    );
  }
  if (given.resumeOf.length > MAX_JOB_ID_LENGTH) {
    throw refuse(
      `carries resumeOf of ${given.resumeOf.length} characters, longer than any job id a worker runs (${MAX_JOB_ID_LENGTH}).`,
      'Resume with the id of the job whose result has status interrupted.',
    );
  }
}

/** `input` and `maxTurns`: what the evaluation is given, within the documented limits. */
function checkInput(given: Partial<EvaluationJobData>, refuse: Refuse): void {
  const input: unknown = given.input;
  if (input !== undefined && typeof input !== 'string') {
    throw refuse(
      `carries input ${shown(input)}, which is not a string.`,
      "Give the user's message as text (EvaluationQueue.enqueue({ input })), or leave it out.",
    );
  }
  if (input !== undefined && input.length > MAX_JOB_INPUT_LENGTH) {
    throw refuse(
      `carries input of ${input.length} characters; the limit is ${MAX_JOB_INPUT_LENGTH} (MAX_JOB_INPUT_LENGTH).`,
      'Store large documents elsewhere (a file, a tool the model calls) and send a shorter message.',
    );
  }
  const turns: unknown = given.maxTurns;
  if (
    turns !== undefined &&
    (typeof turns !== 'number' || !Number.isInteger(turns) || turns < 1 || turns > MAX_JOB_TURNS)
  ) {
    throw refuse(
      `carries maxTurns ${shown(turns)}, not a whole number from 1 to ${MAX_JOB_TURNS} (MAX_JOB_TURNS).`,
      "Pass a smaller whole number, e.g. maxTurns: 24, or leave it out for the runtime's default.",
    );
  }
}

/** `value` as JSON (jobs carry JSON), or its type when it has none. */
function shown(value: unknown): string {
  // JSON.stringify gives undefined for undefined and functions, whatever its type says.
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? typeof value : text.slice(0, 200);
}
