/**
 * `npm run fuzz [calls] [seed]`: drives the whole tool dispatch with generated
 * evaluations (the generators and checks of `dispatch.property.test.ts`, huge
 * and deeply nested inputs included) until `calls` tool calls (10^6 by
 * default) have run, then prints how the calls ended and every broken
 * promise: a rejected evaluation, a call without exactly one tool message and
 * one `ToolInvoked` in call order, a changed prototype, an evaluation that
 * never settles, an unhandled rejection. Exits with 1 when a promise broke.
 * Reproduce a plan with the printed seed and evaluation number.
 */
import 'reflect-metadata';

import fc from 'fast-check';

import { createTestRuntime } from 'affordance/testing';

import { anyCall, evaluationPlan } from '../dispatch-arbitraries.js';
import {
  type CallKind,
  describeThrown,
  type EvaluationPlan,
  dispatchRuntimeOptions,
  guardedPrototypes,
  runPlannedEvaluation,
} from '../run-planned-evaluation.js';

const target = Number(process.argv[2] ?? 1_000_000);
const seed = Number(process.argv[3] ?? Date.now() % 2 ** 31);
if (!Number.isSafeInteger(target) || target < 1 || !Number.isSafeInteger(seed)) {
  console.error('Usage: npm run fuzz [calls (a positive integer)] [seed (an integer)]');
  process.exit(2);
}

/** How long one evaluation may take before it counts as hung (a generous bound, not a benchmark). */
const hangMs = 120_000;
const chunk = 100;
const plans = evaluationPlan(anyCall({ huge: true }), { minCalls: 1, maxCalls: 200, maxTurns: 3 });

const { runtime } = createTestRuntime({ runtime: dispatchRuntimeOptions });
const prototypes = guardedPrototypes();
const kinds = new Map<CallKind, number>();
const violations = new Map<string, { count: number; example: string }>();
let calls = 0;
let evaluations = 0;
let unhandled = 0;
let longestMessage = 0;

process.on('unhandledRejection', (reason) => {
  unhandled += 1;
  record(`unhandled rejection: ${describeThrown(reason).slice(0, 120)}`, 'after some evaluation');
});

function record(violation: string, example: string): void {
  // Group by the sentence, without the call ids that follow it.
  const key = violation.replace(/\[.*$/s, '[…]').slice(0, 200);
  const seen = violations.get(key);
  if (seen === undefined) violations.set(key, { count: 1, example });
  else seen.count += 1;
}

function withWatchdog<T>(work: Promise<T>): Promise<T | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => {
      resolve('hung');
    }, hangMs);
    timer.unref();
  });
  return Promise.race([work, hung]).finally(() => {
    clearTimeout(timer);
  });
}

function describePlan(plan: EvaluationPlan, sampleSeed: number, index: number): string {
  const text = fc.stringify(plan);
  const shown = text.length > 1500 ? `${text.slice(0, 1500)}… (${text.length} characters)` : text;
  return `seed ${sampleSeed}, evaluation ${index} of fc.sample(plans, { seed, numRuns: ${chunk} }): ${shown}`;
}

const started = performance.now();
let nextProgress = 100_000;
console.log(`Fuzzing the tool dispatch: ${target} calls, seed ${seed} (node ${process.version})`);
for (let round = 0; calls < target; round += 1) {
  const sampleSeed = seed + round;
  const sample = fc.sample(plans, { seed: sampleSeed, numRuns: chunk });
  for (const [index, plan] of sample.entries()) {
    if (calls >= target) break;
    const report = await withWatchdog(runPlannedEvaluation(runtime, plan, prototypes));
    evaluations += 1;
    if (report === 'hung') {
      calls += plan.reduce((total, turn) => total + turn.length, 0);
      record(
        `an evaluation did not settle within ${hangMs / 1000} s`,
        describePlan(plan, sampleSeed, index),
      );
      continue;
    }
    calls += report.calls;
    longestMessage = Math.max(longestMessage, report.longestMessage);
    for (const [kind, count] of report.kinds) kinds.set(kind, (kinds.get(kind) ?? 0) + count);
    for (const violation of report.violations)
      record(violation, describePlan(plan, sampleSeed, index));
  }
  if (calls >= nextProgress) {
    console.log(
      `  ${calls} calls, ${evaluations} evaluations, ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    nextProgress += 100_000;
  }
}
const elapsed = (performance.now() - started) / 1000;

const broken = [...violations.values()].reduce((total, { count }) => total + count, 0);
console.log('');
console.log(`calls          ${calls}`);
console.log(`evaluations    ${evaluations}`);
console.log(`elapsed        ${elapsed.toFixed(1)} s (${Math.round(calls / elapsed)} calls/s)`);
console.log(`successes      ${kinds.get('success') ?? 0}`);
console.log('failures by kind:');
for (const [kind, count] of [...kinds]
  .filter(([kind]) => kind !== 'success')
  .sort((a, b) => b[1] - a[1])) {
  console.log(`  ${kind.padEnd(22)} ${count}`);
}
console.log(`longest tool message ${longestMessage} characters`);
console.log(
  `broken promises ${broken}${unhandled > 0 ? ` (${unhandled} unhandled rejections)` : ''}`,
);
for (const [violation, { count, example }] of violations) {
  console.log(`  ${count} × ${violation}`);
  console.log(`      first: ${example}`);
}
process.exit(broken > 0 ? 1 : 0);
