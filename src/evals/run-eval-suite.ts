import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

import { type AffordanceRuntime, ConfigurationError, Deadline } from '../index.js';
import type { EvalCase } from './eval-case.js';
import type { EvalReport, EvalTrial } from './eval-report.js';
import { type EvalProgress, type EvalProgressStream, progressWriter } from './eval-progress.js';
import type { EvalScorer } from './eval-case.js';
import { evalSessions, type EvalSessionsOption } from './eval-sessions.js';
import type { EvalSuite } from './eval-suite.js';
import { ScorerResolver } from './resolve-scorers.js';
import { runLimited } from './run-limited.js';
import { runTrial, type TrialSetup } from './run-trial.js';
import { caseResult, percentile, summarizeScorers } from './summarize-eval-report.js';

/** Options of {@link runEvalSuite}. */
export interface RunEvalSuiteOptions {
  /** The runtime to run on; the suite's `runtime` by default. */
  readonly runtime?: AffordanceRuntime;
  /** Trials per case (pass@k with k = trials); 1 by default. */
  readonly trials?: number;
  /** How many trials run at once; 4 by default. */
  readonly concurrency?: number;
  /** How long one trial may take, in milliseconds (at least 1000); 60 000 by default. */
  readonly deadlineMs?: number;
  /** Where each trial's session is kept; see {@link EvalSessionsOption}. */
  readonly sessions?: EvalSessionsOption;
  /**
   * The directory the report will be written to (`writeEvalReport(report,
   * reportDir)`, or the `--out` of `affordance-eval`). Each trial's session is
   * then exported there as soon as the trial is scored:
   * `sessions/<caseId>-<trial>.json` (an `affordance/inspector` export) and
   * its inspector page `sessions/<caseId>-<trial>.html`, which the HTML
   * report links to; the trial's `sessionFile` names the export. Written at
   * once, a session is not held until the report is written: with the
   * default `sessions: 'memory'` it is dropped after its export, so a large
   * suite's memory does not grow with its sessions. Without `reportDir`
   * nothing is written.
   */
  readonly reportDir?: string;
  /** Called after each trial. */
  readonly onProgress?: (progress: EvalProgress) => void;
  /**
   * Where to show progress: a terminal stream gets a bar, any other stream a
   * line per trial, `false` nothing. By default `process.stderr` when it is a
   * terminal, else nothing.
   */
  readonly progress?: EvalProgressStream | false;
  /** Only the cases with at least one of these tags. */
  readonly tags?: readonly string[];
}

/**
 * Runs every case of `suite` `trials` times, at most `concurrency` trials at
 * once, each in its own session with its own deadline, scores each trial, and
 * returns the report (the JSON schema of `EvalReport`). A trial that throws
 * or misses its deadline fails with its error; the run goes on.
 *
 * @example
 * const report = await runEvalSuite(suite, { runtime, trials: 3, concurrency: 8 });
 * console.log(`${report.summary.passRate * 100}% of cases passed`);
 * @throws ConfigurationError for bad options, or a scorer that cannot be made (before any trial runs).
 */
export async function runEvalSuite(
  suite: EvalSuite,
  options: RunEvalSuiteOptions = {},
): Promise<EvalReport> {
  const trials = wholeNumber('trials', options.trials ?? 1, 1);
  const concurrency = wholeNumber('concurrency', options.concurrency ?? 4, 1);
  const deadlineMs = checkDeadline(options.deadlineMs ?? 60_000);
  const runtime = options.runtime ?? (await suiteRuntime(suite));
  const cases = selectCases(suite, options.tags);
  const scorers = await caseScorers(suite, cases, runtime);

  const setup: TrialSetup = {
    suite,
    runtime,
    deadlineMs,
    sessions: evalSessions(options.sessions),
    runId: randomUUID().slice(0, 8),
    reportDir: options.reportDir,
  };
  const startedAt = new Date();
  const started = performance.now();
  const results = new Map<EvalCase, EvalTrial[]>(cases.map((evalCase) => [evalCase, []]));
  const tasks = cases.flatMap((evalCase) =>
    Array.from({ length: trials }, (_, index) => ({ evalCase, trial: index + 1 })),
  );
  const writer = progressOf(options.progress);
  const notify = progressNotifier(writer, options.onProgress);
  let done = 0;
  let failed = 0;
  let provider: string | undefined;
  let model: string | undefined;
  await runLimited(tasks, concurrency, async ({ evalCase, trial }) => {
    const outcome = await runTrial(setup, evalCase, trial, scorers.get(evalCase) ?? []);
    results.get(evalCase)?.push(outcome.trial);
    provider ??= outcome.provider;
    model ??= outcome.model;
    done += 1;
    if (!outcome.trial.passed) failed += 1;
    notify?.({
      suite: suite.name,
      caseId: evalCase.id,
      trial,
      passed: outcome.trial.passed,
      done,
      total: tasks.length,
      failed,
    });
  });
  writer?.end();

  return buildReport(suite, cases, results, {
    startedAt,
    durationMs: performance.now() - started,
    trials,
    concurrency,
    provider,
    model,
  });
}

/** What the report says of the run itself. */
interface RunFacts {
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly trials: number;
  readonly concurrency: number;
  readonly provider: string | undefined;
  readonly model: string | undefined;
}

/** The report of the run: each case's trials in order, the scorer summaries and the totals. */
function buildReport(
  suite: EvalSuite,
  cases: readonly EvalCase[],
  results: ReadonlyMap<EvalCase, readonly EvalTrial[]>,
  facts: RunFacts,
): EvalReport {
  const { trials, concurrency, provider, model } = facts;
  const caseResults = cases.map((evalCase) =>
    caseResult(
      evalCase.id,
      evalCase.tags ?? [],
      caseInput(evalCase),
      [...(results.get(evalCase) ?? [])].sort((a, b) => a.trial - b.trial),
    ),
  );
  const allTrials = caseResults.flatMap((result) => result.trials);
  const costs = allTrials.map((trial) => trial.costUsd);
  const durations = allTrials.map((trial) => trial.durationMs);
  return {
    schemaVersion: 1,
    suite: suite.name,
    startedAt: facts.startedAt.toISOString(),
    durationMs: Math.round(facts.durationMs),
    config: {
      trials,
      concurrency,
      ...(provider === undefined ? {} : { provider }),
      ...(model === undefined ? {} : { model }),
    },
    cases: caseResults,
    scorers: summarizeScorers(caseResults),
    summary: {
      cases: caseResults.length,
      passRate: caseResults.filter((result) => result.passAtK === 1).length / caseResults.length,
      totalTokens: allTrials.reduce((sum, trial) => sum + trial.usage.totalTokens, 0),
      ...(suite.prices === undefined
        ? {}
        : { costUsd: costs.reduce<number>((sum, cost) => sum + (cost ?? 0), 0) }),
      p50DurationMs: percentile(durations, 50),
      p95DurationMs: percentile(durations, 95),
    },
  };
}

/** Each case's scorers, resolved before any trial runs. */
async function caseScorers(
  suite: EvalSuite,
  cases: readonly EvalCase[],
  runtime: AffordanceRuntime,
): Promise<Map<EvalCase, EvalScorer[]>> {
  const resolver = new ScorerResolver(runtime);
  const scorers = new Map<EvalCase, EvalScorer[]>();
  for (const evalCase of cases) scorers.set(evalCase, await resolver.forCase(suite, evalCase));
  return scorers;
}

/** What each trial's progress goes to; none (and no progress is built) when nothing reads it. */
function progressNotifier(
  writer: ReturnType<typeof progressWriter> | undefined,
  onProgress: ((progress: EvalProgress) => void) | undefined,
): ((progress: EvalProgress) => void) | undefined {
  if (writer === undefined && onProgress === undefined) return undefined;
  return (progress) => {
    writer?.update(progress);
    onProgress?.(progress);
  };
}

function progressOf(
  option: EvalProgressStream | false | undefined,
): ReturnType<typeof progressWriter> | undefined {
  const stream = option ?? (process.stderr.isTTY ? process.stderr : false);
  return stream === false ? undefined : progressWriter(stream);
}

async function suiteRuntime(suite: EvalSuite): Promise<AffordanceRuntime> {
  const given = suite.runtime;
  if (given === undefined) {
    throw new ConfigurationError({
      subject: `Eval suite '${suite.name}'`,
      problem: 'has no runtime to run on.',
      fix: 'Pass runEvalSuite(suite, { runtime }), or give defineEvalSuite a runtime: an AffordanceRuntime, or a function that returns one.',
    });
  }
  return typeof given === 'function' ? await given() : given;
}

function selectCases(suite: EvalSuite, tags: readonly string[] | undefined): EvalCase[] {
  if (tags === undefined) return [...suite.cases];
  const chosen = suite.cases.filter((evalCase) =>
    (evalCase.tags ?? []).some((tag) => tags.includes(tag)),
  );
  if (chosen.length === 0) {
    throw new ConfigurationError({
      subject: `Eval suite '${suite.name}'`,
      problem: `has no case tagged ${tags.map((tag) => `'${tag}'`).join(' or ')}.`,
      fix: 'Check the tags option against the tags of the cases.',
    });
  }
  return chosen;
}

/** The case's input as the report shows it: its text, else its params as JSON. */
function caseInput(evalCase: EvalCase): string {
  if (evalCase.input !== undefined) return evalCase.input;
  return evalCase.params === undefined ? '' : JSON.stringify(evalCase.params);
}

function checkDeadline(deadlineMs: number): number {
  if (!(deadlineMs >= Deadline.minLeadMs && deadlineMs <= Deadline.maxLeadMs)) {
    throw new ConfigurationError({
      subject: 'runEvalSuite deadlineMs',
      problem: `must be between ${Deadline.minLeadMs} and ${Deadline.maxLeadMs} milliseconds, got ${String(deadlineMs)}.`,
      fix: 'Pass how long one trial may take, e.g. deadlineMs: 30_000.',
    });
  }
  return deadlineMs;
}

function wholeNumber(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigurationError({
      subject: `runEvalSuite ${name}`,
      problem: `must be a whole number >= ${min}, got ${String(value)}.`,
      fix: `Pass e.g. ${name}: ${min === 1 ? 3 : 0}.`,
    });
  }
  return value;
}
