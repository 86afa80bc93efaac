import type { Class } from '../core/class-type.js';
import { buildJsonSchema } from './build-json-schema.js';
import type { ParamsJsonSchema, SchemaProfile } from './params-json-schema.js';
import { deepFreeze } from '../core/deep-freeze.js';

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
 * @throws ConfigurationError when the class can never validate.
 */
export function toJsonSchema(
  paramsType: abstract new (...args: never[]) => unknown,
  profile: SchemaProfile = 'standard',
): ParamsJsonSchema {
  let byProfile = cache.get(paramsType);
  if (byProfile === undefined) {
    byProfile = new Map();
    cache.set(paramsType, byProfile);
  }
  let result = byProfile.get(profile);
  if (result === undefined) {
    result = deepFreeze(buildJsonSchema(paramsType, profile));
    byProfile.set(profile, result);
  }
  return result;
}
