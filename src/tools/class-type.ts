/** A class whose instances are plain data (params, results, outputs): constructible without arguments. */
export type DataClass<T = unknown> = new () => T;

/** A result declaration: one class, or `[Class]` for a list of instances. */
export type ResultDeclaration<R = unknown> = DataClass<R> | readonly [DataClass<R>];

/** The element type of a {@link ResultDeclaration}. */
export type ResultOf<D> = D extends readonly [DataClass<infer R>]
  ? R[]
  : D extends DataClass<infer R>
    ? R
    : never;
