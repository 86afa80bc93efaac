import { ConfigurationError } from '../core/errors/configuration-error.js';
import { acceptsOnlyDeclaredKeys } from './check-json-schema.js';
import { compileJsonSchema, type CompiledJsonSchema } from './compile-json-schema.js';
import { describeProblems, type JsonSchemaProblem } from './json-schema-problem.js';
import type { ParamsJsonSchema, SchemaProfile } from './params-json-schema.js';
import { isPlainObject, reservedKeys } from './plain-object.js';
import { maxArgumentDepth } from './screen-arguments.js';
import type {
  StandardSchemaIssue,
  StandardSchemaResult,
  StandardSchemaV1,
} from './standard-schema.js';
import { StandardSchemaParams } from './standard-schema-params.js';

/**
 * A plain JSON Schema (draft-07 or 2020-12) describing a tool's params: an
 * object schema, as JSON data (e.g. an MCP tool's `inputSchema`, or a schema
 * generated from an OpenAPI document).
 */
export type JsonSchemaObject = Readonly<Record<string, unknown>>;

/** What {@link JsonSchemaParams.compile} returns: the params, or every problem of the schema. @internal */
export type JsonSchemaParamsResult<T> =
  | { readonly ok: true; readonly params: JsonSchemaParams<T> }
  | { readonly ok: false; readonly problems: readonly JsonSchemaProblem[] };

const compiled = new WeakMap<object, JsonSchemaParamsResult<unknown>>();

/**
 * The params of a tool declared with a plain JSON Schema (`ToolParams` of
 * kind `json-schema`): ajv validates (compiled once per schema object, see
 * `compile-json-schema.ts`), and the schema itself is projected onto each
 * profile as a Standard Schema library's is (`project-json-schema.ts`), with
 * the same strict-mode nulls, issues and loss report. The handler receives
 * the decoded arguments as they are (plain JSON data).
 * @internal
 */
export class JsonSchemaParams<T> {
  readonly kind = 'json-schema';
  readonly paramsType = undefined;
  /** A Standard Schema view of the compiled validator. */
  readonly schema: StandardSchemaV1<unknown, T>;
  readonly #params: StandardSchemaParams<T>;

  private constructor(
    /** The JSON Schema as given (a frozen copy). */
    readonly source: JsonSchemaObject,
    validate: CompiledJsonSchema,
    subject: string,
  ) {
    const screened = !acceptsOnlyDeclaredKeys(source);
    this.#screened = screened;
    this.schema = standardView<T>(source, validate, screened);
    this.#params = new StandardSchemaParams<T>(this.schema, subject, undefined);
    this.#validate = validate;
  }

  readonly #validate: CompiledJsonSchema;
  /** Whether arguments are screened for reserved keys and depth (the schema does not rule them out). */
  readonly #screened: boolean;

  /**
   * The params of `schema`, compiled once per schema object (a second tool
   * with the same object reuses the validator), or every problem found.
   */
  static compile<T>(schema: JsonSchemaObject, subject: string): JsonSchemaParamsResult<T> {
    let result = compiled.get(schema) as JsonSchemaParamsResult<T> | undefined;
    if (result !== undefined) return result;
    const outcome = compileJsonSchema(schema);
    if (!outcome.ok) result = outcome;
    else {
      const source: JsonSchemaObject = structuredClone(schema);
      try {
        const params = new JsonSchemaParams<T>(source, outcome.validate, subject);
        params.jsonSchema('standard'); // an object root, checked now
        result = { ok: true, params };
      } catch (error) {
        if (!(error instanceof ConfigurationError)) throw error;
        result = {
          ok: false,
          problems: [{ pointer: '', keyword: 'type', message: error.problem }],
        };
      }
    }
    compiled.set(schema, result);
    return result;
  }

  /**
   * The params of `schema`.
   * @throws ConfigurationError naming `subject` and every keyword the
   * validator cannot compile.
   */
  static of<T>(schema: JsonSchemaObject, subject: string): JsonSchemaParams<T> {
    const result = JsonSchemaParams.compile<T>(schema, subject);
    if (result.ok) return result.params;
    throw new ConfigurationError({
      subject,
      problem: `its params JSON Schema cannot be validated: ${describeProblems(result.problems)}.`,
      fix: 'Change the schema at the places named (local `$ref`s only, patterns without backreferences or lookaround, the formats listed), or declare the params with a params class or a Standard Schema.',
    });
  }

  /** See `ToolParams.jsonSchema`. */
  jsonSchema(profile: SchemaProfile): ParamsJsonSchema {
    return this.#params.jsonSchema(profile);
  }

  /** See `ToolParams.parse`. */
  parse(raw: unknown, profile: SchemaProfile): T | Promise<T> {
    // The common case straight to the validator; anything else (strict nulls, every issue) as a Standard Schema.
    if (profile === 'standard' && typeof raw === 'string' && raw !== '') {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        return this.#params.parse(raw, profile);
      }
      const screened = !this.#screened || passesScreen(value, 1);
      if (isPlainObject(value) && screened && this.#validate(value)) return value as T;
    }
    return this.#params.parse(raw, profile);
  }

  /** See `ToolParams.fieldDescriptions`. */
  fieldDescriptions(): ReadonlyMap<string, string> {
    return this.#params.fieldDescriptions();
  }
}

/** `validate` as a Standard Schema whose JSON Schema is `source`. */
function standardView<T>(
  source: JsonSchemaObject,
  validate: CompiledJsonSchema,
  screened: boolean,
): StandardSchemaV1<unknown, T> {
  const jsonSchema = () => source as Record<string, unknown>;
  return Object.freeze({
    '~standard': Object.freeze({
      version: 1,
      vendor: 'json-schema',
      validate: (value: unknown): StandardSchemaResult<T> => {
        if (screened && !passesScreen(value, 1)) {
          const screened: StandardSchemaIssue[] = [];
          screen(value, [], 1, screened);
          return { issues: screened };
        }
        if (validate(value)) return { value: value as T };
        return { issues: (validate.errors ?? []).map((error) => issueOf(error, value)) };
      },
      jsonSchema: Object.freeze({ input: jsonSchema, output: jsonSchema }),
    }),
  });
}

/** Whether `value` holds no reserved key and nests no deeper than the bound (the fast check of {@link screen}). */
function passesScreen(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (depth > maxArgumentDepth) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!passesScreen(item, depth + 1)) return false;
    return true;
  }
  for (const key in value) {
    if (reservedKeys.has(key)) return false;
    if (!passesScreen((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

/** Keys arguments never carry (`__proto__`, names `Object.prototype` defines) and nesting past the bound. */
function screen(
  value: unknown,
  path: PropertyKey[],
  depth: number,
  issues: StandardSchemaIssue[],
): void {
  if (typeof value !== 'object' || value === null) return;
  if (depth > maxArgumentDepth) {
    issues.push({ path, message: `nests deeper than ${maxArgumentDepth} levels` });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      screen(item, [...path, index], depth + 1, issues);
    });
    return;
  }
  for (const key of Object.keys(value)) {
    if (reservedKeys.has(key))
      issues.push({
        path: [...path, key],
        message: 'is a reserved name, never accepted as an argument key',
      });
    else screen((value as Record<string, unknown>)[key], [...path, key], depth + 1, issues);
  }
}

interface AjvError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params: Record<string, unknown>;
  readonly message?: string | undefined;
}

/** One ajv error as an issue: the path of the value at fault (the missing or unknown key included). */
function issueOf(error: AjvError, value: unknown): StandardSchemaIssue {
  const path = segmentsOf(error.instancePath, value);
  if (error.keyword === 'required' && typeof error.params['missingProperty'] === 'string')
    return { path: [...path, error.params['missingProperty']], message: 'is required' };
  if (
    error.keyword === 'additionalProperties' &&
    typeof error.params['additionalProperty'] === 'string'
  )
    return {
      path: [...path, error.params['additionalProperty']],
      message: 'unknown field (the schema does not allow it)',
    };
  if (error.keyword === 'pattern' && typeof error.params['pattern'] === 'string')
    return { path, message: `must match /${error.params['pattern']}/` };
  if (error.keyword === 'affordanceUniqueItems')
    return { path, message: 'must not hold equal items' };
  if (error.keyword === 'enum' && Array.isArray(error.params['allowedValues']))
    return { path, message: `must be one of ${listed(error.params['allowedValues'])}` };
  return { path, message: error.message ?? `fails ${error.keyword}` };
}

/** The first values of a list as JSON, then how many more there are. */
function listed(values: readonly unknown[]): string {
  const shown = values.slice(0, 10).map((value) => JSON.stringify(value));
  const more = values.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/** A JSON pointer into `value` as path segments, array indexes as numbers. */
function segmentsOf(pointer: string, value: unknown): PropertyKey[] {
  if (pointer === '') return [];
  const segments: PropertyKey[] = [];
  let current = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) {
      segments.push(Number(key));
      current = current[Number(key)];
    } else {
      segments.push(key);
      current = isPlainObject(current) && Object.hasOwn(current, key) ? current[key] : undefined;
    }
  }
  return segments;
}

/**
 * Every problem that keeps `schema` from being a tool's JSON Schema params
 * (`ToolDefinition({ params: schema })`), empty when there is none: a keyword
 * the validator does not know, a non-local `$ref`, a pattern the linear-time
 * engine refuses, a format it does not check, a root that is not an object,
 * subschemas nested more than 64 levels. The schema is compiled once: a tool
 * built afterwards with the same object reuses the validator, so checking
 * first costs nothing (this is how `McpToolsSection` skips a server's tool
 * it cannot validate).
 */
export function jsonSchemaProblems(schema: JsonSchemaObject): readonly JsonSchemaProblem[] {
  if (!isPlainObject(schema)) {
    return [{ pointer: '', keyword: 'type', message: 'The schema must be a plain JSON object.' }];
  }
  const result = JsonSchemaParams.compile(schema, 'JSON Schema params');
  return result.ok ? [] : result.problems;
}
