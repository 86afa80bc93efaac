import { Container } from 'inversify';

import {
  type AffordanceRuntime,
  installAffordance,
  PromptEvaluationError,
  PromptExecuted,
  PromptRendered,
  type Session,
  ToolInvoked,
} from '../index.js';
import type {
  AdapterConformanceCheck,
  AdapterHarness,
  AdapterUnderTest,
  HarnessOpenOptions,
} from './adapter-harness.js';
import type { ScriptedTurn } from './scripted-adapter.js';
import { TEST_STATE_SECRET } from './create-test-runtime.js';

/** A check being run: which one, against which harness. */
export interface CheckRun {
  /** The check's name. */
  readonly check: string;
  /** The harness it runs against. */
  readonly harness: AdapterHarness;
}

/** A check named `name` whose body gets the {@link CheckRun} it reports under. */
export function defineCheck(
  name: string,
  body: (run: CheckRun) => Promise<void>,
): AdapterConformanceCheck {
  return Object.freeze({ name, run: (harness: AdapterHarness) => body({ check: name, harness }) });
}

/** Longest rendering of a value in a failure message. */
const SHOWN = 600;

/** The error a failed check throws: the check, the harness, what went wrong, and what to change. */
export function conformanceFailure(
  run: CheckRun,
  problem: string,
  fix: string,
  cause?: unknown,
): Error {
  const message =
    `Adapter conformance check '${run.check}' failed for ${run.harness.name}: ${problem} ` +
    `Fix: ${fix}`;
  return cause === undefined ? new Error(message) : new Error(message, { cause });
}

/** Stable JSON text of a value (`undefined` spelled out), for comparing and showing. */
function jsonOf(value: unknown): string {
  if (value === undefined) return 'undefined';
  try {
    // JSON.stringify answers undefined for a function or a symbol.
    if (typeof value === 'function' || typeof value === 'symbol') return `<${typeof value}>`;
    return JSON.stringify(value);
  } catch {
    return `<${typeof value} that JSON cannot show>`;
  }
}

/** A value as a failure message shows it: JSON, cut at a few hundred characters. */
export function show(value: unknown): string {
  const text = jsonOf(value);
  return text.length > SHOWN
    ? `${text.slice(0, SHOWN)}… [${text.length - SHOWN} more characters]`
    : text;
}

/** A thrown value as a failure message shows it: its name and message. */
export function describeThrown(error: unknown): string {
  if (error instanceof Error) return show(`${error.name}: ${error.message}`);
  return show(error);
}

/** Throws a conformance failure unless `actual` and `expected` have the same JSON. */
export function expectSame(
  run: CheckRun,
  what: string,
  actual: unknown,
  expected: unknown,
  fix: string,
): void {
  if (jsonOf(actual) === jsonOf(expected)) return;
  throw conformanceFailure(run, `${what}: expected ${show(expected)}, got ${show(actual)}.`, fix);
}

/** Opens the harness on `script`, runs `body`, and closes it; a failure of `body` wins over one of `close`. */
export async function withAdapter<T>(
  run: CheckRun,
  script: readonly ScriptedTurn[],
  options: HarnessOpenOptions,
  body: (opened: AdapterUnderTest) => Promise<T>,
): Promise<T> {
  const opened = await run.harness.open(script, options);
  let result: T;
  try {
    result = await body(opened);
  } catch (error) {
    await opened.close().catch(() => undefined);
    throw error;
  }
  await opened.close();
  return result;
}

/** A runtime in a fresh container, as an application installs it (every one with the same test `stateSecret`). */
export function freshRuntime(): AffordanceRuntime {
  return installAffordance(new Container(), { stateSecret: TEST_STATE_SECRET });
}

/** Awaits an evaluation that should succeed; a failure becomes a conformance failure carrying it as `cause`. */
export async function succeeded<T>(run: CheckRun, evaluation: Promise<T>): Promise<T> {
  try {
    return await evaluation;
  } catch (error) {
    throw conformanceFailure(
      run,
      `the evaluation failed: ${describeThrown(error)}.`,
      "return the provider's answer as a ProviderTurn (text, toolCalls, parsed, usage); the error's cause has the details.",
      error,
    );
  }
}

/** Awaits an evaluation that should stop with a `PromptEvaluationError` in `phase`, and returns that error. */
export async function stoppedIn(
  run: CheckRun,
  evaluation: Promise<unknown>,
  phase: PromptEvaluationError['phase'],
  fix: string,
): Promise<PromptEvaluationError> {
  try {
    await evaluation;
  } catch (error) {
    return expectPhase(run, error, phase, fix);
  }
  throw conformanceFailure(
    run,
    `expected the evaluation to stop with a PromptEvaluationError (phase '${phase}'), but it completed.`,
    fix,
  );
}

/** `error` as a `PromptEvaluationError` of `phase`, or a conformance failure saying what it was instead. */
export function expectPhase(
  run: CheckRun,
  error: unknown,
  phase: PromptEvaluationError['phase'],
  fix: string,
): PromptEvaluationError {
  if (PromptEvaluationError.is(error) && error.phase === phase) return error;
  const got = PromptEvaluationError.is(error)
    ? `one in phase '${error.phase}': ${describeThrown(error)}`
    : describeThrown(error);
  throw conformanceFailure(
    run,
    `expected a PromptEvaluationError in phase '${phase}', got ${got}.`,
    fix,
    error,
  );
}

/** A tick of the event loop: what a provider that answered at once needs to settle the evaluation. */
const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Waits until the provider has received `count` requests (polling
 * `requests()`) and checks that the last one hangs, as the harness was
 * opened with `hang: true`; fails when `running` (the evaluation) settles
 * before the check stops it, saying how.
 */
export async function untilRequests(
  run: CheckRun,
  opened: AdapterUnderTest,
  count: number,
  running: Promise<unknown>,
): Promise<void> {
  const state: { settled: boolean; outcome: string } = { settled: false, outcome: '' };
  running.then(
    () => Object.assign(state, { settled: true, outcome: 'it completed' }),
    (error: unknown) =>
      Object.assign(state, { settled: true, outcome: `it failed: ${describeThrown(error)}` }),
  );
  while (opened.requests().length < count && !state.settled) await tick();
  await tick();
  if (!state.settled) return;
  const seen = opened.requests().length;
  throw conformanceFailure(
    run,
    seen < count
      ? `the evaluation ended after ${seen} request(s), before request ${count} reached the provider (${state.outcome}).`
      : `request ${count} was answered, though the harness was opened with { hang: true } (${state.outcome}).`,
    seen < count
      ? 'make the earlier checks of this suite pass first: the loop did not get as far as the script.'
      : 'in the harness, hold the first request after the script open without answering until its signal aborts or close() runs.',
  );
}

/**
 * Records every `PromptRendered`, `ToolInvoked` and `PromptExecuted` the
 * session dispatches; the returned function gives them as plain JSON values
 * without the fields that differ between two runs (ids, times).
 */
export function recordEvents(session: Session): () => unknown[] {
  const events: object[] = [];
  for (const type of [PromptRendered, ToolInvoked, PromptExecuted]) {
    session.dispatcher.subscribe(type, (event: object) => {
      events.push(event);
    });
  }
  const varying = new Set(['eventId', 'createdAt', 'evaluationId', 'sessionId', 'durationMs']);
  return () =>
    events.map((event) => {
      const fields = Object.entries(event).filter(([field]) => !varying.has(field));
      const copy = Object.fromEntries([['type', event.constructor.name], ...fields]);
      return JSON.parse(JSON.stringify(copy)) as unknown;
    });
}
