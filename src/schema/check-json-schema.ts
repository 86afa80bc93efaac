import type { JsonSchemaProblem } from './json-schema-problem.js';
import { linearSchemaPattern } from './linear-schema-pattern.js';
import { isPlainObject, reservedKeys } from './plain-object.js';

/** Most steps from the root to a subschema, as deep as tool arguments may nest. @internal */
export const maxSchemaDepth = 64;
/** Most nesting of JSON inside a schema (subschemas, `enum`, `const`, `default` values). */
const maxJsonDepth = 4 * maxSchemaDepth;

/** Keywords whose value is one subschema. @internal */
export const schemaKeywords = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
]);
/** Keywords whose value is a list of subschemas. @internal */
export const listKeywords = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items']);
/** Keywords whose value maps names to subschemas. @internal */
export const mapKeywords = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);

/**
 * What the validator cannot be trusted with, found before it compiles
 * anything: a value that is not JSON data, subschemas nested more than
 * {@link maxSchemaDepth} levels, a `$id` below the root, a property named
 * like `__proto__` or a name `Object.prototype` defines (arguments never
 * carry those keys). @internal
 */
export function checkJsonSchema(schema: unknown): JsonSchemaProblem[] {
  const problems: JsonSchemaProblem[] = [];
  const report = (pointer: string, keyword: string, message: string) => {
    if (problems.length < 20) problems.push({ pointer, keyword, message });
  };
  const json = (value: unknown, pointer: string, keyword: string, depth: number): boolean => {
    if (depth > maxJsonDepth) {
      report(pointer, keyword, `Nests JSON more than ${maxJsonDepth} levels deep.`);
      return false;
    }
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
    if (typeof value === 'number') {
      if (Number.isFinite(value)) return true;
      report(pointer, keyword, 'Holds a number that is not finite.');
      return false;
    }
    if (Array.isArray(value)) return value.every((item) => json(item, pointer, keyword, depth + 1));
    if (isPlainObject(value))
      return Object.values(value).every((item) => json(item, pointer, keyword, depth + 1));
    report(pointer, keyword, `Holds a ${typeof value}, which is not JSON data.`);
    return false;
  };
  const node = (value: unknown, pointer: string, depth: number, via: string): void => {
    if (typeof value === 'boolean') return;
    if (!isPlainObject(value)) {
      report(pointer, via, 'Must be a JSON Schema (an object or a boolean).');
      return;
    }
    if (depth > maxSchemaDepth) {
      report(pointer, via, `Nests schemas more than ${maxSchemaDepth} levels deep.`);
      return;
    }
    if (depth > 0 && '$id' in value)
      report(pointer, '$id', 'A `$id` below the root is not supported.');
    for (const [keyword, item] of Object.entries(value)) {
      const at = `${pointer}/${escape(keyword)}`;
      if (keyword === 'pattern' && typeof item === 'string') {
        const compiled = linearSchemaPattern(item);
        if (!compiled.ok) report(pointer, keyword, compiled.problem);
      } else if (mapKeywords.has(keyword) && isPlainObject(item)) {
        for (const [name, sub] of Object.entries(item)) {
          const key = keyword === 'patternProperties' ? linearSchemaPattern(name) : undefined;
          if (key?.ok === false) report(at, keyword, key.problem);
          if (keyword === 'properties' && reservedKeys.has(name))
            report(at, keyword, `"${name}" is a reserved name, never accepted as an argument key.`);
          else node(sub, `${at}/${escape(name)}`, depth + 1, keyword);
        }
      } else if (listKeywords.has(keyword) && Array.isArray(item)) {
        item.forEach((sub, index) => {
          node(sub, `${at}/${index}`, depth + 1, keyword);
        });
      } else if (schemaKeywords.has(keyword)) node(item, at, depth + 1, keyword);
      else json(item, pointer, keyword, depth + 1);
    }
  };
  node(schema, '', 0, 'type');
  return problems;
}

function escape(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

const scalarTypes = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/**
 * Whether every value `schema` accepts holds only keys its `properties`
 * declare (so no reserved key, `checkJsonSchema` having refused those names)
 * and nests no deeper than the schema: every object closed
 * (`additionalProperties: false`, no `patternProperties`), every array with
 * one `items` schema, every value typed, no `$ref`. Conservative: `false`
 * means the arguments are screened before the validator runs. @internal
 */
export function acceptsOnlyDeclaredKeys(schema: unknown): boolean {
  if (!isPlainObject(schema) || '$ref' in schema || 'patternProperties' in schema) return false;
  const branches = schema['anyOf'] ?? schema['oneOf'];
  if (Array.isArray(branches)) return branches.every(acceptsOnlyDeclaredKeys);
  if ('allOf' in schema) return false;
  const fixed = 'const' in schema ? [schema['const']] : schema['enum'];
  if (Array.isArray(fixed))
    return fixed.every((value) => value === null || typeof value !== 'object');
  const type = schema['type'];
  const types: unknown[] = Array.isArray(type) ? type : [type];
  return types.every((name) => {
    if (typeof name === 'string' && scalarTypes.has(name)) return true;
    if (name === 'array')
      return !('prefixItems' in schema) && acceptsOnlyDeclaredKeys(schema['items']);
    if (name !== 'object' || schema['additionalProperties'] !== false) return false;
    const properties = schema['properties'] ?? {};
    return isPlainObject(properties) && Object.values(properties).every(acceptsOnlyDeclaredKeys);
  });
}
