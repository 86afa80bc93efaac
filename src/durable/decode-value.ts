import { ConfigurationError, type JsonValue } from '../index.js';
import type { CodecClass, CodecEntry, CodecLocation } from './codec-entry.js';
import { MARK } from './encode-value.js';

/** Looks up a stored class by name. @internal */
export type EntryNamed = (name: string) => (CodecEntry & { readonly name: string }) | undefined;

/**
 * Builds back what {@link encodeValue} stored: instances of registered classes
 * are created from their prototype (no constructor runs) with their fields,
 * or by their entry's `decode`; a media part stored by reference comes back
 * as that frozen `MediaRef` (its bytes are in the `BlobStore`). @internal
 * @throws ConfigurationError for a class name the codec does not know.
 */
export function decodeValue(
  json: JsonValue,
  where: CodecLocation,
  entryNamed: EntryNamed,
): unknown {
  const walk = (item: JsonValue): unknown => {
    if (item === null || typeof item !== 'object') return item;
    if (Array.isArray(item)) return item.map(walk);
    const keys = Object.keys(item);
    const mark = keys[0];
    if (mark?.startsWith('$') !== true) return fieldsOf(item, Object.prototype);
    const inner = item[mark] as JsonValue;
    switch (mark) {
      case MARK.undefined:
        return undefined;
      case MARK.number:
        return -0;
      case MARK.date:
        return dateOf(inner, where);
      case MARK.plain:
        return fieldsOf(inner as Record<string, JsonValue>, Object.prototype);
      case MARK.nullProto:
        return fieldsOf(inner as Record<string, JsonValue>, null);
      case MARK.map:
        return new Map(
          (inner as JsonValue[][]).map(([key, value]) => [walk(key ?? null), walk(value ?? null)]),
        );
      case MARK.set:
        return new Set((inner as JsonValue[]).map(walk));
      case MARK.instance:
        return instanceOf(item, inner as string);
      case MARK.media: // A media part comes back as its reference: its bytes are in the BlobStore.
        return Object.freeze(fieldsOf(inner as Record<string, JsonValue>, Object.prototype));
      default:
        throw unreadable(mark, where);
    }
  };
  const fieldsOf = (fields: Record<string, JsonValue>, proto: object | null): object => {
    const target = Object.create(proto) as object;
    for (const [key, value] of Object.entries(fields)) {
      Object.defineProperty(target, key, {
        value: walk(value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return target;
  };
  const instanceOf = (item: Record<string, JsonValue>, name: string): unknown => {
    const entry = entryNamed(name);
    if (entry === undefined) throw unknownClass(name, where);
    if (entry.decode !== undefined) return entry.decode(item['value'] ?? null);
    return fieldsOf(
      (item['fields'] ?? {}) as Record<string, JsonValue>,
      (entry.type as CodecClass).prototype as object,
    );
  };
  return walk(json);
}

function unknownClass(name: string, where: CodecLocation): ConfigurationError {
  return new ConfigurationError({
    subject: `Session ${where.sessionId}, slice ${where.slice}, value ${where.index}`,
    problem: `holds an instance of class '${name}', which the session codec does not know; it is not loaded as a plain object.`,
    fix: `Register the class under that name: new SessionCodec({ classes: [${name}] }); a class renamed since it was stored takes its old name in a codec entry (name: '${name}').`,
  });
}

function unreadable(mark: string, where: CodecLocation): ConfigurationError {
  return new ConfigurationError({
    subject: `Session ${where.sessionId}, slice ${where.slice}, value ${where.index}`,
    problem: `holds a value tagged ${mark}, which this release of affordance does not write.`,
    fix: 'Load it with the affordance release that stored it.',
  });
}

function dateOf(text: JsonValue, where: CodecLocation): Date {
  const date = typeof text === 'string' ? new Date(text) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) {
    throw new ConfigurationError({
      subject: `Session ${where.sessionId}, slice ${where.slice}, value ${where.index}`,
      problem: `holds a date that is not one: ${JSON.stringify(text)}.`,
      fix: 'Restore the session from a backup, or delete it and start a new one.',
    });
  }
  return date;
}
