import { ConfigurationError } from '../../index.js';

/** The usage text of `affordance-eval`. */
export const evalCliUsage = `Usage: affordance-eval run <suite-module> [options]

Runs the eval suite a compiled module exports by default (defineEvalSuite), writes
<out>/report.json, <out>/report.html and each trial's session (<out>/sessions/, an
inspector export and its page), and exits 1 when the pass rate is below --min-pass
or a case that passed in the baseline fails now.
  --out <dir>                 where to write the report (default: eval-results)
  --baseline <report.json>    an earlier run's report to compare with
  --min-pass <rate>           the share of cases that must pass, 0..1 (default: 0)
  --trials <n>                trials per case, pass@k over them (default: 1)
  --concurrency <n>           trials running at once (default: 4)
  --deadline-ms <ms>          how long one trial may take (default: 60000)
  --tag <tag>                 only the cases with this tag (repeatable)
  --fail-on-regression        exit 1 on regressions (the default with --baseline)
  --no-fail-on-regression     report regressions without failing`;

/** What `affordance-eval run` was asked to do. */
export interface EvalCliRequest {
  readonly suiteModule: string;
  readonly out: string;
  readonly baseline: string | undefined;
  readonly minPass: number;
  readonly trials: number;
  readonly concurrency: number;
  readonly deadlineMs: number;
  readonly tags: readonly string[] | undefined;
  readonly failOnRegression: boolean;
}

const VALUE_FLAGS = [
  '--out',
  '--baseline',
  '--min-pass',
  '--trials',
  '--concurrency',
  '--deadline-ms',
  '--tag',
];
const SWITCHES = ['--fail-on-regression', '--no-fail-on-regression'];

/** Reads `run <suite-module> --flag value ...` (also `--flag=value`); throws a `ConfigurationError` naming the bad flag. */
export function parseEvalArgs(args: readonly string[]): EvalCliRequest {
  const [command, ...rest] = args;
  if (command !== 'run') {
    throw usageError(
      'affordance-eval',
      command === undefined
        ? 'no command was given.'
        : `unknown command ${JSON.stringify(command)}.`,
      'run `affordance-eval run <suite-module>` (run is the only command).',
    );
  }
  const { suiteModule, values, switches } = readArgs(rest);
  if (suiteModule === undefined) {
    throw usageError(
      'affordance-eval run',
      'no suite module was given.',
      'pass the compiled module that exports the suite by default, e.g. affordance-eval run dist/evals/support.suite.js.',
    );
  }
  if (switches.size === 2) {
    throw usageError(
      'affordance-eval --fail-on-regression',
      'both --fail-on-regression and --no-fail-on-regression were given.',
      'give one of them.',
    );
  }
  const single = (flag: string): string | undefined => {
    const given = values.get(flag);
    if (given !== undefined && given.length > 1) {
      throw usageError(
        `affordance-eval ${flag}`,
        'was given more than once.',
        `give ${flag} once.`,
      );
    }
    return given?.[0];
  };
  const baseline = single('--baseline');
  return {
    suiteModule,
    out: single('--out') ?? 'eval-results',
    baseline,
    minPass: rate('--min-pass', single('--min-pass')),
    trials: count('--trials', single('--trials'), 1),
    concurrency: count('--concurrency', single('--concurrency'), 4),
    deadlineMs: count('--deadline-ms', single('--deadline-ms'), 60_000),
    tags: values.get('--tag'),
    failOnRegression: switches.has('--no-fail-on-regression')
      ? false
      : switches.has('--fail-on-regression') || baseline !== undefined,
  };
}

/** The positional suite module, the flags with values, and the switches. */
function readArgs(rest: readonly string[]): {
  suiteModule: string | undefined;
  values: Map<string, string[]>;
  switches: Set<string>;
} {
  const values = new Map<string, string[]>();
  const switches = new Set<string>();
  let suiteModule: string | undefined;
  for (let index = 0; index < rest.length; index++) {
    const arg = rest[index] as string;
    if (!arg.startsWith('--')) {
      if (suiteModule !== undefined) {
        throw usageError(
          'affordance-eval run',
          `a second suite module ${JSON.stringify(arg)} was given.`,
          'run one suite module at a time.',
        );
      }
      suiteModule = arg;
      continue;
    }
    const equals = arg.indexOf('=');
    const flag = equals === -1 ? arg : arg.slice(0, equals);
    if (SWITCHES.includes(flag) && equals === -1) {
      switches.add(flag);
      continue;
    }
    if (!VALUE_FLAGS.includes(flag)) {
      throw usageError(
        `affordance-eval ${flag}`,
        `${JSON.stringify(arg)} is not an option of affordance-eval run.`,
        'use the options listed below.',
      );
    }
    const value = equals === -1 ? rest[++index] : arg.slice(equals + 1);
    if (value === undefined || value === '' || value.startsWith('--')) {
      throw usageError(
        `affordance-eval ${flag}`,
        'the option has no value.',
        `write the value after ${flag}.`,
      );
    }
    values.set(flag, [...(values.get(flag) ?? []), value]);
  }
  return { suiteModule, values, switches };
}

function rate(flag: string, value: string | undefined): number {
  if (value === undefined) return 0;
  const parsed = Number(value);
  if (!/^\d*\.?\d+$/.test(value) || !(parsed >= 0 && parsed <= 1)) {
    throw usageError(
      `affordance-eval ${flag}`,
      `${JSON.stringify(value)} is not a rate between 0 and 1.`,
      `write the share of cases that must pass, e.g. ${flag} 0.9.`,
    );
  }
  return parsed;
}

function count(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed < 1) {
    throw usageError(
      `affordance-eval ${flag}`,
      `${JSON.stringify(value)} is not a whole number >= 1.`,
      `write a number, e.g. ${flag} ${fallback}.`,
    );
  }
  return parsed;
}

function usageError(subject: string, problem: string, fix: string): ConfigurationError {
  return new ConfigurationError({ subject, problem, fix: `${fix}\n\n${evalCliUsage}` });
}
