import type { ToolValidationIssue } from '../core/errors/tool-validation-error.js';
import type { Class } from '../core/class-type.js';
import { joinFieldPath, joinIndexPath } from './field-path.js';
import { type FieldShape, type ParamsShape, readParamsShape } from './params-shape.js';
import { isPlainObject, reservedKeys } from './plain-object.js';

/** Deepest nesting of objects and arrays accepted in tool arguments. @internal */
export const maxArgumentDepth = 64;

/**
 * The checks class-transformer and class-validator get wrong or skip, run on
 * the decoded arguments before they are transformed: unknown keys at every
 * level of a params class (including reserved keys such as `__proto__`, which
 * class-transformer drops silently), reserved keys inside free-form values,
 * missing required fields, arrays where an object is expected and the reverse,
 * numeric enum member names, non-JSON values and excessive depth.
 * Returns a clean copy of the arguments holding only accepted keys, built from
 * fresh plain objects, which is safe to hand to class-transformer.
 * @internal
 */
export function screenArguments(
  shape: ParamsShape,
  value: Record<string, unknown>,
  issues: ToolValidationIssue[],
): Record<string, unknown> {
  return new Screen(issues).object(shape, value, '', 1);
}

class Screen {
  constructor(private readonly issues: ToolValidationIssue[]) {}

  object(
    shape: ParamsShape,
    value: Record<string, unknown>,
    path: string,
    depth: number,
  ): Record<string, unknown> {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const field = reservedKeys.has(key) ? undefined : shape.fields.get(key);
      if (field === undefined) {
        this.report(joinFieldPath(path, key), unknownFieldMessage(shape));
        continue;
      }
      const item = value[key];
      if (item === undefined) continue;
      // Plain assignment is safe: reserved keys such as `__proto__` never get this far.
      copy[key] = passesAsIs(field, item)
        ? item
        : this.field(field, item, joinFieldPath(path, key), depth + 1);
    }
    for (const field of shape.fields.values()) {
      if (field.required && !Object.prototype.hasOwnProperty.call(copy, field.name)) {
        this.report(joinFieldPath(path, field.name), 'is required');
      }
    }
    return copy;
  }

  private field(field: FieldShape, value: unknown, path: string, depth: number): unknown {
    this.checkEnum(field, value, path);
    if (field.list && value !== null && !Array.isArray(value)) {
      this.report(path, 'must be an array');
      return this.data(value, path, depth);
    }
    if (field.nested === undefined) return this.data(value, path, depth);
    if (Array.isArray(value)) {
      if (!field.list) {
        this.report(path, 'must be an object, not an array');
        return this.data(value, path, depth);
      }
      const nested = field.nested;
      if (!this.withinDepth(path, depth)) return undefined;
      return value.map((item, index) =>
        this.nested(nested, item, joinIndexPath(path, index), depth + 1),
      );
    }
    return this.nested(field.nested, value, path, depth);
  }

  private nested(cls: Class, value: unknown, path: string, depth: number): unknown {
    if (Array.isArray(value)) {
      this.report(path, 'must be an object, not an array');
      return this.data(value, path, depth);
    }
    if (!isPlainObject(value)) return this.data(value, path, depth);
    if (!this.withinDepth(path, depth)) return undefined;
    return this.object(readParamsShape(cls), value, path, depth);
  }

  /** Copies free-form JSON data, rejecting reserved keys and non-JSON values. */
  private data(value: unknown, path: string, depth: number): unknown {
    switch (typeof value) {
      case 'string':
      case 'number':
      case 'boolean':
        return value;
      case 'undefined':
        return null;
      case 'object':
        break;
      case 'bigint':
      case 'symbol':
      case 'function':
        this.report(path, `must be JSON data; got a ${typeof value}`);
        return undefined;
    }
    if (value === null) return null;
    if (!this.withinDepth(path, depth)) return undefined;
    if (Array.isArray(value)) {
      const items: unknown[] = [];
      for (let index = 0; index < value.length; index++) {
        items.push(this.data(value[index], joinIndexPath(path, index), depth + 1));
      }
      return items;
    }
    if (!isPlainObject(value)) {
      const kind = (value as { constructor?: { name?: unknown } }).constructor?.name;
      this.report(
        path,
        `must be JSON data; got ${typeof kind === 'string' ? `a ${kind}` : 'an object'}`,
      );
      return undefined;
    }
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const keyPath = joinFieldPath(path, key);
      if (reservedKeys.has(key)) {
        this.report(keyPath, `unknown field: '${key}' is a reserved name and is never accepted`);
        continue;
      }
      const item = value[key];
      if (item !== undefined) copy[key] = this.data(item, keyPath, depth + 1);
    }
    return copy;
  }

  /** class-validator's `@IsEnum` also accepts a numeric enum's member names. */
  private checkEnum(field: FieldShape, value: unknown, path: string): void {
    const guard = field.enumGuard;
    if (guard === undefined) return;
    const message = `must be one of the following values: ${guard.values.map(String).join(', ')}`;
    if (guard.each && Array.isArray(value)) {
      value.forEach((item: unknown, index) => {
        if (guard.names.includes(item)) this.report(joinIndexPath(path, index), message);
      });
    } else if (guard.names.includes(value)) {
      this.report(path, message);
    }
  }

  private withinDepth(path: string, depth: number): boolean {
    if (depth <= maxArgumentDepth) return true;
    this.report(path, `is nested too deeply (more than ${maxArgumentDepth} levels)`);
    return false;
  }

  private report(path: string, message: string): void {
    this.issues.push({ path, message });
  }
}

/**
 * Whether `Screen.field` would return `value` unchanged and report
 * nothing, so its path need not be built: a JSON scalar or `null` for a field
 * that expects no array and has no enum guard.
 */
function passesAsIs(field: FieldShape, value: unknown): boolean {
  if (field.enumGuard !== undefined) return false;
  if (value === null) return true;
  const type = typeof value;
  return !field.list && (type === 'string' || type === 'number' || type === 'boolean');
}

function unknownFieldMessage(shape: ParamsShape): string {
  const names = [...shape.fields.keys()];
  return names.length === 0
    ? 'unknown field (this object accepts no fields)'
    : `unknown field (accepted fields: ${names.join(', ')})`;
}
