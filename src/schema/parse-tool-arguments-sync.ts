import { getMetadataStorage, ValidationTypes } from 'class-validator';

import type { Class } from '../core/class-type.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import {
  parseArgumentsWith,
  parseWithClassValidatorSync,
  type ParseToolArgumentsOptions,
} from './parse-tool-arguments.js';
import { readParamsShape } from './params-shape.js';
import { validationMetadataOf } from './validation-metadata.js';

/**
 * {@link parseToolArguments} without a promise: the same checks, the same
 * instance and the same `ToolValidationError`, returned or thrown at once, as
 * zod's `parse` is called. Arguments the compiled fast path accepts never touch
 * class-validator; the others are checked with class-validator's `validateSync`.
 *
 * A params class (or a class nested in it) with an asynchronous constraint
 * (`@ValidatorConstraint({ async: true })`, `@ValidatePromise()`) cannot be
 * checked without waiting: it is refused with a `ConfigurationError` naming
 * the field, on every call, whatever the arguments.
 *
 * @throws ToolValidationError listing every problem at once, each with its field path.
 * @throws ConfigurationError when `paramsType` has an asynchronous constraint.
 */
export function parseToolArgumentsSync<T>(
  paramsType: new (...args: never[]) => T,
  raw: unknown,
  options?: ParseToolArgumentsOptions,
): T {
  let asynchronous = asynchronousFields.get(paramsType);
  if (asynchronous === undefined) {
    asynchronous = asynchronousConstraintOf(paramsType, new Set()) ?? null;
    asynchronousFields.set(paramsType, asynchronous);
  }
  if (asynchronous !== null) {
    throw new ConfigurationError({
      subject: `Params class ${paramsType.name || '(anonymous)'}`,
      problem: `field '${asynchronous}' has an asynchronous constraint, which cannot be checked without waiting.`,
      fix: 'call parseToolArguments (it returns a promise) for this class, or make the constraint synchronous.',
    });
  }
  return parseArgumentsWith(paramsType, raw, options, (shape, decoded, profile) =>
    parseWithClassValidatorSync(paramsType, shape, decoded, profile),
  );
}

/** Per class: the dotted path of its first asynchronous constraint, or `null` when it has none. */
const asynchronousFields = new WeakMap<Class, string | null>();

/** The path of the first field of `cls` (or of a class nested in it) whose constraint is asynchronous. */
function asynchronousConstraintOf(cls: Class, seen: Set<Class>): string | undefined {
  if (seen.has(cls)) return undefined;
  seen.add(cls);
  let found: string | undefined;
  const storage = getMetadataStorage();
  for (const metadata of validationMetadataOf(cls)) {
    const promised = metadata.type === ValidationTypes.PROMISE_VALIDATION;
    const custom =
      metadata.type === ValidationTypes.CUSTOM_VALIDATION &&
      storage
        .getTargetValidatorConstraints(metadata.constraintCls)
        .some((constraint) => constraint.async);
    if (promised || custom) {
      found = metadata.propertyName;
      break;
    }
  }
  if (found === undefined) {
    for (const field of readParamsShape(cls).fields.values()) {
      if (field.nested === undefined) continue;
      const inner = asynchronousConstraintOf(field.nested, seen);
      if (inner !== undefined) {
        found = `${field.name}.${inner}`;
        break;
      }
    }
  }
  return found;
}
