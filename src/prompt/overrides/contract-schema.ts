import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { listClassFields } from '../../schema/class-fields.js';
import { toJsonSchema } from '../../schema/to-json-schema.js';
import type { DataClass } from '../../core/class-type.js';

/**
 * The schema a tool contract hash covers for a params or result class:
 * its standard JSON Schema, or, for a result class without validators, the
 * list of its fields. A list result is wrapped in an array schema; no class
 * gives an empty object (params) or `null` (result).
 * @internal
 */
export function contractSchema(
  cls: DataClass | undefined,
  container: 'object' | 'array',
  role: 'params' | 'result',
): unknown {
  if (cls === undefined) {
    return role === 'params'
      ? { type: 'object', properties: {}, additionalProperties: false }
      : { type: 'null' };
  }
  const schema = schemaOf(cls, role);
  return container === 'array' ? { type: 'array', items: schema } : schema;
}

function schemaOf(cls: DataClass, role: 'params' | 'result'): unknown {
  try {
    return toJsonSchema(cls, 'standard').schema;
  } catch (error) {
    // Result classes are often plain data without validators; their field names still form the contract.
    if (role === 'result' && ConfigurationError.is(error)) {
      return { title: cls.name, fields: listClassFields(cls) };
    }
    throw error;
  }
}
