import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { ConfigurationError, type DataClass, type ToolInvoked } from '../../index.js';
import { type EvalObservation, type EvalScorer } from '../eval-case.js';
import { passFail } from '../pass-fail.js';
import { partialMismatch } from './deep-match.js';

/**
 * What a call's arguments must satisfy: a partial object (each given field
 * deep-equal), or a class-validator class the arguments must validate against
 * (unknown fields refused, as tool params are).
 */
export type ArgumentsMatcher = Readonly<Record<string, unknown>> | DataClass;

/** One expected call of {@link calledInOrder} and {@link calledTool}. */
export interface CallMatcher {
  /** The tool's name. */
  readonly tool: string;
  /** What its arguments must satisfy; any arguments when omitted. */
  readonly arguments?: ArgumentsMatcher;
}

/** Why `call` does not satisfy `matcher`, or undefined when it does. */
export function callMismatch(call: ToolInvoked, matcher: CallMatcher): string | undefined {
  if (call.name !== matcher.tool) return `it called ${call.name}`;
  const expected = matcher.arguments;
  if (expected === undefined) return undefined;
  const args = argumentsOf(call);
  if (typeof expected === 'function') {
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      return `its arguments are not an object`;
    }
    const instance = plainToInstance(expected, args) as object;
    const errors = validateSync(instance, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
    });
    if (errors.length === 0) return undefined;
    const fields = errors
      .map((error) => `${error.property}: ${Object.values(error.constraints ?? {}).join(', ')}`)
      .join('; ');
    return `its arguments fail ${expected.name} (${fields})`;
  }
  return partialMismatch(args, expected);
}

/** The arguments of a recorded call: the parsed JSON of what the provider sent. */
function argumentsOf(call: ToolInvoked): unknown {
  const raw = call.rawArguments;
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function describeMatcher(matcher: CallMatcher): string {
  const args = matcher.arguments;
  if (args === undefined) return matcher.tool;
  return typeof args === 'function'
    ? `${matcher.tool}(${args.name})`
    : `${matcher.tool}(${JSON.stringify(args)})`;
}

function trajectory(calls: readonly ToolInvoked[]): string {
  return calls.length === 0 ? 'no tool calls' : calls.map((call) => call.name).join(' → ');
}

/** The trial called `tool` at least once with arguments satisfying `args` (when given). */
export function calledTool(
  tool: string,
  options: { readonly arguments?: ArgumentsMatcher; readonly name?: string } = {},
): EvalScorer {
  const matcher: CallMatcher =
    options.arguments === undefined ? { tool } : { tool, arguments: options.arguments };
  return calledInOrder([matcher], { name: options.name ?? `called-${tool}` });
}

/**
 * The trial made these calls in this order (other calls may come between
 * them). The score is the share of expected calls found in order.
 */
export function calledInOrder(
  expected: readonly CallMatcher[],
  options: { readonly name?: string } = {},
): EvalScorer {
  const name = options.name ?? 'calls-in-order';
  if (expected.length === 0) {
    throw new ConfigurationError({
      subject: `Scorer '${name}'`,
      problem: 'was given no expected calls.',
      fix: 'Pass at least one call, e.g. calledInOrder([{ tool: "lookup_order" }]); use neverCalled for none.',
    });
  }
  return {
    name,
    score(trial: EvalObservation) {
      let found = 0;
      let lastMiss: string | undefined;
      for (const call of trial.toolCalls) {
        const want = expected[found];
        if (want === undefined) break;
        const miss = callMismatch(call, want);
        if (miss === undefined) found += 1;
        else if (call.name === want.tool) lastMiss = miss;
      }
      const passed = found === expected.length;
      const next = expected[found];
      const reason =
        passed || next === undefined
          ? `called ${expected.map(describeMatcher).join(' → ')} in order`
          : `expected ${describeMatcher(next)} (call ${found + 1} of ${expected.length} in order)` +
            `${lastMiss === undefined ? '' : ` but ${lastMiss}`}; the trial made ${trajectory(trial.toolCalls)}`;
      return { scorer: name, score: found / expected.length, passed, reason };
    },
  };
}

/** The trial never called any of `tools`. */
export function neverCalled(
  tools: string | readonly string[],
  options: { readonly name?: string } = {},
): EvalScorer {
  const names = typeof tools === 'string' ? [tools] : [...tools];
  const name = options.name ?? `never-called-${names.join('-')}`;
  return {
    name,
    score(trial: EvalObservation) {
      const called = trial.toolCalls.filter((call) => names.includes(call.name));
      return passFail(
        name,
        called.length === 0,
        called.length === 0
          ? `never called ${names.join(', ')}`
          : `called ${[...new Set(called.map((call) => call.name))].join(', ')} (${called.length} time(s)), which it must not`,
      );
    },
  };
}

/** The trial made at most `max` tool calls (of `tool` only, when given). */
export function maxToolCalls(
  max: number,
  options: { readonly tool?: string; readonly name?: string } = {},
): EvalScorer {
  const name =
    options.name ?? (options.tool === undefined ? 'max-calls' : `max-calls-${options.tool}`);
  if (!Number.isInteger(max) || max < 0) {
    throw new ConfigurationError({
      subject: `Scorer '${name}'`,
      problem: `max must be a whole number >= 0, got ${String(max)}.`,
      fix: 'Pass how many calls are allowed, e.g. maxToolCalls(3).',
    });
  }
  const what = options.tool === undefined ? 'tool calls' : `calls of ${options.tool}`;
  return {
    name,
    score(trial: EvalObservation) {
      const count = trial.toolCalls.filter(
        (call) => options.tool === undefined || call.name === options.tool,
      ).length;
      return passFail(
        name,
        count <= max,
        count <= max ? `${count} ${what}, at most ${max}` : `${count} ${what}, more than ${max}`,
      );
    },
  };
}
