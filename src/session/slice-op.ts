import { ConfigurationError } from '../core/errors/configuration-error.js';
import { describeValue } from '../core/describe-value.js';

/** Append one value. */
export interface AppendOp<T> {
  readonly kind: 'append';
  readonly value: T;
}
/** Append several values. */
export interface ExtendOp<T> {
  readonly kind: 'extend';
  readonly values: readonly T[];
}
/** Replace the whole slice. */
export interface ReplaceOp<T> {
  readonly kind: 'replace';
  readonly values: readonly T[];
}
/** Remove the values matching a predicate, or every value. */
export interface ClearOp<T> {
  readonly kind: 'clear';
  readonly predicate: ((value: T) => boolean) | undefined;
}

/** The change a reducer asks for; build one with the `SliceOp` helpers. */
export type SliceOp<T> = AppendOp<T> | ExtendOp<T> | ReplaceOp<T> | ClearOp<T>;

// Ops are instances of one private class, so recognising one is a single `instanceof`.
class Op {
  constructor(
    readonly kind: SliceOp<unknown>['kind'],
    readonly value?: unknown,
    readonly values?: readonly unknown[],
    readonly predicate?: (value: unknown) => boolean,
  ) {
    Object.freeze(this);
  }
}

function make<T>(op: Op): SliceOp<T> {
  return op as unknown as SliceOp<T>;
}

/** Builders for the changes a reducer returns. Returning `undefined` leaves the slice unchanged. */
export const SliceOp = Object.freeze({
  /** Append `value` to the slice. */
  append<T>(value: T): SliceOp<T> {
    return make(new Op('append', value));
  },
  /** Append every value of `values`, in order. */
  extend<T>(values: Iterable<T>): SliceOp<T> {
    return make(new Op('extend', undefined, Object.freeze([...values])));
  },
  /** Replace the slice's content with `values`. */
  replace<T>(values: Iterable<T>): SliceOp<T> {
    return make(new Op('replace', undefined, Object.freeze([...values])));
  },
  /** Remove the values for which `predicate` holds, or all of them. */
  clear<T>(predicate?: (value: T) => boolean): SliceOp<T> {
    return make(
      new Op('clear', undefined, undefined, predicate as ((value: unknown) => boolean) | undefined),
    );
  },
  /** Whether `value` was built by one of these helpers. */
  is(value: unknown): value is SliceOp<unknown> {
    return value instanceof Op;
  },
});

/** Checks what a reducer returned. @internal */
export function expectSliceOp(
  reducerName: string,
  returned: unknown,
): SliceOp<unknown> | undefined {
  if (returned === undefined || SliceOp.is(returned)) return returned;
  throw new ConfigurationError({
    subject: `Reducer ${reducerName === '' ? '<anonymous>' : reducerName}`,
    problem: `returned ${describeValue(returned)}, which is not a slice operation.`,
    fix: 'Return SliceOp.append(value), SliceOp.extend(values), SliceOp.replace(values), SliceOp.clear(predicate), or undefined for no change.',
  });
}
