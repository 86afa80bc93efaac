/*
 * The Standard Schema interface (https://standardschema.dev, version 1) and its
 * Standard JSON Schema extension, written out here so the package depends on no
 * schema library: zod 4, valibot and arktype objects satisfy these types
 * structurally (docs/guide/tools.md, "Standard Schema params").
 */

/** One segment of a {@link StandardSchemaIssue} path: a key, or an object holding one. */
export type StandardSchemaPathSegment = PropertyKey | { readonly key: PropertyKey };

/** One problem a Standard Schema found: a message and where. */
export interface StandardSchemaIssue {
  /** What is wrong. */
  readonly message: string;
  /** Where, from the root of the value; absent or empty for the value itself. */
  readonly path?: readonly StandardSchemaPathSegment[] | undefined;
}

/** What a Standard Schema's `validate` answers: the output value, or the issues. */
export type StandardSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly StandardSchemaIssue[] };

/**
 * The Standard JSON Schema extension of `'~standard'`: the JSON Schema of the
 * values a schema accepts (`input`) or produces (`output`), for a target dialect.
 */
export interface StandardJsonSchemaConverter {
  /** The JSON Schema of the accepted values. */
  readonly input: (options: { readonly target: string }) => Record<string, unknown>;
  /** The JSON Schema of the produced values. */
  readonly output: (options: { readonly target: string }) => Record<string, unknown>;
}

/** The `'~standard'` property of a {@link StandardSchemaV1}. */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
  /** Always `1`. */
  readonly version: 1;
  /** The library, e.g. `zod`. */
  readonly vendor: string;
  /** Validates `value`: at once, or through a promise. */
  readonly validate: (
    value: unknown,
  ) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
  /** Type-only: the input and output types. */
  readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  /** Standard JSON Schema support, where the library has it. */
  readonly jsonSchema?: StandardJsonSchemaConverter | undefined;
}

/** A Standard Schema (version 1): any object with a conforming `'~standard'` property. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema interface. */
  readonly '~standard': StandardSchemaProps<Input, Output>;
}

/**
 * How a data shape is declared wherever affordance accepts one (tool params,
 * a section's params, a prompt's output): a class-validator class, or a
 * Standard Schema whose output type is the data's type.
 */
export type DataSchema<T = unknown> = (new () => T) | StandardSchemaV1<unknown, T>;

/** The output type of a Standard Schema: what its `validate` returns and a tool's handler receives. */
export type InferSchemaOutput<S extends StandardSchemaV1> = NonNullable<
  S['~standard']['types']
>['output'];

/** The input type of a Standard Schema: what the model is asked to send. */
export type InferSchemaInput<S extends StandardSchemaV1> = NonNullable<
  S['~standard']['types']
>['input'];

/**
 * A function that writes the JSON Schema of the values a Standard Schema
 * accepts, for a library without Standard JSON Schema support (e.g. zod 4's
 * `(schema) => z.toJSONSchema(schema, { io: 'input' })`).
 */
export type JsonSchemaConverter = (schema: StandardSchemaV1) => unknown;

/** Whether `value` implements Standard Schema version 1 (an object or function with a `'~standard'` validator). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return (
    typeof props === 'object' &&
    props !== null &&
    (props as { version?: unknown }).version === 1 &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}
