import { ConfigurationError } from '../index.js';
import type { EvaluationJobData } from './evaluation-job.js';
import type { EvaluationJobLike, EvaluationJobPrompt } from './evaluation-job-prompt.js';

/** A job's data, checked, with its id and the prompt it names. @internal */
export interface CheckedJob {
  readonly data: EvaluationJobData;
  readonly jobId: string;
  readonly entry: EvaluationJobPrompt;
}

/**
 * Checks what a job carries before anything is loaded: an id, a known prompt,
 * a session id, and for `resume` the paused job and its decisions. @internal
 * @throws ConfigurationError naming the job, the field and the fix.
 */
export function checkJobData(
  job: EvaluationJobLike,
  prompts: Readonly<Record<string, EvaluationJobPrompt>>,
): CheckedJob {
  const jobId = job.id;
  const subject = `Evaluation job ${jobId ?? '(no id)'}`;
  const refuse = (problem: string, fix: string): ConfigurationError =>
    new ConfigurationError({ subject, problem, fix });
  if (typeof jobId !== 'string' || jobId === '') {
    throw refuse(
      'has no id.',
      'Run evaluation jobs through a BullMQ Worker, which gives every job an id.',
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
  if (given.kind === 'resume') {
    if (typeof given.resumeOf !== 'string' || !Array.isArray(given.decisions)) {
      throw refuse(
        'is a resume job without resumeOf (the paused job id) and decisions.',
        'Add resume jobs with EvaluationQueue.resume({ prompt, sessionId, resumeOf, decisions }).',
      );
    }
  }
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

/** `value` as JSON (jobs carry JSON), or its type when it has none. */
function shown(value: unknown): string {
  // JSON.stringify gives undefined for undefined and functions, whatever its type says.
  const text = JSON.stringify(value) as string | undefined;
  return text ?? typeof value;
}
