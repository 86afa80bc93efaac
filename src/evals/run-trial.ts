import { performance } from 'node:perf_hooks';

import {
  type AffordanceRuntime,
  Deadline,
  type PromptResponse,
  type ProviderAdapter,
  type Session,
  PromptExecuted,
  ToolInvoked,
} from '../index.js';
import type { EvalCase } from './eval-case.js';
import type { EvalScore, EvalTrial } from './eval-report.js';
import type { EvalObservation, EvalScorer, EvalUsage } from './eval-case.js';
import type { EvalRunContext, EvalSuite } from './eval-suite.js';
import type { EvalSessions, OpenedTrialSession } from './eval-sessions.js';
import { type TrialSessionToWrite, writeTrialSession } from './write-trial-session.js';

/** What one trial needs besides its case. */
export interface TrialSetup {
  readonly suite: EvalSuite;
  readonly runtime: AffordanceRuntime;
  readonly deadlineMs: number;
  readonly sessions: EvalSessions;
  readonly runId: string;
  /** Where the report goes: each trial's session is exported there once scored. */
  readonly reportDir: string | undefined;
}

/** A trial's report entry, and the provider and model that answered it (when known). */
export interface TrialOutcome {
  readonly trial: EvalTrial;
  readonly provider: string | undefined;
  readonly model: string | undefined;
}

/** Runs trial `trial` of `evalCase`, scores it with `scorers`, and returns its report entry. */
export async function runTrial(
  setup: TrialSetup,
  evalCase: EvalCase,
  trial: number,
  scorers: readonly EvalScorer[],
): Promise<TrialOutcome> {
  const { suite, runtime } = setup;
  const sessionId = `${suite.name}/${evalCase.id}/${trial}/${setup.runId}`;
  const opening = setup.sessions.open(sessionId);
  const opened = opening instanceof Promise ? await opening : opening;
  const { session } = opened;
  const adapter = suite.adapter?.(evalCase, trial);
  const started = performance.now();
  const { response, error } = await runWithDeadline(setup, evalCase, {
    runtime,
    session,
    adapter,
    trial,
  });
  const durationMs = performance.now() - started;
  const observation = observe(
    setup,
    evalCase,
    trial,
    session,
    response,
    error,
    durationMs,
    adapter,
  );
  const scoring = scoreAll(scorers, observation);
  const scores = scoring instanceof Promise ? await scoring : scoring;
  const scored = report(setup, observation, scores, sessionId);
  const entry =
    setup.reportDir === undefined
      ? scored
      : await exported(scored, {
          reportDir: setup.reportDir,
          suite: suite.name,
          caseId: evalCase.id,
          trial,
          session,
          response,
        });
  const executed = session.view.slice(PromptExecuted).at(-1);
  const keeping = kept(opened, entry);
  return {
    trial: keeping instanceof Promise ? await keeping : keeping,
    provider: executed?.provider ?? executed?.adapter,
    model: executed?.model,
  };
}

/** Runs the case, stopping it at the deadline; the response, or the failure's message. */
async function runWithDeadline(
  setup: TrialSetup,
  evalCase: EvalCase,
  context: Omit<EvalRunContext, 'deadline' | 'signal'>,
): Promise<{ response: PromptResponse | undefined; error: string | undefined }> {
  if (setup.suite.run === undefined) {
    // runtime.evaluate stops at its deadline itself (requests and tool calls included).
    try {
      const deadline = Deadline.in(setup.deadlineMs);
      return answered(await runPrompt(setup, evalCase, context, deadline));
    } catch (thrown) {
      return { response: undefined, error: messageOf(thrown) };
    }
  }
  // A run function may not pass the deadline on: it is also raced and aborted here.
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  try {
    const deadline = Deadline.in(setup.deadlineMs);
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new Error(`the case took longer than its deadline of ${setup.deadlineMs} ms`));
      }, setup.deadlineMs);
    });
    const run = setup.suite.run(evalCase, {
      ...context,
      deadline,
      signal: controller.signal,
    });
    // A run still going at the deadline may fail later: nobody awaits it then.
    run.catch(() => undefined);
    return answered(await Promise.race([run, expired]));
  } catch (thrown) {
    return { response: undefined, error: messageOf(thrown) };
  } finally {
    clearTimeout(timer);
  }
}

/** The trial once its session is kept; failed with the reason when it could not be. */
function kept(opened: OpenedTrialSession, entry: EvalTrial): EvalTrial | Promise<EvalTrial> {
  const failed = (thrown: unknown): EvalTrial => ({
    ...entry,
    passed: false,
    error: `the trial's session could not be kept: ${messageOf(thrown)}`,
  });
  try {
    const keeping = opened.keep();
    return keeping === undefined ? entry : keeping.then(() => entry, failed);
  } catch (thrown) {
    return failed(thrown);
  }
}

/** The trial with its `sessionFile` once its session is written; failed with the reason when it could not be. */
async function exported(entry: EvalTrial, what: TrialSessionToWrite): Promise<EvalTrial> {
  try {
    return { ...entry, sessionFile: await writeTrialSession(what) };
  } catch (thrown) {
    return {
      ...entry,
      passed: false,
      error: `the trial's session could not be written to ${what.reportDir}: ${messageOf(thrown)}`,
    };
  }
}

/** The response, or the failure of a paused evaluation. */
function answered(response: PromptResponse): {
  response: PromptResponse;
  error: string | undefined;
} {
  if (response.status !== 'interrupted') return { response, error: undefined };
  const pending = response.interruption.pending.map((call) => call.name).join(', ');
  return { response, error: `the evaluation paused for approval of ${pending}` };
}

function messageOf(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}

/** One evaluation of the suite's prompt with the case's input and params. */
function runPrompt(
  setup: TrialSetup,
  evalCase: EvalCase,
  context: Omit<EvalRunContext, 'deadline' | 'signal'>,
  deadline: Deadline,
): Promise<PromptResponse> {
  // defineEvalSuite checked that a suite without run has a prompt.
  const prompt = setup.suite.prompt as NonNullable<EvalSuite['prompt']>;
  return setup.runtime.evaluate(prompt, {
    ...(context.adapter === undefined ? {} : { adapter: context.adapter }),
    ...(evalCase.input === undefined ? {} : { input: evalCase.input }),
    ...(evalCase.params === undefined ? {} : { params: evalCase.params }),
    session: context.session,
    deadline,
  });
}

function observe(
  setup: TrialSetup,
  evalCase: EvalCase,
  trial: number,
  session: Session,
  response: PromptResponse | undefined,
  error: string | undefined,
  durationMs: number,
  adapter: ProviderAdapter | undefined,
): EvalObservation {
  const completed = error === undefined ? response : undefined;
  const output: unknown = completed?.output ?? undefined;
  const answer =
    completed === undefined
      ? null
      : output === undefined
        ? (completed.text ?? '')
        : JSON.stringify(output);
  const usage: EvalUsage = {
    inputTokens: response?.usage?.inputTokens ?? 0,
    outputTokens: response?.usage?.outputTokens ?? 0,
    totalTokens: (response?.usage?.inputTokens ?? 0) + (response?.usage?.outputTokens ?? 0),
  };
  return {
    evalCase,
    trial,
    answer,
    output,
    response: completed,
    toolCalls: [...session.view.slice(ToolInvoked)],
    session,
    error,
    durationMs,
    turns: response?.turns ?? 0,
    usage,
    runtime: setup.runtime,
    adapter,
  };
}

/**
 * Each scorer's score; a scorer that throws fails with its message, and a
 * failed run fails them all. Most scorers answer at once: the scores are then
 * returned as they are, and only a scorer returning a promise makes the rest
 * wait (a promise per trial costs a short trial measurably).
 */
function scoreAll(
  scorers: readonly EvalScorer[],
  observation: EvalObservation,
): EvalScore[] | Promise<EvalScore[]> {
  const scores: EvalScore[] = [];
  for (let index = 0; index < scorers.length; index++) {
    const given = scoreOne(scorers[index] as EvalScorer, observation);
    if (given instanceof Promise) return scoreRest(scorers, observation, scores, index, given);
    scores.push(given);
  }
  return scores;
}

async function scoreRest(
  scorers: readonly EvalScorer[],
  observation: EvalObservation,
  scores: EvalScore[],
  index: number,
  pending: Promise<EvalScore>,
): Promise<EvalScore[]> {
  scores.push(await pending);
  for (const scorer of scorers.slice(index + 1)) scores.push(await scoreOne(scorer, observation));
  return scores;
}

/** One scorer's score, failed when the run failed or the scorer threw or rejected. */
function scoreOne(
  scorer: EvalScorer,
  observation: EvalObservation,
): EvalScore | Promise<EvalScore> {
  if (observation.error !== undefined) {
    return {
      scorer: scorer.name,
      score: 0,
      passed: false,
      reason: `the run failed: ${observation.error}`,
    };
  }
  const failed = (thrown: unknown): EvalScore => ({
    scorer: scorer.name,
    score: 0,
    passed: false,
    reason: `the scorer failed: ${messageOf(thrown)}`,
  });
  try {
    const given = scorer.score(observation);
    return given instanceof Promise ? given.catch(failed) : given;
  } catch (thrown) {
    return failed(thrown);
  }
}

function report(
  setup: TrialSetup,
  observation: EvalObservation,
  scores: readonly EvalScore[],
  sessionId: string,
): EvalTrial {
  const prices = setup.suite.prices;
  const { usage } = observation;
  return {
    trial: observation.trial,
    answer: observation.answer,
    ...(observation.output === undefined ? {} : { output: observation.output }),
    toolCalls: observation.toolCalls.map((call) => ({
      name: call.name,
      arguments: parsedArguments(call.rawArguments),
      outcome: call.outcome,
      durationMs: call.durationMs ?? 0,
    })),
    scores,
    passed: observation.error === undefined && scores.every((score) => score.passed),
    ...(observation.error === undefined ? {} : { error: observation.error }),
    durationMs: Math.round(observation.durationMs * 1000) / 1000,
    turns: observation.turns,
    usage,
    ...(prices === undefined
      ? {}
      : {
          costUsd:
            (usage.inputTokens * prices.inputPerMillionTokens +
              usage.outputTokens * prices.outputPerMillionTokens) /
            1_000_000,
        }),
    sessionId,
  };
}

function parsedArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
