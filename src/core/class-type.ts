/** Any class, abstract or not, whatever its constructor takes: how affordance names "a class". */
export type Class<T = unknown> = abstract new (...args: never[]) => T;

/** A class whose instances are plain data (params, results, outputs): constructible without arguments. */
export type DataClass<T = unknown> = new () => T;

/** A result declaration: one class, or `[Class]` for a list of instances. */
export type ResultDeclaration<R = unknown> = DataClass<R> | readonly [DataClass<R>];
