import type { JsonValue } from '../index.js';

/** A class a `SessionCodec` can store, by constructor. */
export type CodecClass<T extends object = object> = abstract new (...args: never[]) => T;

/**
 * How a `SessionCodec` stores instances of one class. Without `encode` and
 * `decode`, an instance is stored as its own enumerable fields and comes back
 * as an object of the class built without calling its constructor; give both
 * for a class whose state is elsewhere (private `#fields`, accessors, a
 * constructor that must run).
 */
export interface CodecEntry<T extends object = object> {
  /** The name stored with each instance; the class's name by default. Must be unique in the codec. */
  readonly name?: string | undefined;
  /** The class. */
  readonly type: CodecClass<T>;
  /** Turns an instance into JSON (anything `JSON.stringify` keeps as is). */
  encode?(value: T): JsonValue;
  /** Builds an instance back from what `encode` returned. */
  decode?(json: JsonValue): T;
}

/** Where a value being encoded or decoded sits, for error messages. */
export interface CodecLocation {
  /** The session. */
  readonly sessionId: string;
  /** The slice (its stored name). */
  readonly slice: string;
  /** The value's index in the slice. */
  readonly index: number;
}
