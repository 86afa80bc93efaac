import { ConfigurationError, isMediaPart, type JsonValue, Media, type MediaRef } from '../index.js';
import type { CodecEntry, CodecLocation } from './codec-entry.js';

/** Looks up how a class is stored. @internal */
export type EntryOf = (type: object) => (CodecEntry & { readonly name: string }) | undefined;

/** The keys that mark an encoded value that is not plain JSON. @internal */
export const MARK = {
  undefined: '$undefined',
  date: '$date',
  plain: '$object',
  nullProto: '$bare',
  map: '$map',
  set: '$set',
  instance: '$class',
  number: '$number',
  media: '$media',
} as const;

/**
 * Encodes `value` as plain JSON: JSON values as they are (a plain object with a
 * key starting with `$` wrapped), and `undefined`, `-0`, `Date`, `Map`, `Set`,
 * null-prototype objects and instances of registered classes tagged by one
 * `$` key; a media part holding bytes (a `ToolResult`'s parts, an input's)
 * as its `MediaRef` (the bytes live in a `BlobStore`). Anything else is
 * refused, naming where it is. @internal
 * @throws ConfigurationError naming the session, slice, value and field path.
 */
export function encodeValue(
  value: unknown,
  where: CodecLocation,
  entryOf: EntryOf,
  onMedia?: (ref: MediaRef) => void,
): JsonValue {
  return new ValueEncoder(where, entryOf, onMedia).walk(value, '');
}

class ValueEncoder {
  readonly #open = new Set<object>();

  constructor(
    private readonly where: CodecLocation,
    private readonly entryOf: EntryOf,
    /** Told of every media reference or part met (of bytes: a `sha256:` hash). */
    private readonly onMedia?: (ref: MediaRef) => void,
  ) {}

  walk(item: unknown, path: string): JsonValue {
    switch (typeof item) {
      case 'string':
      case 'boolean':
        return item;
      case 'undefined':
        return { [MARK.undefined]: true };
      case 'number':
        if (!Number.isFinite(item)) {
          throw this.refuse(
            path,
            `${String(item)} cannot be stored as JSON.`,
            'Store a finite number, or null.',
          );
        }
        return Object.is(item, -0) ? { [MARK.number]: '-0' } : item;
      case 'bigint':
        throw this.refuse(
          path,
          'a bigint cannot be stored.',
          'Store it as a string (String(value)) and parse it back where you read it.',
        );
      case 'symbol':
      case 'function':
        throw this.refuse(
          path,
          `a ${typeof item} cannot be stored.`,
          'Keep only data in session values: store the name or id of what you need instead.',
        );
      case 'object':
        break;
    }
    if (item === null) return null;
    const object = item;
    if (this.#open.has(object)) {
      throw this.refuse(
        path,
        'the value refers to itself (a cycle).',
        'Store the cycle as ids, not references.',
      );
    }
    this.#open.add(object);
    try {
      return this.#object(object, path);
    } finally {
      this.#open.delete(object);
    }
  }

  #object(object: object, path: string): JsonValue {
    if (Array.isArray(object)) return this.#array(object as unknown[], path);
    const proto: unknown = Object.getPrototypeOf(object);
    if (proto === Object.prototype && isMediaPart(object)) {
      if (this.onMedia !== undefined && object.hash.startsWith('sha256:')) this.onMedia(object);
      if (object.bytes instanceof Uint8Array) {
        return { [MARK.media]: this.#fields(Media.ref(object), path) };
      }
    }
    if (proto === Object.prototype || proto === null) {
      const fields = this.#fields(object, path);
      if (proto === null) return { [MARK.nullProto]: fields };
      return Object.keys(fields).some((key) => key.startsWith('$'))
        ? { [MARK.plain]: fields }
        : fields;
    }
    if (object instanceof Date) {
      if (Number.isNaN(object.getTime())) {
        throw this.refuse(
          path,
          'an invalid Date cannot be stored.',
          'Store a valid Date, or null.',
        );
      }
      return { [MARK.date]: object.toISOString() };
    }
    if (object instanceof Map) {
      const pairs = [...object].map(([key, item], i): JsonValue => [
        this.walk(key, `${path}<key ${i}>`),
        this.walk(item, `${path}<value ${i}>`),
      ]);
      return { [MARK.map]: pairs };
    }
    if (object instanceof Set) {
      return { [MARK.set]: [...object].map((item, i) => this.walk(item, `${path}<item ${i}>`)) };
    }
    return this.#instance(object, path);
  }

  #array(items: readonly unknown[], path: string): JsonValue {
    const encoded: JsonValue[] = [];
    for (let i = 0; i < items.length; i++) {
      if (!(i in items)) {
        throw this.refuse(
          `${path}[${i}]`,
          'arrays with holes cannot be stored.',
          'Fill the hole, e.g. with null.',
        );
      }
      encoded.push(this.walk(items[i], `${path}[${i}]`));
    }
    return encoded;
  }

  #instance(object: object, path: string): JsonValue {
    if (ArrayBuffer.isView(object) || object instanceof ArrayBuffer) {
      throw this.refuse(
        path,
        `bytes (${object.constructor.name}, ${object.byteLength} bytes) are not stored in a session.`,
        'Keep media as a MediaRef (Media.ref(part): hash, media type, size) and its bytes in a BlobStore (blobs.put(part.hash, part.bytes, part.mediaType)).',
      );
    }
    const constructor = (object as { constructor?: { name?: string } }).constructor;
    const name = constructor?.name ?? 'an unnamed class';
    const entry = constructor === undefined ? undefined : this.entryOf(constructor);
    if (entry === undefined) {
      throw this.refuse(
        path,
        `an instance of ${name}, a class the session codec does not know, cannot be stored.`,
        `Register it: new SessionCodec({ classes: [${name}] }) or codec.register(${name}); for a built-in such as RegExp or Error, store its data (e.g. its string) instead.`,
      );
    }
    if (entry.encode !== undefined)
      return { [MARK.instance]: entry.name, value: entry.encode(object) };
    return { [MARK.instance]: entry.name, fields: this.#fields(object, path) };
  }

  #fields(object: object, path: string): Record<string, JsonValue> {
    if (Object.getOwnPropertySymbols(object).length > 0) {
      throw this.refuse(
        path,
        'a value with symbol-keyed properties cannot be stored.',
        'Use string keys, or give its class encode/decode in a codec entry.',
      );
    }
    const fields: Record<string, JsonValue> = {};
    for (const key of Object.getOwnPropertyNames(object)) {
      const descriptor = Object.getOwnPropertyDescriptor(object, key) as PropertyDescriptor;
      if (!('value' in descriptor) || !descriptor.enumerable) {
        throw this.refuse(
          `${path}.${key}`,
          `${'value' in descriptor ? 'a hidden (non-enumerable)' : 'an accessor (get/set)'} property cannot be stored faithfully.`,
          'Keep the state in plain enumerable fields, or give its class encode/decode in a codec entry.',
        );
      }
      // defineProperty, so a key named __proto__ stays a key.
      Object.defineProperty(fields, key, {
        value: this.walk(descriptor.value, `${path}.${key}`),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return fields;
  }

  refuse(path: string, problem: string, fix: string): ConfigurationError {
    const { sessionId, slice, index } = this.where;
    return new ConfigurationError({
      subject: `Session ${sessionId}, slice ${slice}, value ${index}, at ${path === '' ? '(the value itself)' : path}`,
      problem,
      fix,
    });
  }
}
