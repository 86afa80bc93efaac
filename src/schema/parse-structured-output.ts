import { OutputParseError } from '../core/errors/output-parse-error.js';
import {
  ToolValidationError,
  type ToolValidationIssue,
} from '../core/errors/tool-validation-error.js';
import type { SchemaProfile } from './params-json-schema.js';
import { parseToolArguments } from './parse-tool-arguments.js';
import { isStandardSchema, type StandardSchemaV1 } from './standard-schema.js';
import { standardSchemaParamsOf } from './standard-schema-params.js';
import { isPlainObject } from './plain-object.js';
import { extractJsonPayload } from './extract-json-payload.js';

/** The model's final answer, as {@link parseStructuredOutput} reads it. */
export interface StructuredAnswer {
  /** The assistant message text; JSON is looked for in it when `parsed` is absent. */
  readonly text?: string | null | undefined;
  /** A JSON value the provider already decoded (structured-output mode); wins over `text`. */
  readonly parsed?: unknown;
}

/** Options of {@link parseStructuredOutput}. */
export interface ParseStructuredOutputOptions {
  /**
   * The schema profile the output schema was sent with. With `openai-strict`,
   * `null` for an optional field means "absent" and is removed, as for tool
   * arguments. Defaults to `standard`.
   */
  readonly profile?: SchemaProfile;
}

type OutputClass<T> = (new (...args: never[]) => T) | StandardSchemaV1<unknown, T>;

const objectReply =
  'Reply with one JSON object that matches the output schema, on its own or in a ```json fenced block.';
const arrayReply =
  'Reply with a JSON array of objects that match the output schema (or {"items": [...]} holding that array), on its own or in a ```json fenced block.';

/**
 * Turns the model's final answer into validated instances of the prompt's
 * output class (or the output values of a Standard Schema): one for
 * `'object'`, an array for `'array'`.
 * A provider-decoded `parsed` value (anything but `null`/`undefined`) is used
 * as is; otherwise JSON is taken from the text: the first ```json fenced
 * block, else the whole text, else the first object or array found in it. An
 * array may come bare or as `{ "items": [...] }`. Each object is validated
 * like tool arguments ({@link parseToolArguments}): unknown keys are
 * rejected and every problem is reported with its path (`[2].name` in arrays).
 *
 * @throws OutputParseError saying what was wrong and what the model should
 * send instead; nothing else is ever thrown. Validation failures carry a
 * {@link ToolValidationError} with every issue as `cause`.
 */
export function parseStructuredOutput<T>(
  outputType: OutputClass<T>,
  container: 'object',
  answer: StructuredAnswer,
  options?: ParseStructuredOutputOptions,
): Promise<T>;
export function parseStructuredOutput<T>(
  outputType: OutputClass<T>,
  container: 'array',
  answer: StructuredAnswer,
  options?: ParseStructuredOutputOptions,
): Promise<T[]>;
export function parseStructuredOutput<T>(
  outputType: OutputClass<T>,
  container: 'object' | 'array',
  answer: StructuredAnswer,
  options?: ParseStructuredOutputOptions,
): Promise<T | T[]>;
export async function parseStructuredOutput<T>(
  outputType: OutputClass<T>,
  container: 'object' | 'array',
  answer: StructuredAnswer,
  options: ParseStructuredOutputOptions = {},
): Promise<T | T[]> {
  const reply = container === 'array' ? arrayReply : objectReply;
  const fail = (problem: string, cause?: unknown): never => {
    const named = isStandardSchema(outputType) ? {} : { outputType };
    throw new OutputParseError(
      `${problem} ${reply}`,
      cause === undefined ? named : { ...named, cause },
    );
  };
  try {
    const payload = readPayload(answer, fail);
    const profile = options.profile ?? 'standard';
    if (container === 'object') {
      if (!isPlainObject(payload)) {
        return fail(`Expected top-level JSON object. Got ${describeJson(payload)}.`);
      }
      try {
        return await parseOne(outputType, payload, profile);
      } catch (error) {
        return fail(
          `The JSON does not match the output schema: ${issuesOf(error)}. Correct those fields.`,
          error,
        );
      }
    }
    return await parseItems(outputType, itemsOf(payload, fail), profile, fail);
  } catch (error) {
    if (OutputParseError.is(error)) throw error;
    return fail(`The answer could not be parsed: ${messageOf(error)}.`, error);
  }
}

type Fail = (problem: string, cause?: unknown) => never;

function readPayload(answer: StructuredAnswer, fail: Fail): unknown {
  if (answer.parsed !== undefined && answer.parsed !== null) return answer.parsed;
  const text = answer.text;
  const search = extractJsonPayload(typeof text === 'string' ? text : '');
  switch (search.kind) {
    case 'found':
      return search.value;
    case 'invalid-fence':
      return fail(
        `Failed to decode JSON from fenced code block. ${messageOf(search.error)}.`,
        search.error,
      );
    case 'none':
      return fail('No JSON object or array found in assistant message.');
  }
}

function itemsOf(payload: unknown, fail: Fail): readonly unknown[] {
  if (Array.isArray(payload)) return payload;
  if (isPlainObject(payload) && Object.hasOwn(payload, 'items')) {
    const items = payload['items'];
    if (Array.isArray(items)) return items;
    return fail(
      `Expected top-level JSON array. Got an object whose "items" is ${describeJson(items)}.`,
    );
  }
  return fail(`Expected top-level JSON array. Got ${describeJson(payload)}.`);
}

async function parseItems<T>(
  outputType: OutputClass<T>,
  items: readonly unknown[],
  profile: SchemaProfile,
  fail: Fail,
): Promise<T[]> {
  const index = items.findIndex((item) => !isPlainObject(item));
  if (index >= 0) {
    return fail(
      `Array item at index ${index} is not an object. Got ${describeJson(items[index])}.`,
    );
  }
  const results = await Promise.allSettled(
    items.map((item) => parseOne(outputType, item, profile)),
  );
  const parsed: T[] = [];
  const issues: ToolValidationIssue[] = [];
  results.forEach((result, i) => {
    if (result.status === 'fulfilled') {
      parsed.push(result.value);
      return;
    }
    const found: readonly ToolValidationIssue[] = ToolValidationError.is(result.reason)
      ? result.reason.issues
      : [{ path: '', message: messageOf(result.reason) }];
    for (const issue of found)
      issues.push({ path: itemPath(i, issue.path), message: issue.message });
  });
  if (issues.length === 0) return parsed;
  const cause = new ToolValidationError(
    issues,
    isStandardSchema(outputType) ? {} : { paramsType: outputType },
  );
  return fail(
    `The JSON does not match the output schema: ${issuesOf(cause)}. Correct those fields.`,
    cause,
  );
}

/** One object validated by the output class, or by the Standard Schema (its `null`s read as with a class). */
async function parseOne<T>(
  outputType: OutputClass<T>,
  value: unknown,
  profile: SchemaProfile,
): Promise<T> {
  if (isStandardSchema(outputType)) return standardSchemaParamsOf(outputType).parse(value, profile);
  return parseToolArguments(outputType, value, { profile });
}

/** `[2]` + `name` → `[2].name`; `[2]` + `["a b"]` → `[2]["a b"]`; `[2]` + `` → `[2]`. */
function itemPath(index: number, path: string): string {
  if (path === '') return `[${index}]`;
  return path.startsWith('[') ? `[${index}]${path}` : `[${index}].${path}`;
}

function issuesOf(error: unknown): string {
  return messageOf(error).replace(/\.$/, '');
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (isPlainObject(value)) return 'an object';
  if (typeof value === 'object') {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== '' ? `a ${name} object` : 'a non-plain object';
  }
  return `a ${typeof value}`;
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : safeString(error);
  return text.replace(/\.$/, '');
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return 'unknown error';
  }
}
