import { readFile } from 'node:fs/promises';

import { compileLinearPattern, ConfigurationError } from '../index.js';
import { EVAL_CASE_ID_PATTERN, type EvalCase, type EvalExpectations } from './eval-case.js';

/** Options of {@link loadEvalCases}. */
export interface LoadEvalCasesOptions {
  /** Builds a case's params instances from its line's `params` object (JSON has no classes). */
  readonly params?: (params: Readonly<Record<string, unknown>>, id: string) => readonly object[];
}

const CASE_FIELDS = new Set(['id', 'input', 'params', 'expected', 'tags', 'data']);
const COUNTS = ['maxCalls', 'maxTokens', 'maxTurns', 'maxDurationMs'] as const;
const EXPECTED_FIELDS = new Set<string>([
  'answer',
  'contains',
  'matches',
  'output',
  'calls',
  'notCalled',
  ...COUNTS,
]);

/** A bad line: the error names the file, the line and the field. */
class LineProblem extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`${field}: ${problem}`);
  }
}

/**
 * Reads eval cases from a JSONL file: one JSON object per line (blank lines
 * skipped) with `id`, and optionally `input`, `tags`, `expected` (the fields
 * of {@link EvalExpectations}), `params` (turned into instances by the
 * `params` option) and `data`. Every line is checked before any case is
 * returned.
 *
 * @example
 * // cases.jsonl: {"id":"refund","input":"Refund A-17?","expected":{"calls":[{"tool":"lookup_order"}]}}
 * const cases = await loadEvalCases('evals/cases.jsonl');
 * @throws ConfigurationError naming `file:line`, the field and the fix.
 */
export async function loadEvalCases(
  path: string,
  options: LoadEvalCasesOptions = {},
): Promise<EvalCase[]> {
  const text = await readFile(path, 'utf8');
  const cases: EvalCase[] = [];
  const seen = new Map<string, number>();
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const at = `${path}:${index + 1}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      throw new ConfigurationError({
        subject: `Eval case ${at}`,
        problem: `is not JSON (${error instanceof Error ? error.message : String(error)}).`,
        fix: 'Write one JSON object per line, e.g. {"id":"greeting","input":"Hello"}.',
      });
    }
    try {
      const evalCase = checkCase(parsed, options);
      const earlier = seen.get(evalCase.id);
      if (earlier !== undefined) {
        throw new LineProblem(
          'id',
          `repeats '${evalCase.id}' of line ${earlier}.`,
          'Give each case its own id.',
        );
      }
      seen.set(evalCase.id, index + 1);
      cases.push(evalCase);
    } catch (error) {
      if (!(error instanceof LineProblem)) throw error;
      throw new ConfigurationError({
        subject: `Eval case ${at}, field ${error.field}`,
        problem: error.problem,
        fix: error.fix,
      });
    }
  }
  if (cases.length === 0) {
    throw new ConfigurationError({
      subject: `Eval cases ${path}`,
      problem: 'has no case.',
      fix: 'Write one JSON object per line, e.g. {"id":"greeting","input":"Hello"}.',
    });
  }
  return cases;
}

function checkCase(value: unknown, options: LoadEvalCasesOptions): EvalCase {
  const record = objectOf(value, '(line)');
  for (const key of Object.keys(record)) {
    if (!CASE_FIELDS.has(key)) {
      throw new LineProblem(
        key,
        'is not a field of an eval case.',
        `Use ${[...CASE_FIELDS].join(', ')}.`,
      );
    }
  }
  const id = record['id'];
  if (typeof id !== 'string' || !EVAL_CASE_ID_PATTERN.test(id)) {
    throw new LineProblem(
      'id',
      `must be 1 to 128 letters, digits, '.', '_' or '-', got ${(JSON.stringify(id) as string | undefined) ?? 'nothing'}.`,
      'Give the case an id like "refund-late-order".',
    );
  }
  const input = record['input'];
  if (input !== undefined && typeof input !== 'string') {
    throw new LineProblem('input', `must be a string, got ${typeof input}.`, 'Quote the message.');
  }
  const tags = stringList(record['tags'], 'tags');
  const expected = record['expected'] === undefined ? undefined : checkExpected(record['expected']);
  const data = record['data'] === undefined ? undefined : objectOf(record['data'], 'data');
  let params: readonly object[] | undefined;
  if (record['params'] !== undefined) {
    const raw = objectOf(record['params'], 'params');
    if (options.params === undefined) {
      throw new LineProblem(
        'params',
        'is given but loadEvalCases has no params option to build instances from it.',
        'Pass loadEvalCases(path, { params: (raw) => [new MyParams(raw)] }).',
      );
    }
    params = options.params(raw, id);
  }
  return {
    id,
    ...(input === undefined ? {} : { input }),
    ...(tags === undefined ? {} : { tags }),
    ...(expected === undefined ? {} : { expected }),
    ...(data === undefined ? {} : { data }),
    ...(params === undefined ? {} : { params }),
  };
}

function checkExpected(value: unknown): EvalExpectations {
  const record = objectOf(value, 'expected');
  for (const key of Object.keys(record)) {
    if (!EXPECTED_FIELDS.has(key)) {
      throw new LineProblem(
        `expected.${key}`,
        'is not an expectation.',
        `Use ${[...EXPECTED_FIELDS].join(', ')}.`,
      );
    }
  }
  const { answer, contains, matches, output, calls } = record;
  if (answer !== undefined && typeof answer !== 'string') {
    throw new LineProblem('expected.answer', 'must be a string.', 'Give the exact answer text.');
  }
  if (contains !== undefined && typeof contains !== 'string')
    stringList(contains, 'expected.contains');
  if (matches !== undefined) {
    if (typeof matches !== 'string') {
      throw new LineProblem(
        'expected.matches',
        'must be a string.',
        'Give a regular expression as a string.',
      );
    }
    const compiled = compileLinearPattern(matches);
    if (!compiled.ok) {
      throw new LineProblem(
        'expected.matches',
        `${compiled.problem}.`,
        'Use a pattern without backreferences or lookaround (it runs in linear time).',
      );
    }
  }
  if (output !== undefined) objectOf(output, 'expected.output');
  if (calls !== undefined) checkCalls(calls);
  stringList(record['notCalled'], 'expected.notCalled');
  for (const key of COUNTS) {
    const count = record[key];
    if (
      count !== undefined &&
      !(typeof count === 'number' && Number.isFinite(count) && count >= 0)
    ) {
      throw new LineProblem(
        `expected.${key}`,
        `must be a number >= 0, got ${JSON.stringify(count)}.`,
        'Give the limit as a number.',
      );
    }
  }
  return record;
}

function checkCalls(calls: unknown): void {
  if (!Array.isArray(calls)) {
    throw new LineProblem('expected.calls', 'must be an array.', 'Give [{"tool":"name"}, ...].');
  }
  for (const [index, call] of (calls as unknown[]).entries()) {
    const field = `expected.calls[${index}]`;
    const entry = objectOf(call, field);
    if (typeof entry['tool'] !== 'string' || entry['tool'] === '') {
      throw new LineProblem(
        `${field}.tool`,
        'must be a tool name.',
        'Give {"tool":"lookup_order"}.',
      );
    }
    if (entry['arguments'] !== undefined) objectOf(entry['arguments'], `${field}.arguments`);
  }
}

function objectOf(value: unknown, field: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new LineProblem(
      field,
      `must be an object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}.`,
      field === '(line)' ? 'Write one JSON object per line.' : `Write ${field} as {...}.`,
    );
  }
  return value as Record<string, unknown>;
}

function stringList(value: unknown, field: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new LineProblem(field, 'must be an array of strings.', `Write ${field} as ["a", "b"].`);
  }
  return value;
}
