import type { Class } from '../core/class-type.js';
import { buildJsonSchema } from './build-json-schema.js';
import type { ParamsJsonSchema, SchemaProfile } from './params-json-schema.js';
import { deepFreeze } from '../core/deep-freeze.js';
import { isStandardSchema, type StandardSchemaV1 } from './standard-schema.js';
import { standardSchemaParamsOf } from './standard-schema-params.js';
import { type JsonSchemaObject, JsonSchemaParams } from './json-schema-params.js';
import { isPlainObject } from './plain-object.js';

const cache = new WeakMap<Class, Map<SchemaProfile, ParamsJsonSchema>>();

/**
 * The JSON Schema of a params class, from its class-validator decorators,
 * class-transformer `@Type` metadata, `design:type` and `@Describe` texts,
 * together with what the schema cannot show (`unexpressed`) and whether the
 * class can be sent with OpenAI `strict: true`. Computed once per class and
 * profile; the result is deeply frozen.
 *
 * `standard` writes JSON Schema 2020-12: optional fields are left out of
 * `required` (the `null` class-validator also accepts for them is not
 * advertised), fields that are nullable but required accept `null`.
 * `openai-strict` lists every property in `required`, makes optional fields
 * nullable and drops the keywords strict mode does not support (listing them
 * in `unexpressed`); pair it with `parseToolArguments(..., { profile: 'openai-strict' })`.
 *
 * A Standard Schema (e.g. a zod 4 object) with Standard JSON Schema support
 * is accepted too: the library's own JSON Schema, kept as it is for
 * `standard` and projected onto `openai-strict` the same way (optional
 * properties nullable, unsupported keywords dropped into `unexpressed`, what
 * strict mode cannot carry in `strictBlockers`).
 *
 * A plain JSON Schema object (JSON Schema params) is projected the same way.
 *
 * @throws ConfigurationError when the class can never validate, or the
 * schema has no JSON Schema support, does not describe an object or cannot
 * be compiled.
 */
export function toJsonSchema(
  paramsType: (abstract new (...args: never[]) => unknown) | StandardSchemaV1 | JsonSchemaObject,
  profile: SchemaProfile = 'standard',
): ParamsJsonSchema {
  if (isStandardSchema(paramsType)) {
    return standardSchemaParamsOf(paramsType).jsonSchema(profile);
  }
  if (typeof paramsType !== 'function' && isPlainObject(paramsType)) {
    return JsonSchemaParams.of(paramsType, 'JSON Schema params').jsonSchema(profile);
  }
  const paramsClass = paramsType;
  let byProfile = cache.get(paramsClass);
  if (byProfile === undefined) {
    byProfile = new Map();
    cache.set(paramsClass, byProfile);
  }
  let result = byProfile.get(profile);
  if (result === undefined) {
    result = deepFreeze(buildJsonSchema(paramsClass, profile));
    byProfile.set(profile, result);
  }
  return result;
}
