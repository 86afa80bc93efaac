import type { ValidationError } from 'class-validator';

import type { ToolValidationIssue } from '../core/errors/tool-validation-error.js';
import { joinFieldPath, joinIndexPath } from './field-path.js';

/**
 * One problem reported by class-validator, with the field path and the raw
 * value class-validator saw there. @internal
 */
export interface LocatedValidationIssue extends ToolValidationIssue {
  readonly value: unknown;
  /** The class-validator constraint that failed (`isString`, `whitelistValidation`...). */
  readonly constraint: string;
}

/**
 * Flattens class-validator errors into one issue per failed constraint, each
 * with a path (`address.zip`, `items[2].name`) and a message without the
 * property name class-validator puts in front (`must be a string`).
 * @internal
 */
export function toValidationIssues(errors: readonly ValidationError[]): LocatedValidationIssue[] {
  const issues: LocatedValidationIssue[] = [];
  for (const error of errors) collect(error, '', false, issues);
  return issues;
}

function collect(
  error: ValidationError,
  parentPath: string,
  parentIsArray: boolean,
  issues: LocatedValidationIssue[],
): void {
  // class-validator leaves `property` undefined for a whole-object error.
  const { property = '' } = error as { property?: string };
  const path =
    property === ''
      ? parentPath
      : parentIsArray
        ? joinIndexPath(parentPath, property)
        : joinFieldPath(parentPath, property);
  for (const [constraint, message] of Object.entries(error.constraints ?? {})) {
    issues.push({
      path,
      message: readableMessage(constraint, message, property),
      value: error.value,
      constraint,
    });
  }
  const isArray = Array.isArray(error.value);
  for (const child of error.children ?? []) collect(child, path, isArray, issues);
}

function readableMessage(constraint: string, message: string, property: string): string {
  switch (constraint) {
    case 'whitelistValidation':
      return 'unknown field';
    case 'unknownValue':
      return 'cannot be validated: its class has no validation decorators';
    case 'nestedValidation':
      return 'must be an object';
    case 'arrayUnique':
      if (message === `All ${property}'s elements must be unique`)
        return 'must not contain duplicates';
  }
  for (const [prefix, replacement] of [
    [`each value in ${property} `, 'each value '],
    [`${property} `, ''],
  ] as const) {
    if (message.startsWith(prefix)) return replacement + message.slice(prefix.length);
  }
  return message;
}
