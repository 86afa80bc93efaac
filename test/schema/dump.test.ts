import { dump } from '../../src/schema/dump.js';

class Point {
  constructor(
    readonly x: number,
    readonly y: number | null,
  ) {}
}

class Money {
  constructor(readonly cents: number) {}

  toJSON(): string {
    return `${(this.cents / 100).toFixed(2)} EUR`;
  }
}

describe('dump', () => {
  it('should keep JSON scalars as they are', () => {
    expect(dump('text')).toBe('text');
    expect(dump(0)).toBe(0);
    expect(dump(false)).toBe(false);
  });

  it('should drop null and undefined at every depth', () => {
    expect(dump(null)).toBeUndefined();
    expect(dump(undefined)).toBeUndefined();
    expect(
      dump({ a: null, b: undefined, c: { d: null, e: [1, null, undefined, { f: null, g: 2 }] } }),
    ).toEqual({ c: { e: [1, { g: 2 }] } });
  });

  it('should dump class instances as their own fields, in declaration order', () => {
    const dumped = dump({ at: new Point(1, null), points: [new Point(2, 3)] });
    expect(dumped).toEqual({ at: { x: 1 }, points: [{ x: 2, y: 3 }] });
    expect(JSON.stringify(dumped)).toBe('{"at":{"x":1},"points":[{"x":2,"y":3}]}');
  });

  it('should write dates as ISO strings and drop invalid dates', () => {
    expect(dump({ at: new Date(Date.UTC(2024, 4, 1, 10)), bad: new Date(Number.NaN) })).toEqual({
      at: '2024-05-01T10:00:00.000Z',
    });
  });

  it('should turn maps into objects and sets into arrays', () => {
    const value = {
      map: new Map<unknown, unknown>([
        ['a', 1],
        [2, new Set(['x', null, 'y'])],
        ['gone', null],
      ]),
    };
    expect(dump(value)).toEqual({ map: { a: 1, '2': ['x', 'y'] } });
  });

  it('should use toJSON, stringify bigints and non-finite numbers, and drop functions and symbols', () => {
    expect(
      dump({
        price: new Money(1250),
        big: 12n,
        inf: Infinity,
        nan: Number.NaN,
        fn: () => 1,
        sym: Symbol('s'),
      }),
    ).toEqual({ price: '12.50 EUR', big: '12', inf: 'Infinity', nan: 'NaN' });
  });

  it('should keep __proto__ keys as plain data, without touching any prototype', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"ok":1}') as object;
    const dumped = dump(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(dumped)).toBe(Object.prototype);
    expect(Object.keys(dumped)).toEqual(['__proto__', 'ok']);
    expect(Object.getOwnPropertyDescriptor(dumped, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(JSON.stringify(dumped)).toBe('{"__proto__":{"polluted":true},"ok":1}');
  });

  it('should reject cycles with a TypeError', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = { back: cyclic };
    expect(() => dump(cyclic)).toThrow(
      new TypeError('dump() cannot serialise a value that contains a cycle.'),
    );
    const list: unknown[] = [];
    list.push(list);
    expect(() => dump(list)).toThrow(TypeError);
  });

  it('should allow the same object twice when it is not a cycle', () => {
    const shared = { n: 1 };
    expect(dump({ a: shared, b: [shared, shared] })).toEqual({
      a: { n: 1 },
      b: [{ n: 1 }, { n: 1 }],
    });
  });
});
