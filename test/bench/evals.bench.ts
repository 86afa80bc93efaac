/**
 * What the eval harness costs (docs/guide/evals.md, "What a run costs"):
 *
 * - eval throughput with the scripted model: cases per second of `runEvalSuite` on a
 *   3-tool-turn case (three turns each calling one tool, then a structured answer; two
 *   scorers: the trajectory in order and a field of the output), at concurrency 1 and 16;
 * - the harness's overhead per case over calling `runtime.evaluate` directly (the same 16
 *   evaluations one after another, each in a new session with a new scripted model):
 *   goal ≤ ×1.1, judged on the median of three runs of interleaved rounds; and, reported, over
 *   `runtime.evaluate` with a `Deadline` as each trial has (the deadline's own cost in the runtime
 *   is part of the first ratio).
 *
 * Every timed answer is checked: each direct response's output and tool calls, each
 * report's pass rate and the tool calls of every trial.
 */
import 'reflect-metadata';

import { IsString } from 'class-validator';
import { Container } from 'inversify';

import {
  Deadline,
  Describe,
  installAffordance,
  MarkdownSection,
  Prompt,
  Session,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import {
  calledInOrder,
  defineEvalSuite,
  type EvalReport,
  outputFields,
  runEvalSuite,
} from 'affordance/evals';
import { ScriptedAdapter, type ScriptedTurn } from 'affordance/testing';

import { compare } from './measure.js';

class StepParams {
  @Describe('What to look at') @IsString() target!: string;
}

class Finding {
  @Describe('What was found') @IsString() summary!: string;
}

const tools = ['inspect', 'measure', 'record'].map(
  (name) =>
    new ToolDefinition({
      name,
      description: `Step ${name}.`,
      params: StepParams,
      handler: (params: StepParams) => ToolResult.ok(params.target, `${name} done`),
    }),
);

const prompt = new Prompt({
  ns: 'bench',
  key: 'evals',
  sections: [
    new MarkdownSection({
      key: 'steps',
      title: 'Steps',
      template: 'Inspect, measure, record.',
      tools,
    }),
  ],
  output: Finding,
});

const script: readonly ScriptedTurn[] = [
  ...['inspect', 'measure', 'record'].map((name) => ({
    toolCalls: [{ name, arguments: { target: 'pump-7' } }],
    usage: { inputTokens: 300, outputTokens: 12 },
  })),
  {
    text: JSON.stringify({ summary: 'pump-7 recorded' }),
    usage: { inputTokens: 420, outputTokens: 9 },
  },
];

const CASES = 16;
const runtime = installAffordance(new Container());

const suite = defineEvalSuite({
  name: 'bench',
  prompt,
  adapter: () => new ScriptedAdapter(script),
  scorers: [
    calledInOrder([{ tool: 'inspect' }, { tool: 'measure' }, { tool: 'record' }]),
    outputFields({ summary: 'pump-7 recorded' }),
  ],
  cases: Array.from({ length: CASES }, (_, index) => ({
    id: `case-${index}`,
    input: 'Check pump-7.',
  })),
});

async function direct(withDeadline: boolean): Promise<void> {
  for (let index = 0; index < CASES; index++) {
    const response = await runtime.evaluate(prompt, {
      adapter: new ScriptedAdapter(script),
      input: 'Check pump-7.',
      session: new Session(),
      ...(withDeadline ? { deadline: Deadline.in(60_000) } : {}),
    });
    const names = response.toolCalls.map((call) => call.event.name).join(',');
    const output = response.output as Finding | null;
    if (output?.summary !== 'pump-7 recorded' || names !== 'inspect,measure,record') {
      throw new Error(`wrong answer: ${JSON.stringify(response.output)} after ${names}`);
    }
  }
}

function checkReport(report: EvalReport): void {
  const calls = report.cases.flatMap((result) =>
    result.trials.map((trial) => trial.toolCalls.length),
  );
  if (
    report.summary.passRate !== 1 ||
    report.cases.length !== CASES ||
    calls.some((n) => n !== 3)
  ) {
    throw new Error(`wrong report: pass rate ${report.summary.passRate}, calls ${calls.join(',')}`);
  }
}

async function harness(concurrency: number): Promise<void> {
  checkReport(await runEvalSuite(suite, { runtime, concurrency, progress: false }));
}

export default async function run(): Promise<void> {
  const ratios: number[] = [];
  const deadlineRatios: number[] = [];
  const rates: { one: number; sixteen: number }[] = [];
  for (let index = 1; index <= 3; index++) {
    const results = await compare(
      `Eval harness, ${CASES} cases of 3 tool turns each (run ${index})`,
      [
        { name: 'runtime.evaluate directly', run: () => direct(false) },
        { name: 'runtime.evaluate, with a Deadline', run: () => direct(true) },
        { name: 'runEvalSuite, concurrency 1', run: () => harness(1), goal: 1.1 },
        { name: 'runEvalSuite, concurrency 16', run: () => harness(16) },
      ],
      { baseline: 'runtime.evaluate directly', batch: 30, rounds: 15, warmup: 30 },
    );
    const row = (name: string) => results.find((result) => result.name.endsWith(name));
    ratios.push(row('concurrency 1')?.medianRatio ?? NaN);
    deadlineRatios.push(
      (row('concurrency 1')?.medianRatio ?? NaN) / (row('with a Deadline')?.medianRatio ?? NaN),
    );
    const perSecond = (ns: number | undefined): number => (CASES * 1e9) / (ns ?? NaN);
    rates.push({
      one: perSecond(row('concurrency 1')?.medianNs),
      sixteen: perSecond(row('concurrency 16')?.medianNs),
    });
  }
  const median = (values: number[]): number =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  const ratio = median(ratios);
  console.log('\nEval harness, median of 3 runs:');
  console.log(`  cases per second, concurrency 1:   ${median(rates.map((r) => r.one)).toFixed(0)}`);
  console.log(
    `  cases per second, concurrency 16:  ${median(rates.map((r) => r.sixteen)).toFixed(0)}`,
  );
  console.log(
    `  overhead per case over runtime.evaluate: ×${ratio.toFixed(2)} (goal ≤ ×1.10: ${ratio <= 1.1 ? 'met' : 'not met'})`,
  );
  // Each trial runs under its own Deadline (it stops a runaway case); the direct call above has none.
  console.log(
    `  over runtime.evaluate with the same Deadline: ×${median(deadlineRatios).toFixed(2)} (reported)`,
  );
}
