import type { Class } from '../core/class-type.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { describeValue } from '../core/describe-value.js';
import { type ParamsShape, readParamsShape } from './params-shape.js';

/**
 * Throws the `ConfigurationError` that building `root`'s JSON Schema would
 * throw when the class can never validate (a `@ValidateNested()` without
 * `@Type`, an undecorated field, a nested class without validated fields),
 * without building the schema: classes are met in the order the schema
 * builder meets them (fields in order, each nested class when first reached),
 * so the first problem named is the same. A tool checks its params class with
 * this when it is built; the schema itself is built on first use. @internal
 */
export function assertParamsClassUsable(root: Class): void {
  visitUsable(root, root, new Set([root]));
}

function visitUsable(cls: Class, root: Class, met: Set<Class>): void {
  const shape = readParamsShape(cls);
  assertUsable(shape, cls !== root);
  for (const field of shape.fields.values()) {
    const nested = field.nested;
    if (nested === undefined || met.has(nested)) continue;
    met.add(nested);
    visitUsable(nested, root, met);
  }
}

/**
 * Throws when `shape` lists a problem, or is a nested class with no validated
 * field (class-validator rejects every value of it). @internal
 */
export function assertUsable(shape: ParamsShape, nested: boolean): void {
  const [problem] = shape.problems;
  if (problem !== undefined) {
    const [field, text, fix] = problem;
    throw new ConfigurationError({ subject: `${shape.type.name}.${field}`, problem: text, fix });
  }
  if (nested && shape.fields.size === 0) {
    throw new ConfigurationError({
      subject: shape.type.name,
      problem:
        'is used with @ValidateNested() but has no validated fields, so class-validator rejects every value of it.',
      fix: 'Decorate its fields with class-validator decorators, or declare the field with @IsObject() instead of @ValidateNested().',
    });
  }
}

/**
 * Checks a tool's `result:` class when the tool is built: it must be a class,
 * and every validated structure in it must be usable (a `@ValidateNested()`
 * field has its `@Type`, a nested class has validated fields), the rules
 * {@link assertParamsClassUsable} applies to params. Unlike params, a result
 * class may have fields without class-validator decorators (plain data
 * classes such as `Plan`): results come from the application's handler, not
 * from the model, and nothing rejects their unknown fields. @internal
 *
 * @param tool the tool's name, for the message.
 */
export function assertResultClassUsable(root: Class, tool: string): void {
  if (typeof (root as unknown) !== 'function') {
    throw new ConfigurationError({
      subject: `Tool '${tool}'`,
      problem: `its result is ${describeValue(root)}, not a class.`,
      fix: 'Pass the result class itself as `result`, or a one-element array of it for a list.',
    });
  }
  visitResult(root, new Set([root]));
}

function visitResult(cls: Class, met: Set<Class>): void {
  const shape = readParamsShape(cls);
  const problem = shape.problems.find(([field]) => shape.fields.has(field));
  if (problem !== undefined) {
    const [field, text, fix] = problem;
    throw new ConfigurationError({ subject: `${cls.name}.${field}`, problem: text, fix });
  }
  for (const field of shape.fields.values()) {
    const nested = field.nested;
    if (nested === undefined || met.has(nested)) continue;
    met.add(nested);
    if (readParamsShape(nested).fields.size === 0) assertUsable(readParamsShape(nested), true);
    visitResult(nested, met);
  }
}
