/**
 * Named makers of hostile values for the dispatch properties: values a handler
 * returns inside a `ToolResult`, results that are not what they seem, values a
 * handler (or a subscriber) throws, and decoded arguments an adapter may hand
 * over. Each maker builds a fresh value, so a session freezing what it keeps
 * cannot affect the next call; the label is what fast-check prints in a
 * counterexample.
 */
import fc from 'fast-check';

import { ToolResult } from 'affordance';

/** A named maker of one hostile value. */
export class Hostile {
  constructor(
    /** What the value is, printed in counterexamples. */
    readonly label: string,
    /** Builds a fresh value. */
    readonly make: () => unknown,
    /** Costly to build or to dispatch (huge or deep): tested once each, rare in generated runs. */
    readonly heavy = false,
  ) {}

  /** How fast-check prints it. */
  [fc.toStringMethod](): string {
    return `Hostile(${this.label})`;
  }

  /** How everything else prints it. */
  toString(): string {
    return `Hostile(${this.label})`;
  }
}

const brand = Symbol.for('affordance.error');

function cyclicObject(): Record<string, unknown> {
  const value: Record<string, unknown> = { name: 'loop' };
  value['self'] = value;
  return value;
}

function cyclicArray(): unknown[] {
  const value: unknown[] = [1];
  value.push(value);
  return value;
}

/** `{ child: { child: ... } }`, `depth` levels deep, built without recursion. */
export function deepObject(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let level = 0; level < depth; level += 1) value = { child: value };
  return value;
}

/** `[[[...]]]`, `depth` levels deep, built without recursion. */
export function deepArray(depth: number): unknown[] {
  let value: unknown[] = [];
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

/** A Proxy over `target` whose every trap throws. */
export function throwingProxy(target: object = {}): object {
  const trap = (): never => {
    throw new Error('trap');
  };
  return new Proxy(target, {
    get: trap,
    has: trap,
    ownKeys: trap,
    getOwnPropertyDescriptor: trap,
    getPrototypeOf: trap,
    defineProperty: trap,
    set: trap,
    deleteProperty: trap,
    isExtensible: trap,
    preventExtensions: trap,
    setPrototypeOf: trap,
  });
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function withGetter(get: () => unknown): object {
  return Object.defineProperty({ shown: 1 }, 'computed', { get, enumerable: true });
}

class Stamp extends Date {
  get label(): string {
    return `stamp ${this.getTime()}`;
  }
}

class SecretWithRender {
  readonly #code: string;
  constructor(code: string) {
    this.#code = code;
  }
  render(): string {
    return `secret ${this.#code}`;
  }
}

class Vault {
  readonly #amount = 42;
  get amount(): number {
    return this.#amount;
  }
}

class RenderThrows {
  readonly id = 'r-1';
  render(): string {
    throw new Error('render failed');
  }
}

class RenderReturnsHostile {
  render(): unknown {
    return Object.create(null) as object;
  }
}

class Plain {
  readonly id = 1;
}

/** A class instance whose own `constructor` property is a getter that throws. */
function constructorGetterThrows(): object {
  return Object.defineProperty(new Plain(), 'constructor', {
    get(): never {
      throw new Error('constructor getter');
    },
    enumerable: false,
  });
}

/** An object whose property `key` is an enumerable getter that throws. */
function throwingGetter(key: string, base: object = {}): object {
  return Object.defineProperty(base, key, {
    get(): never {
      throw new Error(`${key} getter`);
    },
    enumerable: true,
    configurable: true,
  });
}

/** A ToolResult subclass whose `toModelText()` throws. */
class UnrenderableResult extends ToolResult {
  override toModelText(): string {
    throw new Error('toModelText');
  }
}

/** A ToolResult subclass whose `success` is a getter that throws. */
class UndecidedResult extends ToolResult {
  constructor() {
    super({ message: 'undecided' });
    Object.defineProperty(this, 'success', {
      get(): never {
        throw new Error('success getter');
      },
    });
  }
}

/** Values a handler may put in a `ToolResult`'s value. */
export const hostileValues: readonly Hostile[] = [
  new Hostile('Map', () => new Map<unknown, unknown>([['k', { a: 1 }]])),
  new Hostile('Set', () => new Set([1, 'two', { three: 3 }])),
  new Hostile('URL', () => new URL('https://example.test/path?q=1')),
  new Hostile('object holding a URL', () => ({ link: new URL('https://example.test/') })),
  new Hostile('Date', () => new Date(0)),
  new Hostile('invalid Date', () => new Date(Number.NaN)),
  new Hostile('Date subclass', () => new Stamp(0)),
  new Hostile('Uint8Array', () => new Uint8Array([1, 2, 3])),
  new Hostile('ArrayBuffer', () => new ArrayBuffer(8)),
  new Hostile('RegExp', () => /a+/g),
  new Hostile('WeakMap', () => new WeakMap()),
  new Hostile('WeakRef', () => new WeakRef({})),
  new Hostile('Promise', () => Promise.resolve(1)),
  new Hostile('AbortSignal', () => new AbortController().signal),
  new Hostile('own enumerable getter', () => withGetter(() => 2)),
  new Hostile('own throwing getter', () =>
    withGetter(() => {
      throw new Error('getter');
    }),
  ),
  new Hostile('non-enumerable property', () =>
    Object.defineProperty({ shown: 1 }, 'hidden', { value: 2, enumerable: false }),
  ),
  new Hostile('#private field with render()', () => new SecretWithRender('s3')),
  new Hostile('#private field behind a getter', () => new Vault()),
  new Hostile('render() throws', () => new RenderThrows()),
  new Hostile('render() returns a null-prototype object', () => new RenderReturnsHostile()),
  new Hostile('constructor getter throws', constructorGetterThrows),
  new Hostile('render getter throws', () => throwingGetter('render')),
  new Hostile('toJSON getter throws', () => throwingGetter('toJSON')),
  new Hostile('render() returns 10 MB', () => ({ render: () => 'r'.repeat(10_000_000) }), true),
  new Hostile('cyclic object', cyclicObject),
  new Hostile('cyclic array', cyclicArray),
  new Hostile('object 20,000 deep', () => deepObject(20_000), true),
  new Hostile('array 20,000 deep', () => deepArray(20_000), true),
  new Hostile('null-prototype object', () =>
    Object.assign(Object.create(null) as object, { a: 1 }),
  ),
  new Hostile('BigInt', () => 10n),
  new Hostile('object holding a BigInt', () => ({ n: 10n })),
  new Hostile('Symbol', () => Symbol('s')),
  new Hostile('symbol key', () => ({ [Symbol('k')]: 1, a: 1 })),
  new Hostile('Proxy with throwing traps', () => throwingProxy()),
  new Hostile('revoked Proxy', revokedProxy),
  new Hostile('frozen object', () => Object.freeze({ a: Object.freeze([1]) })),
  new Hostile('function', () => () => 1),
  new Hostile('Error', () => new Error('as a value')),
  new Hostile('toJSON throws', () => ({
    toJSON(): never {
      throw new Error('toJSON');
    },
  })),
  new Hostile('toJSON returns a cycle', () => ({ toJSON: cyclicObject })),
  new Hostile('own __proto__ key', () => JSON.parse('{"__proto__":{"polluted":1},"a":1}')),
  new Hostile('own constructor key', () => ({ constructor: { name: 'Evil' } })),
  new Hostile('fake array', () => Object.create(Array.prototype) as object),
  new Hostile('sparse array of 1,000,000', () => new Array<unknown>(1_000_000), true),
  new Hostile('array of 100,000', () => Array.from({ length: 100_000 }, (_, i) => i), true),
  new Hostile('string of 2 MB', () => 'x'.repeat(2_000_000), true),
  new Hostile('boxed primitives', () => [new String('s'), new Number(1), Object(1n) as object]),
  new Hostile('Buffer', () => Buffer.from('buffer')),
];

function spoofedResult(): ToolResult {
  return Object.create(ToolResult.prototype) as ToolResult;
}

/** What `produce`/`peek` return: ToolResults holding hostile values, odd ToolResults, and non-results. */
export const hostileResults: readonly Hostile[] = [
  ...hostileValues.map(
    (value) =>
      new Hostile(`ToolResult.ok(${value.label})`, () => ToolResult.ok(value.make()), value.heavy),
  ),
  ...hostileValues.map(
    (value) =>
      new Hostile(
        `failed ToolResult holding ${value.label}`,
        () => new ToolResult({ message: 'failed', value: value.make(), success: false }),
        value.heavy,
      ),
  ),
  new Hostile(
    'ToolResult with a 10 MB message',
    () => new ToolResult({ message: 'm'.repeat(10_000_000) }),
    true,
  ),
  new Hostile(
    'ToolResult with a BigInt message',
    () => new ToolResult({ message: 10n as unknown as string }),
  ),
  new Hostile(
    'ToolResult with a Symbol message',
    () => new ToolResult({ message: Symbol('m') as unknown as string }),
  ),
  new Hostile(
    'ToolResult excluding a cyclic value',
    () => new ToolResult({ message: 'x', value: cyclicObject(), excludeValueFromContext: true }),
  ),
  new Hostile('ToolResult built without its constructor', spoofedResult),
  new Hostile(
    'ToolResult subclass whose toModelText() throws',
    () => new UnrenderableResult({ message: 'x' }),
  ),
  new Hostile('ToolResult subclass whose success getter throws', () => new UndecidedResult()),
  new Hostile('undefined instead of a ToolResult', () => undefined),
  new Hostile('null instead of a ToolResult', () => null),
  new Hostile('a string instead of a ToolResult', () => 'done'),
  new Hostile('a BigInt instead of a ToolResult', () => 10n),
  new Hostile('a null-prototype object instead of a ToolResult', () => Object.create(null)),
  new Hostile('a Proxy instead of a ToolResult', () => throwingProxy()),
  new Hostile('a result-like plain object', () => ({ message: 'ok', success: true, value: 1 })),
  new Hostile('a promise of a BigInt', () => Promise.resolve(10n)),
  new Hostile('a rejected promise of a BigInt', () => {
    // A hostile handler rejects with a non-Error on purpose.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    return Promise.reject(10n);
  }),
  new Hostile('a thenable that throws', () => ({
    then(): never {
      throw new Error('then');
    },
  })),
];

class ErrorWithThrowingMessage extends Error {
  override get message(): string {
    throw new Error('message getter');
  }
}

class ErrorWithThrowingName extends Error {
  override get name(): string {
    throw new Error('name getter');
  }
}

/** Values a handler or a subscriber throws. */
export const hostileThrows: readonly Hostile[] = [
  new Hostile('a BigInt', () => 10n),
  new Hostile('a cyclic object', cyclicObject),
  new Hostile('a cyclic array', cyclicArray),
  new Hostile('a null-prototype object', () => Object.create(null)),
  new Hostile('a null-prototype object with a message', () =>
    Object.assign(Object.create(null) as object, { message: 'np' }),
  ),
  new Hostile('a string', () => 'plain string'),
  new Hostile('an empty string', () => ''),
  new Hostile('a 10 MB string', () => 's'.repeat(10_000_000), true),
  new Hostile('undefined', () => undefined),
  new Hostile('null', () => null),
  new Hostile('zero', () => 0),
  new Hostile('a Symbol', () => Symbol('thrown')),
  new Hostile('a function', () => () => 1),
  new Hostile('an Error', () => new Error('plain')),
  new Hostile('an Error with an empty message', () => new Error('')),
  new Hostile('an Error with a 10 MB message', () => new Error('e'.repeat(10_000_000)), true),
  new Hostile('an Error whose message getter throws', () => new ErrorWithThrowingMessage()),
  new Hostile('an Error whose name getter throws', () => new ErrorWithThrowingName('n')),
  new Hostile('an Error with a BigInt message', () =>
    Object.assign(new Error('x'), { message: 10n }),
  ),
  new Hostile('an Error with a cyclic cause', () => new Error('c', { cause: cyclicObject() })),
  new Hostile('an AggregateError of hostile errors', () => new AggregateError([10n, Symbol('s')])),
  new Hostile('an Error whose stack getter throws', () => throwingGetter('stack', new Error('s'))),
  new Hostile('an Error whose cause getter throws', () => throwingGetter('cause', new Error('c'))),
  new Hostile('an Error whose constructor getter throws', () =>
    throwingGetter('constructor', new Error('k')),
  ),
  new Hostile('an object whose toString throws', () => ({
    toString(): never {
      throw new Error('toString');
    },
  })),
  new Hostile('an object whose toJSON throws', () => ({
    toJSON(): never {
      throw new Error('toJSON');
    },
  })),
  new Hostile('an object holding a BigInt', () => ({ code: 10n })),
  new Hostile('a Proxy with throwing traps', () => throwingProxy()),
  new Hostile('a revoked Proxy', revokedProxy),
  new Hostile('a Map', () => new Map([[1, 2]])),
  new Hostile('a ToolResult', () => ToolResult.error('thrown result')),
  new Hostile('a spoofed ToolValidationError whose message getter throws', () =>
    Object.defineProperties(
      {},
      {
        [brand]: { value: true },
        code: { value: 'tool_validation' },
        message: {
          get(): never {
            throw new Error('message getter');
          },
        },
      },
    ),
  ),
  new Hostile('a spoofed ToolValidationError holding a BigInt message', () => ({
    [brand]: true,
    code: 'tool_validation',
    message: 10n,
  })),
];

/** Decoded arguments an adapter may hand over instead of JSON text. */
export const hostileDecodedArguments: readonly Hostile[] = [
  new Hostile('a Proxy with throwing traps', () => throwingProxy()),
  new Hostile('a Proxy over an array with throwing traps', () => throwingProxy([])),
  new Hostile('a revoked Proxy', revokedProxy),
  new Hostile('an object with a throwing getter', () =>
    withGetter(() => {
      throw new Error('getter');
    }),
  ),
  new Hostile('a null-prototype object', () =>
    Object.assign(Object.create(null) as object, { query: 'q' }),
  ),
  new Hostile('an object 20,000 deep', () => deepObject(20_000), true),
  new Hostile('an array 20,000 deep', () => deepArray(20_000), true),
  new Hostile('a cyclic object', cyclicObject),
  new Hostile('a BigInt', () => 10n),
  new Hostile('an object holding a BigInt', () => ({ query: 10n })),
  new Hostile('a Symbol', () => Symbol('args')),
  new Hostile('a function', () => () => ({})),
  new Hostile('a Map', () => new Map([['query', 'q']])),
  new Hostile('a Date', () => new Date(0)),
  new Hostile('a class instance', () => new Vault()),
  new Hostile('an own __proto__ key', () => JSON.parse('{"__proto__":{"polluted":1}}')),
  new Hostile('NaN, -0 and Infinity', () => ({ score: Number.NaN, quantity: -0, limit: Infinity })),
  new Hostile('an object with a symbol key', () => ({ [Symbol('k')]: 1 })),
  new Hostile('an array of 1,000,000', () => Array.from({ length: 1_000_000 }, () => 0), true),
  new Hostile('a string of 10 MB', () => 'a'.repeat(10_000_000), true),
  new Hostile(
    'an object with 100,000 keys',
    () => Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i])),
    true,
  ),
];

/** The hostile values that are cheap enough to generate often. */
export function light(values: readonly Hostile[]): Hostile[] {
  return values.filter((value) => !value.heavy);
}
