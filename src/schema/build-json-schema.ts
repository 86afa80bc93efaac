import { readFieldDescriptions } from '../metadata/describe-metadata.js';
import { assertUsable } from './assert-params-class-usable.js';
import type { Class } from '../core/class-type.js';
import { dump, type JsonValue } from './dump.js';
import { joinFieldPath } from './field-path.js';
import { type MutableSchema, withNull } from './mutable-schema.js';
import type { ParamsJsonSchema, SchemaProfile } from './params-json-schema.js';
import {
  type FieldConstraint,
  type FieldShape,
  type ParamsShape,
  readParamsShape,
} from './params-shape.js';
import { defineData } from './plain-object.js';
import { SchemaGaps } from './schema-gaps.js';
import { valueSchema } from './value-schema.js';

/** Constraints that say nothing more than "this is an object" about a nested field. */
const nestedNeutral = new Set(['isObject', 'isNotEmpty', 'isNotEmptyObject']);

/** Constraints that say nothing more than "this is an array" about a list field. */
const listNeutral = new Set(['isArray', 'isNotEmpty']);

/**
 * Builds the JSON Schema of a params class for one profile, without caching
 * (see `toJsonSchema` for the cached, frozen form). Nested classes go into
 * `$defs` and are referenced with `$ref`; a reference back to the root class
 * is `{ "$ref": "#" }`.
 *
 * @throws ConfigurationError when the class can never validate (a
 * `@ValidateNested()` without `@Type`, an undecorated field, a nested class
 * without validated fields).
 * @internal
 */
export function buildJsonSchema(
  paramsType: Class,
  profile: SchemaProfile,
  shapeOf: (cls: Class) => ParamsShape = readParamsShape,
): ParamsJsonSchema {
  return new SchemaBuilder(paramsType, profile, shapeOf).build();
}

class SchemaBuilder {
  private readonly gaps = new SchemaGaps();
  private readonly definitions = new Map<Class, { name: string; schema: MutableSchema }>();
  private readonly strict: boolean;

  constructor(
    private readonly root: Class,
    private readonly profile: SchemaProfile,
    private readonly shapeOf: (cls: Class) => ParamsShape,
  ) {
    this.strict = profile === 'openai-strict';
  }

  build(): ParamsJsonSchema {
    const schema = this.objectSchema(this.root, '');
    if (this.definitions.size > 0) {
      const definitions: MutableSchema = {};
      for (const { name, schema: definition } of this.definitions.values()) {
        definitions[name] = definition;
      }
      schema['$defs'] = definitions;
    }
    return {
      profile: this.profile,
      schema,
      unexpressed: this.gaps.unexpressed,
      strictBlockers: this.gaps.blockers,
      strictCompatible: this.gaps.blockers.length === 0,
    };
  }

  private objectSchema(cls: Class, path: string): MutableSchema {
    const shape = this.shapeOf(cls);
    assertUsable(shape, cls !== this.root);
    const descriptions = readFieldDescriptions(cls);
    const properties: MutableSchema = {};
    const required: string[] = [];
    for (const field of shape.fields.values()) {
      const fieldPath = joinFieldPath(path, field.name);
      defineData(
        properties,
        field.name,
        this.fieldSchema(field, fieldPath, descriptions.get(field.name)),
      );
      if (this.strict || field.required) required.push(field.name);
    }
    const schema: MutableSchema = { type: 'object', properties };
    if (this.strict || required.length > 0) schema['required'] = required;
    schema['additionalProperties'] = false;
    return schema;
  }

  private fieldSchema(
    field: FieldShape,
    path: string,
    description: string | undefined,
  ): MutableSchema {
    let core: MutableSchema;
    if (field.list) {
      const itemPath = `${path}[]`;
      const items =
        field.nested === undefined
          ? valueSchema(
              field.constraints.filter((c) => c.each),
              undefined,
              itemPath,
              field,
              this.strict,
              this.gaps,
            )
          : this.nestedSchema(
              field.nested,
              field.constraints.filter((c) => c.each),
              itemPath,
            );
      core = this.arraySchema(
        field.constraints.filter((c) => !c.each),
        items,
        path,
      );
    } else if (field.nested !== undefined) {
      core = this.nestedSchema(field.nested, field.constraints, path);
    } else {
      core = valueSchema(field.constraints, field.designType, path, field, this.strict, this.gaps);
    }
    if (field.conditional) {
      this.gaps.gap(
        path,
        'validateIf',
        'validated only when its @ValidateIf condition on other fields holds; the schema shows the validated form and does not require the field',
      );
    }
    const nullable = this.strict
      ? field.nullable || field.optional
      : field.nullable && !field.optional;
    const schema: MutableSchema = {};
    if (description !== undefined) schema['description'] = description;
    Object.assign(schema, nullable ? withNull(core) : core);
    if (!this.strict && field.defaultValue !== undefined) {
      const fallback = dumpQuietly(field.defaultValue);
      if (fallback !== undefined) schema['default'] = fallback;
    }
    return schema;
  }

  private nestedSchema(
    cls: Class,
    constraints: readonly FieldConstraint[],
    path: string,
  ): MutableSchema {
    for (const constraint of constraints) {
      if (!nestedNeutral.has(constraint.name)) this.gaps.customGap(path, constraint.name);
    }
    if (cls === this.root) return { $ref: '#' };
    let definition = this.definitions.get(cls);
    if (definition === undefined) {
      definition = { name: this.definitionName(cls), schema: {} };
      this.definitions.set(cls, definition);
      definition.schema = this.objectSchema(cls, path);
    }
    return { $ref: `#/$defs/${definition.name}` };
  }

  private definitionName(cls: Class): string {
    const base = cls.name.replace(/[^A-Za-z0-9_]/g, '') || 'Anonymous';
    const taken = new Set([...this.definitions.values()].map((d) => d.name));
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    return name;
  }

  private arraySchema(
    constraints: readonly FieldConstraint[],
    items: MutableSchema,
    path: string,
  ): MutableSchema {
    let minItems: number | undefined;
    let maxItems: number | undefined;
    let uniqueItems = false;
    for (const constraint of constraints) {
      const [first] = constraint.constraints;
      switch (constraint.name) {
        case 'arrayMinSize':
          if (typeof first === 'number') minItems = Math.max(minItems ?? 0, first);
          break;
        case 'arrayNotEmpty':
          minItems = Math.max(minItems ?? 0, 1);
          break;
        case 'arrayMaxSize':
          if (typeof first === 'number') maxItems = Math.min(maxItems ?? Infinity, first);
          break;
        case 'arrayUnique':
          if (this.strict) this.gaps.strictGap(path, constraint.name, 'uniqueItems');
          else uniqueItems = true;
          break;
        default:
          if (!listNeutral.has(constraint.name)) this.gaps.customGap(path, constraint.name);
      }
    }
    const schema: MutableSchema = { type: 'array', items };
    if (minItems !== undefined) schema['minItems'] = minItems;
    if (maxItems !== undefined) schema['maxItems'] = maxItems;
    if (uniqueItems) schema['uniqueItems'] = true;
    return schema;
  }
}

function dumpQuietly(value: unknown): JsonValue | undefined {
  try {
    return dump(value);
  } catch {
    return undefined;
  }
}
