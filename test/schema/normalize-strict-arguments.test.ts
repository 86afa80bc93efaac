import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateIf, ValidateNested } from 'class-validator';

import { normalizeStrictArguments } from '../../src/schema/normalize-strict-arguments.js';
import { OrderParams } from './zoo/order-params.js';
import { TreeParams } from './zoo/tree-params.js';

class Flags {
  @ValidateIf((o: Flags) => o.nullable !== null) @IsString() nullable!: string | null;
  @ValidateIf((o: Flags) => o.loose != null) @IsString() loose?: string | null;
  @ValidateIf((o: Flags) => o.absentOnly !== undefined) @IsString() absentOnly?: string;
  @ValidateIf((o: Flags) => o.other === 'x') @IsString() dependent?: string;
  @IsOptional() @IsString() other?: string;
}

class Holder {
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => Flags) list?: Flags[];
}

describe('normalizeStrictArguments', () => {
  it('should remove null for optional fields at every level, arrays of nested classes included', () => {
    const value = {
      shipping: { street: 's', zip: '12345', city: null },
      billing: null,
      items: [{ name: 'n', quantity: 1 }],
      status: 'draft',
      priority: null,
      coupon: null,
      tags: null,
    };
    expect(normalizeStrictArguments(OrderParams, value)).toEqual({
      shipping: { street: 's', zip: '12345' },
      items: [{ name: 'n', quantity: 1 }],
      status: 'draft',
      coupon: null,
    });
    const tree = {
      label: 'r',
      children: [{ label: 'a', children: null, category: null }],
      category: null,
    };
    expect(normalizeStrictArguments(TreeParams, tree)).toEqual({
      label: 'r',
      children: [{ label: 'a' }],
    });
  });

  it('should tell optional from nullable-but-required by probing @ValidateIf conditions', () => {
    const value = { nullable: null, loose: null, absentOnly: null, dependent: null, other: null };
    // `absentOnly` may be absent, so strict mode shows it as nullable: its null means absent too.
    expect(normalizeStrictArguments(Flags, value)).toEqual({ nullable: null, dependent: null });
  });

  it('should normalise items of an array of nested classes', () => {
    expect(
      normalizeStrictArguments(Holder, {
        list: [{ nullable: null, loose: null }, 'not an object', null],
      }),
    ).toEqual({ list: [{ nullable: null }, 'not an object', null] });
  });

  it('should keep null for required fields, so validation can report it', () => {
    const value = { shipping: null, items: null, status: null, coupon: null };
    expect(normalizeStrictArguments(OrderParams, value)).toEqual(value);
  });

  it('should keep unknown keys, __proto__ included, as own data for the parser to reject', () => {
    const value = JSON.parse('{"label":"r","__proto__":{"x":1},"extra":null}') as object;
    const normalized = normalizeStrictArguments(TreeParams, value) as object;
    expect(Object.getPrototypeOf(normalized)).toBe(Object.prototype);
    expect(Object.keys(normalized)).toEqual(['label', '__proto__', 'extra']);
    expect(Object.getOwnPropertyDescriptor(normalized, '__proto__')?.value).toEqual({ x: 1 });
  });

  it('should not mutate its input', () => {
    const value = { entity: 1, shipping: { street: 's', zip: '1', city: null }, billing: null };
    const copy = structuredClone(value);
    normalizeStrictArguments(OrderParams, value);
    expect(value).toEqual(copy);
  });

  it.each([[null], ['text'], [[{ billing: null }]], [42], [undefined]])(
    'should return %p unchanged',
    (value) => {
      expect(normalizeStrictArguments(OrderParams, value)).toBe(value);
    },
  );

  it('should never throw, even on cyclic or hostile values', () => {
    const cyclic: Record<string, unknown> = { label: 'r' };
    cyclic['children'] = [cyclic];
    expect(() => normalizeStrictArguments(TreeParams, cyclic)).not.toThrow();
    const hostile = {
      get label(): string {
        throw new Error('getter exploded');
      },
    };
    expect(normalizeStrictArguments(TreeParams, hostile)).toBe(hostile);
  });
});
