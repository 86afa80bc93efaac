import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { DataClass } from '../core/class-type.js';
import { readFieldDescriptions } from '../metadata/describe-metadata.js';
import type { ParamsJsonSchema, SchemaProfile } from './params-json-schema.js';
import { parseToolArgumentsNow } from './parse-tool-arguments.js';
import {
  isStandardSchema,
  type JsonSchemaConverter,
  type StandardSchemaV1,
} from './standard-schema.js';
import { StandardSchemaParams } from './standard-schema-params.js';
import { type JsonSchemaObject, JsonSchemaParams } from './json-schema-params.js';
import { isPlainObject } from './plain-object.js';
import { toJsonSchema } from './to-json-schema.js';

/**
 * How a tool's params are described to the model and parsed from its
 * arguments, whichever way they are declared: a class-validator params class
 * (`kind: 'class'`), a Standard Schema (`kind: 'standard-schema'`) or a plain
 * JSON Schema validated by ajv (`kind: 'json-schema'`). Every
 * part of the package that needs a tool's schema or its parsed params goes
 * through this (ARCHITECTURE.md, "The path of one tool call").
 */
export interface ToolParams<T = unknown> {
  /** Which declaration this is. */
  readonly kind: 'class' | 'standard-schema' | 'json-schema';
  /** The params class (`kind: 'class'`). */
  readonly paramsType: DataClass<T> | undefined;
  /** The Standard Schema (`kind: 'standard-schema'`; for `json-schema`, a Standard Schema view of the compiled validator). */
  readonly schema: StandardSchemaV1<unknown, T> | undefined;
  /** The JSON Schema for `profile`, with what it leaves out; built once, deeply frozen. */
  jsonSchema(profile: SchemaProfile): ParamsJsonSchema;
  /**
   * The validated params of a call's arguments (JSON text or a decoded
   * value), at once or as a promise, for arguments that follow `profile`.
   * @throws ToolValidationError listing every issue with its path.
   */
  parse(raw: unknown, profile: SchemaProfile): T | Promise<T>;
  /** The descriptions of the top-level fields, for prompt overrides. */
  fieldDescriptions(): ReadonlyMap<string, string>;
}

const classCache = new WeakMap<DataClass, ToolParams>();

/** The {@link ToolParams} of a class-validator params class (one per class). @internal */
export function classToolParams<T>(paramsType: DataClass<T>): ToolParams<T> {
  let params = classCache.get(paramsType) as ToolParams<T> | undefined;
  if (params === undefined) {
    params = Object.freeze({
      kind: 'class',
      paramsType,
      schema: undefined,
      jsonSchema: (profile: SchemaProfile) => toJsonSchema(paramsType, profile),
      parse: (raw: unknown, profile: SchemaProfile) =>
        parseToolArgumentsNow(paramsType, raw, { profile }),
      fieldDescriptions: () => new Map(readFieldDescriptions(paramsType)),
    } as const);
    classCache.set(paramsType, params);
  }
  return params;
}

/** Options of {@link toolParamsOf}. @internal */
export interface ToolParamsOptions {
  /** Writes the JSON Schema of a Standard Schema without Standard JSON Schema support. */
  readonly jsonSchema?: JsonSchemaConverter | undefined;
}

/**
 * The {@link ToolParams} of a tool's `params` declaration: a params class, a
 * Standard Schema or a plain JSON Schema object; `undefined` for none.
 *
 * @throws ConfigurationError naming `subject` for anything else, or a JSON
 * Schema the validator cannot compile (naming the keyword).
 * @internal
 */
export function toolParamsOf<T>(
  params: DataClass<T> | StandardSchemaV1<unknown, T> | JsonSchemaObject | undefined,
  subject: string,
  options: ToolParamsOptions = {},
): ToolParams<T> | undefined {
  if (params === undefined) return undefined;
  if (isStandardSchema(params)) {
    return new StandardSchemaParams<T>(params, subject, options.jsonSchema);
  }
  if (typeof params === 'function') return classToolParams(params);
  if (isPlainObject(params)) return JsonSchemaParams.of<T>(params, subject);
  throw new ConfigurationError({
    subject,
    problem: `params must be a params class, a Standard Schema or a JSON Schema object, got ${describe(params)}.`,
    fix: "Pass a class-validator params class, a schema implementing Standard Schema (e.g. `z.object({...})` from zod 4), or a plain JSON Schema object (`{ type: 'object', properties: {...} }`).",
  });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object that is not plain data' : typeof value;
}
