/** A class whose instances a session slice holds; slices are keyed by it. */
export type SliceType<T extends object = object> = abstract new (...args: never[]) => T;
