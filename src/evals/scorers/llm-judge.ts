import { IsNumber, IsString, Max, Min } from 'class-validator';

import {
  ConfigurationError,
  Describe,
  MarkdownSection,
  Prompt,
  type DataClass,
  type ProviderAdapter,
  Session,
} from '../../index.js';
import { type EvalObservation, type EvalScorer } from '../eval-case.js';
import { passFail } from '../pass-fail.js';
import { noAnswer } from './answer-scorers.js';

/** The judge's verdict by default: a score from 0 to 1 and why. */
export class JudgeVerdict {
  @Describe('How well the answer meets the rubric, from 0 (not at all) to 1 (fully)')
  @IsNumber()
  @Min(0)
  @Max(1)
  score!: number;

  @Describe('One or two sentences: why this score')
  @IsString()
  reason!: string;
}

/** Options of {@link llmJudge}. */
export interface LlmJudgeOptions<V extends object = JudgeVerdict> {
  /** The scorer's name; `judge` by default. */
  readonly name?: string;
  /** What a good answer is: the judge prompt's instructions (markdown). */
  readonly rubric: string;
  /**
   * The adapter the judge runs on (any provider), or a function giving one per
   * trial (e.g. a `ScriptedAdapter` in tests); by default the one bound in the
   * runtime's container.
   */
  readonly adapter?: ProviderAdapter | ((trial: EvalObservation) => ProviderAdapter);
  /**
   * The verdict's class, validated by class-validator like any structured
   * output; {@link JudgeVerdict} by default. A class of your own needs
   * `toScore` unless it has a numeric `score` (0..1) and a string `reason`.
   */
  readonly verdict?: DataClass<V>;
  /** Reads the score (0..1) and reason from a verdict of a class of your own. */
  readonly toScore?: (verdict: V) => { readonly score: number; readonly reason: string };
  /** The score a trial needs to pass; 0.5 by default. */
  readonly threshold?: number;
}

/**
 * An LLM judge: runs its own prompt (the rubric as instructions, the case's
 * input, expectations and the trial's answer as the message) through an
 * adapter, with the verdict class as the structured output, so a malformed
 * verdict is refused and retried like any output. The score is the verdict's,
 * the reason the judge's own words.
 *
 * @example
 * llmJudge({ rubric: 'The reply apologises and gives the ticket id.', adapter: judgeAdapter })
 */
export function llmJudge<V extends object = JudgeVerdict>(options: LlmJudgeOptions<V>): EvalScorer {
  const name = options.name ?? 'judge';
  const threshold = options.threshold ?? 0.5;
  if (!(threshold >= 0 && threshold <= 1)) {
    throw new ConfigurationError({
      subject: `Judge '${name}' threshold`,
      problem: `must be between 0 and 1, got ${String(options.threshold)}.`,
      fix: 'Pass the score a trial needs to pass, e.g. threshold: 0.7.',
    });
  }
  if (options.rubric.trim() === '') {
    throw new ConfigurationError({
      subject: `Judge '${name}'`,
      problem: 'has an empty rubric.',
      fix: 'Describe what a good answer is, e.g. rubric: "The reply gives the ticket id."',
    });
  }
  const verdict = (options.verdict ?? JudgeVerdict) as DataClass<V>;
  const prompt = judgePrompt(name, options.rubric, verdict);
  const read = options.toScore ?? verdictReader<V>(name, verdict);
  return {
    name,
    async score(trial: EvalObservation) {
      if (trial.answer === null) return passFail(name, false, noAnswer(trial));
      const given = options.adapter;
      const adapter = typeof given === 'function' ? given(trial) : given;
      const response = await trial.runtime.evaluate(prompt, {
        ...(adapter === undefined ? {} : { adapter }),
        input: judgeInput(trial),
        session: new Session(),
      });
      const verdictGiven = response.output;
      if (verdictGiven === null || Array.isArray(verdictGiven)) {
        return passFail(name, false, 'the judge gave no verdict');
      }
      const { score, reason } = read(verdictGiven);
      if (!(score >= 0 && score <= 1)) {
        return passFail(name, false, `the judge's score ${String(score)} is outside 0..1`);
      }
      return { scorer: name, score, passed: score >= threshold, reason };
    },
  };
}

/** The judge's own prompt: the rubric as instructions, the verdict class as output. */
function judgePrompt<V>(name: string, rubric: string, verdict: DataClass<V>): Prompt<V> {
  return new Prompt<V>({
    ns: 'affordance/evals',
    key: `judge-${name.toLowerCase().replace(/[^a-z0-9_-]+/g, '-')}`.slice(0, 64),
    sections: [
      new MarkdownSection({
        key: 'rubric',
        title: 'You are grading an answer against this rubric',
        template: rubric,
      }),
    ],
    output: verdict,
  });
}

/** Reads `score` and `reason` from a verdict. */
function verdictReader<V>(
  name: string,
  verdict: DataClass<V>,
): (value: V) => { readonly score: number; readonly reason: string } {
  return (value) => {
    const { score, reason } = value as unknown as { score?: unknown; reason?: unknown };
    if (typeof score !== 'number' || typeof reason !== 'string') {
      throw new ConfigurationError({
        subject: `Judge '${name}' verdict class ${verdict.name}`,
        problem: 'has no numeric score and string reason.',
        fix: 'Add score and reason fields, or pass toScore: (verdict) => ({ score, reason }).',
      });
    }
    return { score, reason };
  };
}

/** The judge's message: the case's input, what it expects, and the answer to grade. */
function judgeInput(trial: EvalObservation): string {
  const lines = [`Case: ${trial.evalCase.id}`];
  if (trial.evalCase.input !== undefined) lines.push(`Input:\n${trial.evalCase.input}`);
  if (trial.evalCase.expected !== undefined) {
    lines.push(`Expected:\n${JSON.stringify(trial.evalCase.expected)}`);
  }
  lines.push(`Answer to grade:\n${trial.answer ?? ''}`);
  return lines.join('\n\n');
}
