import * as cv from 'class-validator';

/** One JSON Schema keyword: its exact test, and the decorators that enforce it on a field. @internal */
export interface Check {
  readonly test: (value: unknown) => boolean;
  readonly decorate: (options: cv.ValidationOptions) => readonly PropertyDecorator[];
}

type Decorator = (...args: never[]) => PropertyDecorator;

/** A check class-validator has no exact validator for, after the built-in `loose` one if any. @internal */
export function custom(name: string, message: string, test: Check['test'], loose?: Check): Check {
  const validator = (o: cv.ValidationOptions) => ({
    validate: (value: unknown) => test(value),
    defaultMessage: cv.buildMessage((each) => `${each}$property ${message}`, o),
  });
  const own = (o: cv.ValidationOptions) => cv.ValidateBy({ name, validator: validator(o) }, o);
  return { test, decorate: (o) => [...(loose?.decorate(o) ?? []), own(o)] };
}

/** A check class-validator enforces exactly, with `decorator(...args, options)`. @internal */
export function builtin(test: Check['test'], decorator: Decorator, ...args: unknown[]): Check {
  const make = decorator as (...all: unknown[]) => PropertyDecorator;
  return { test, decorate: (options) => [make(...args, options)] };
}
