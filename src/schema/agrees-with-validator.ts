import type { getMetadataStorage } from 'class-validator';

import { isThenable } from '../core/is-thenable.js';
import { formatProbes } from './format-checks.js';
import type { ValidationMetadata } from './validation-metadata.js';

/** A check of one value, answering as one class-validator constraint would. @internal */
export type ValueCheck = (value: unknown) => boolean;

/** Makes a constraint's check from its stored arguments; `undefined` when they cannot be honoured exactly. @internal */
export type CheckFactory = (args: readonly unknown[]) => ValueCheck | undefined;

const baseProbes: readonly unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -0,
  1,
  -1,
  2,
  0.5,
  -2.5,
  100,
  1e21,
  1e-7,
  Number.NaN,
  Infinity,
  -Infinity,
  '',
  ' ',
  'a',
  'abc',
  'ABC',
  'a b',
  '12345',
  'x'.repeat(300),
  '\uD83D\uDE00',
  'e\uFE0F',
  'null',
  ...formatProbes,
  [],
  [1],
  ['a', 'b'],
  {},
  { a: 1 },
];

/**
 * The most values probed from one list or record argument (`@IsIn(values)`,
 * an enum): each probe runs the validator, which reads the whole list, so
 * probing every value of a long one took time quadratic in its length.
 */
const maxListedProbes = 16;

/** The longest string probed around a numeric argument (`@MaxLength(n)`: n - 1, n, n + 1 characters). */
const maxProbeLength = 1000;

/** Probe values around a constraint's own arguments: bounds and their neighbours, some listed values. */
function derivedProbes(args: readonly unknown[]): unknown[] {
  const probes: unknown[] = [];
  for (const arg of args) {
    if (typeof arg === 'number' && Number.isFinite(arg)) {
      probes.push(arg, arg - 1, arg + 1, arg - 0.5, arg + 0.5);
      const length = Math.max(0, Math.min(Math.trunc(arg), maxProbeLength));
      for (const n of [length - 1, length, length + 1]) if (n >= 0) probes.push('y'.repeat(n));
    } else if (Array.isArray(arg)) probes.push(...(arg as unknown[]).slice(0, maxListedProbes));
    else if (typeof arg === 'string') probes.push(arg);
    else if (typeof arg === 'object' && arg !== null && !(arg instanceof RegExp)) {
      const record = arg as Record<string, unknown>;
      let listed = 0;
      for (const key in record) {
        if (!Object.hasOwn(record, key)) continue;
        probes.push(key, record[key]);
        if (++listed === maxListedProbes) break;
      }
    }
  }
  return probes;
}

/**
 * A pattern the probe runs in place of an application's `@Matches` pattern,
 * with the same flags: it tells the probe values apart, and matches each in
 * a few steps.
 */
const referenceSource = '^a|c$|\\d\\d|^$';

/**
 * The arguments a constraint is probed with: its own, except that a pattern
 * is never run on a probe value. A backtracking pattern can take exponential
 * time on a 30-character text (`@Matches(/^(\w+)*!$/)` never answers on the
 * 300-character probe), so `@Matches` is probed with {@link referenceSource}
 * under the same flags, which confirms that the registered validator tests
 * its pattern as `RegExp.prototype.test` does; the application's pattern only
 * runs on the arguments a call sends. Any other constraint whose arguments
 * hold a regular expression (`isURL`'s `host_whitelist`, `isAlpha`'s
 * `ignore`) is not probed at all: `undefined`, and class-validator checks it.
 */
function probeArguments(name: string | undefined, args: readonly unknown[]) {
  const [pattern, ...rest] = args;
  if (name === 'matches' && pattern instanceof RegExp)
    return [new RegExp(referenceSource, pattern.flags), ...rest];
  if (name === 'matches' && typeof pattern === 'string') return [referenceSource, ...rest];
  return args.some(holdsRegExp) ? undefined : args;
}

/** Whether `arg` is, lists or holds (one level down) a regular expression. */
function holdsRegExp(arg: unknown): boolean {
  if (arg instanceof RegExp) return true;
  if (typeof arg !== 'object' || arg === null) return false;
  return Object.values(arg).some(
    (item) =>
      item instanceof RegExp || (Array.isArray(item) && item.some((v) => v instanceof RegExp)),
  );
}

/**
 * Whether the validator registered for `metadata` is synchronous and answers
 * like the check `factory` makes, on the probe values: every probe is a
 * bounded value (strings of at most 1,001 characters, at most 16 values of a
 * list argument) and no application pattern runs on one (see
 * {@link probeArguments}). Guards against a custom validator registered under
 * a built-in name, and against a class-validator whose built-in validators
 * have changed. @internal
 */
export function agreesWithValidator(
  storage: ReturnType<typeof getMetadataStorage>,
  metadata: ValidationMetadata,
  factory: CheckFactory,
  args: readonly unknown[],
): boolean {
  const constraints = storage.getTargetValidatorConstraints(metadata.constraintCls);
  const [constraint] = constraints;
  if (constraints.length !== 1 || constraint === undefined) return false;
  if (constraint.async || constraint.name !== metadata.name) return false;
  const probeArgs = probeArguments(metadata.name, args);
  try {
    const check = probeArgs === undefined ? undefined : factory(probeArgs);
    if (probeArgs === undefined || check === undefined) return false;
    const validator = constraint.instance as {
      validate: (value: unknown, validationArguments: object) => unknown;
    };
    for (const value of [...baseProbes, ...derivedProbes(probeArgs)]) {
      const answer = validator.validate(value, {
        value,
        constraints: probeArgs === args ? metadata.constraints : probeArgs,
        targetName: (metadata.target as { name?: unknown }).name,
        object: {},
        property: metadata.propertyName,
      });
      if (isThenable(answer) || Boolean(answer) !== check(value)) return false;
    }
    return true;
  } catch {
    return false;
  }
}
