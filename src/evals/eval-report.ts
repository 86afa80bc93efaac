/**
 * The JSON report of one eval run (`affordance/evals`). Stable, versioned schema: a field is only ever added
 * (optional) within `schemaVersion: 1`. Both the runner (which writes it) and the HTML report / comparison (which
 * read it) use exactly these types. Put this file at src/evals/eval-report.ts unchanged (TSDoc may be extended).
 */

/** One scorer's verdict on one trial of one case. */
export interface EvalScore {
  /** The scorer's name, unique within a suite (e.g. `answer-contains`, `called-lookupOrder`). */
  readonly scorer: string;
  /** 0..1; a pass/fail scorer gives 0 or 1. */
  readonly score: number;
  /** Whether the score reached the scorer's threshold. */
  readonly passed: boolean;
  /** A sentence a person can read: what was expected, what was found. */
  readonly reason: string;
}

/** One tool call of a trial, as recorded by its `ToolInvoked` event. */
export interface EvalToolCall {
  readonly name: string;
  readonly arguments: unknown;
  /** `ok`, `error`, `denied`, ... as the event's outcome says. */
  readonly outcome: string;
  readonly durationMs: number;
}

/** One trial (one run) of a case. */
export interface EvalTrial {
  readonly trial: number;
  /** The final answer text (or the structured output as JSON text); null when the run failed. */
  readonly answer: string | null;
  /** The structured output, when the prompt has one. */
  readonly output?: unknown;
  readonly toolCalls: readonly EvalToolCall[];
  readonly scores: readonly EvalScore[];
  /** True when every scorer passed. */
  readonly passed: boolean;
  /** Set when the run itself failed (thrown, deadline): the message. Scores are then all failed. */
  readonly error?: string;
  readonly durationMs: number;
  readonly turns: number;
  readonly usage: {
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly totalTokens: number;
  };
  /** Estimated cost in USD when the suite gives prices, else absent. */
  readonly costUsd?: number;
  /** The session id of this trial (its events); `sessionFile` when the run wrote an export next to the report. */
  readonly sessionId: string;
  /**
   * The trial's session export (`affordance/inspector`), relative to the
   * report's directory: `sessions/<caseId>-<trial>.json`, with its inspector
   * page beside it as `.html`. Set when `runEvalSuite` got `reportDir` (as
   * `affordance-eval` always passes).
   */
  readonly sessionFile?: string;
}

/** One case of the suite and its trials. */
export interface EvalCaseResult {
  readonly id: string;
  readonly tags: readonly string[];
  /** The input the case gave (its text, or a JSON rendering of params). */
  readonly input: string;
  readonly trials: readonly EvalTrial[];
  /** pass@k over the trials: 1 when at least one of k trials passed (k = trials.length). */
  readonly passAtK: number;
  /** Share of trials that passed (0..1). */
  readonly passRate: number;
}

/** Per-scorer aggregate over all trials. */
export interface EvalScorerSummary {
  readonly scorer: string;
  readonly passRate: number;
  readonly meanScore: number;
  /** Scores bucketed for charts: 10 buckets [0,0.1) ... [0.9,1.0]. */
  readonly histogram: readonly number[];
}

/** The whole report. */
export interface EvalReport {
  readonly schemaVersion: 1;
  readonly suite: string;
  /** ISO time the run started. */
  readonly startedAt: string;
  readonly durationMs: number;
  /** What ran: model/provider names when known, trials per case, concurrency. */
  readonly config: {
    readonly trials: number;
    readonly concurrency: number;
    readonly provider?: string;
    readonly model?: string;
  };
  readonly cases: readonly EvalCaseResult[];
  readonly scorers: readonly EvalScorerSummary[];
  readonly summary: {
    readonly cases: number;
    /** Share of cases whose pass@k is 1. */
    readonly passRate: number;
    readonly totalTokens: number;
    readonly costUsd?: number;
    readonly p50DurationMs: number;
    readonly p95DurationMs: number;
  };
}

/** A report compared with a baseline report (same suite, cases matched by id). */
export interface EvalComparison {
  readonly baseline: { readonly startedAt: string; readonly passRate: number };
  readonly current: { readonly startedAt: string; readonly passRate: number };
  /** Cases that passed in the baseline and fail now. */
  readonly regressions: readonly {
    readonly id: string;
    readonly failedScorers: readonly string[];
  }[];
  /** Cases that failed in the baseline and pass now. */
  readonly improvements: readonly string[];
  /** Cases only in one of the two reports. */
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** Per-scorer pass-rate change (current − baseline). */
  readonly scorerDeltas: readonly { readonly scorer: string; readonly delta: number }[];
}
