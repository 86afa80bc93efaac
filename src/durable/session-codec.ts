import {
  ConfigurationError,
  isStandardSchema,
  type JsonValue,
  type MediaRef,
  PromptExecuted,
  PromptRendered,
  type Prompt,
  SectionParams,
  TokenUsage,
  ToolInvoked,
  ToolResult,
  LoopIntervention,
  SectionVisibilityOverride,
  OpenSectionsParams,
  ReadSectionParams,
  GuardrailChecked,
} from '../index.js';
import type { CodecClass, CodecEntry, CodecLocation } from './codec-entry.js';
import { decodeValue } from './decode-value.js';
import { encodeValue } from './encode-value.js';

/** Options of a {@link SessionCodec}. */
export interface SessionCodecOptions {
  /** The application's classes that session values hold (slice classes, params classes, results...). */
  readonly classes?: readonly (CodecClass | CodecEntry)[] | undefined;
}

type NamedEntry = CodecEntry & { readonly name: string };

/** The classes the runtime itself puts in sessions. */
const builtIns: readonly CodecClass[] = [
  ToolInvoked,
  PromptExecuted,
  PromptRendered,
  ToolResult,
  TokenUsage,
  LoopIntervention,
  SectionVisibilityOverride,
  OpenSectionsParams,
  ReadSectionParams,
  GuardrailChecked,
];

/**
 * Turns session values into plain JSON and back, for a `SessionStore`: JSON
 * values as they are, `undefined`, `Date`, `Map`, `Set` and null-prototype
 * objects tagged, and instances of registered classes by name (the runtime's
 * events and results are always registered). What cannot come back the same
 * — a function, a symbol, a bigint, a cycle, an instance of a class it does
 * not know, hidden or accessor properties — is refused at write time, naming
 * the session, slice, value and field; an unknown class name is refused at
 * load time, never read as a plain object.
 */
export class SessionCodec {
  readonly #byName = new Map<string, NamedEntry>();
  readonly #byType = new Map<object, NamedEntry>();

  constructor(options: SessionCodecOptions = {}) {
    this.register(...builtIns, ...(options.classes ?? []));
  }

  /**
   * Registers classes (or entries with a name and encode/decode of their own);
   * registering a class again is a no-op. A class with private `#` fields needs
   * encode and decode: its state cannot be read from outside.
   * @throws ConfigurationError for two classes under one name, or a `#private` class without encode/decode.
   */
  register(...classes: readonly (CodecClass | CodecEntry)[]): this {
    for (const given of classes) {
      const entry: CodecEntry = typeof given === 'function' ? { type: given } : given;
      checkEntry(entry);
      const name = entry.name ?? entry.type.name;
      const known = this.#byName.get(name);
      if (known?.type === entry.type) continue;
      if (known !== undefined) {
        throw new ConfigurationError({
          subject: `SessionCodec name '${name}'`,
          problem: 'is taken by two different classes.',
          fix: `Give one of them its own name: { name: 'billing.${name}', type: ${name} }.`,
        });
      }
      const named: NamedEntry = Object.assign({}, entry, { name });
      this.#byName.set(name, named);
      this.#byType.set(entry.type, named);
    }
    return this;
  }

  /**
   * Registers the classes an evaluation of `prompt` puts in its session by
   * itself: its tools' params and result classes, its output class, and the
   * classes of the render `params` given. Classes nested inside them, and the
   * application's own slice classes, are for the application to register.
   */
  registerPrompt(prompt: Prompt, params: readonly object[] = []): this {
    for (const tool of prompt.allTools) {
      if (tool.paramsType !== undefined) this.register(tool.paramsType as CodecClass);
      if (tool.resultType !== undefined) this.register(tool.resultType as CodecClass);
    }
    // A Standard Schema's output is plain data, which needs no registration.
    if (typeof prompt.outputType === 'function' && !isStandardSchema(prompt.outputType)) {
      this.register(prompt.outputType as CodecClass);
    }
    for (const value of params) {
      // The value of a section params schema is plain data.
      if (value instanceof SectionParams) continue;
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null)
        this.register(value.constructor as CodecClass);
    }
    return this;
  }

  /** Whether instances of `type` can be stored. */
  has(type: CodecClass): boolean {
    return this.#byType.has(type);
  }

  /** The name `type` is stored under, or `undefined` when it is not registered. */
  nameOf(type: CodecClass): string | undefined {
    return this.#byType.get(type)?.name;
  }

  /** The class stored under `name`, or `undefined`. */
  typeOf(name: string): CodecClass | undefined {
    return this.#byName.get(name)?.type;
  }

  /** `value` as plain JSON. @throws ConfigurationError naming where a value cannot be stored. */
  encode(value: unknown, where: CodecLocation): JsonValue {
    return encodeValue(value, where, (type) => this.#byType.get(type));
  }

  /**
   * {@link encode}, telling `onMedia` of every media reference of bytes met
   * (what `DurableSession.commit` checks against the blob store). @internal
   */
  encodeCollecting(
    value: unknown,
    where: CodecLocation,
    onMedia: (ref: MediaRef) => void,
  ): JsonValue {
    return encodeValue(value, where, (type) => this.#byType.get(type), onMedia);
  }

  /** The value `json` (from {@link encode}) stands for. @throws ConfigurationError for an unknown class. */
  decode(json: JsonValue, where: CodecLocation): unknown {
    try {
      return decodeValue(json, where, (name) => this.#byName.get(name));
    } catch (error) {
      if (ConfigurationError.is(error)) throw error;
      // A value this codec did not write (edited by hand, or damaged): say so, never a TypeError.
      throw new ConfigurationError({
        subject: `Session ${where.sessionId}, slice ${where.slice}, value ${where.index}`,
        problem: `is not a value a SessionCodec wrote (${error instanceof Error ? error.message : String(error)}).`,
        fix: 'Restore the session from a backup, or delete it and start a new one.',
        cause: error,
      });
    }
  }
}

function checkEntry(entry: CodecEntry): void {
  const type: unknown = entry.type;
  if (typeof type !== 'function') {
    throw new ConfigurationError({
      subject: 'SessionCodec.register',
      problem: `expected a class or { type: TheClass }, got ${typeof type}.`,
      fix: 'Pass the class itself, e.g. new SessionCodec({ classes: [Plan] }).',
    });
  }
  if ((entry.encode === undefined) !== (entry.decode === undefined)) {
    throw new ConfigurationError({
      subject: `SessionCodec entry ${entry.type.name}`,
      problem: 'gives only one of encode and decode.',
      fix: 'Give both, or neither (to store its fields).',
    });
  }
  // A class declaring #private fields keeps state its fields do not show.
  if (
    entry.encode === undefined &&
    /(^|[\s;{}])(static\s+)?#[A-Za-z_$]/.test(Function.prototype.toString.call(type))
  ) {
    throw new ConfigurationError({
      subject: `SessionCodec class ${entry.type.name}`,
      problem: 'declares private # fields, whose state cannot be read from outside the class.',
      fix: `Register it with encode and decode: { type: ${entry.type.name}, encode: (value) => ..., decode: (json) => ... }.`,
    });
  }
}
