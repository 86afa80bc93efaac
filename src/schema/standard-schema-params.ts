import { ConfigurationError } from '../core/errors/configuration-error.js';
import { describeThrown } from '../core/errors/describe-thrown.js';
import { deepFreeze } from '../core/deep-freeze.js';
import type { ParamsJsonSchema, SchemaProfile } from './params-json-schema.js';
import { parseStandardArguments, stripStrictNulls } from './parse-standard-arguments.js';
import { isPlainObject } from './plain-object.js';
import { projectJsonSchema } from './project-json-schema.js';
import type { JsonSchemaConverter, StandardSchemaV1 } from './standard-schema.js';

/** The JSON Schema dialect asked of a library with Standard JSON Schema support. */
const target = 'draft-2020-12';

/**
 * The params of a tool declared with a Standard Schema (`ToolParams` of kind
 * `standard-schema`): the library validates, and its own JSON Schema (Standard
 * JSON Schema `input`, or the converter given) is projected onto each profile
 * as a params class's would be (`project-json-schema.ts`).
 * @internal
 */
export class StandardSchemaParams<T> {
  readonly kind = 'standard-schema';
  readonly paramsType = undefined;
  #source: Record<string, unknown> | undefined;
  readonly #profiles = new Map<SchemaProfile, ParamsJsonSchema>();

  /**
   * @throws ConfigurationError naming `subject` when the schema has no JSON
   * Schema support and no converter is given.
   */
  constructor(
    readonly schema: StandardSchemaV1<unknown, T>,
    private readonly subject: string,
    private readonly converter: JsonSchemaConverter | undefined,
  ) {
    if (converter === undefined && schema['~standard'].jsonSchema === undefined) {
      const vendor = schema['~standard'].vendor;
      throw new ConfigurationError({
        subject,
        problem: `its params schema (${vendor}) does not implement Standard JSON Schema, so the JSON Schema sent to the model cannot be written.`,
        fix:
          'Pass `paramsJsonSchema`, a function from the schema to its JSON Schema ' +
          "(zod 4: `(schema) => z.toJSONSchema(schema, { io: 'input' })`), " +
          'or use a version of the library that implements Standard JSON Schema.',
      });
    }
  }

  /** See `ToolParams.jsonSchema`. */
  jsonSchema(profile: SchemaProfile): ParamsJsonSchema {
    let result = this.#profiles.get(profile);
    if (result === undefined) {
      result = deepFreeze(projectJsonSchema(this.#sourceSchema(), profile, this.subject));
      this.#profiles.set(profile, result);
    }
    return result;
  }

  /** See `ToolParams.parse`. */
  parse(raw: unknown, profile: SchemaProfile): T | Promise<T> {
    const strictSource = profile === 'openai-strict' ? this.#sourceSchema() : undefined;
    return parseStandardArguments(this.schema, raw, strictSource);
  }

  /**
   * `value` without the `null`s the `openai-strict` projection asks the model
   * to send for absent optional properties (see `normalizeStrictArguments`).
   */
  normalizeStrict(value: unknown): unknown {
    const source = this.#sourceSchema();
    return stripStrictNulls(source, value, source, 1);
  }

  /** See `ToolParams.fieldDescriptions`. */
  fieldDescriptions(): ReadonlyMap<string, string> {
    const properties = this.#sourceSchema()['properties'];
    const descriptions = new Map<string, string>();
    if (!isPlainObject(properties)) return descriptions;
    for (const [name, property] of Object.entries(properties)) {
      const text = isPlainObject(property) ? property['description'] : undefined;
      if (typeof text === 'string') descriptions.set(name, text);
    }
    return descriptions;
  }

  /** The library's JSON Schema of the accepted values, asked once. */
  #sourceSchema(): Record<string, unknown> {
    if (this.#source !== undefined) return this.#source;
    let source: unknown;
    try {
      const support = this.schema['~standard'].jsonSchema;
      source =
        this.converter !== undefined ? this.converter(this.schema) : support?.input({ target });
    } catch (error) {
      throw new ConfigurationError({
        subject: this.subject,
        problem: `the params schema's JSON Schema could not be written: ${describeThrown(error)}`,
        fix: 'Use only types JSON Schema can describe in a tool params schema (no transforms, dates or custom checks without a JSON form).',
        cause: error,
      });
    }
    if (!isPlainObject(source)) {
      throw new ConfigurationError({
        subject: this.subject,
        problem: "the params schema's JSON Schema is not a JSON object.",
        fix: 'Make `paramsJsonSchema` return the JSON Schema as a plain object.',
      });
    }
    this.#source = source;
    return source;
  }
}

const shared = new WeakMap<StandardSchemaV1, StandardSchemaParams<unknown>>();

/**
 * The {@link StandardSchemaParams} of a schema used outside a tool (a prompt's
 * output, a section's params, `toJsonSchema`), built once per schema with
 * errors naming the library. @internal
 */
export function standardSchemaParamsOf<T>(
  schema: StandardSchemaV1<unknown, T>,
): StandardSchemaParams<T> {
  let params = shared.get(schema);
  if (params === undefined) {
    params = new StandardSchemaParams(
      schema,
      `Standard Schema (${schema['~standard'].vendor})`,
      undefined,
    );
    shared.set(schema, params);
  }
  return params as StandardSchemaParams<T>;
}
