import { Exclude, Expose, Transform, Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  Equals,
  getMetadataStorage,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEnum,
  IsIn,
  IsInt,
  IsNegative,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  IsLatitude,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';

import { ToolValidationError } from '../../src/core/errors/tool-validation-error.js';
import { compiledParamsClass, parseCompiled } from '../../src/schema/compiled-parse.js';
import type { SchemaProfile } from '../../src/schema/params-json-schema.js';
import { readParamsShape } from '../../src/schema/params-shape.js';
import { parseToolArguments } from '../../src/schema/parse-tool-arguments.js';
import { catchRejection } from '../support/catch-error.js';
import {
  expectNoSharedObjects,
  expectSameStructure,
  referenceParse,
} from './fast-path-reference.js';
import { Level, ScalarParams, Shade } from './zoo/scalar-params.js';
import { RouteParams, Stop } from './zoo/route-params.js';
import { StickyParams } from './zoo/uncompilable-params.js';
import { SparseParams } from './zoo/variant-params.js';

type Params = new () => { value?: unknown };

/** A fresh params class with one field, `value`, carrying `decorators`. */
function classWith(...decorators: PropertyDecorator[]): Params {
  class OneField {
    value?: unknown;
  }
  for (const decorate of decorators) decorate(OneField.prototype, 'value');
  return OneField;
}

/**
 * Runs `fn` and counts its reads of class-validator's metadata, which
 * compiling a class and every `validate` call make.
 */
async function countMetadataReads(fn: () => unknown): Promise<number> {
  const storage = getMetadataStorage();
  const read = storage.getTargetValidationMetadatas.bind(storage);
  let reads = 0;
  storage.getTargetValidationMetadatas = (...args) => {
    reads++;
    return read(...args);
  };
  try {
    await fn();
  } finally {
    delete (storage as Partial<typeof storage>).getTargetValidationMetadatas;
  }
  return reads;
}

/** Values on and around every supported constraint's edges. */
const probes: readonly unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'a',
  'ab',
  'abc',
  'ABC',
  'abcdef',
  'xX',
  '12',
  'v1',
  'light',
  'Low',
  '\u{1F600}\u{1F600}',
  'e\uFE0Fe\uFE0F',
  0,
  -0,
  1,
  -1,
  2,
  3,
  4,
  1.5,
  -2.5,
  Number.NaN,
  Infinity,
  -Infinity,
  true,
  false,
  [],
  ['a'],
  ['a', 'b', 'c'],
  [1, 2],
  [1, 'a'],
  [null],
  {},
  { a: 1 },
];

/** Parses `value` for `{ value }` with the fast path, or `undefined` when it declines. */
function fastParse(params: Params, args: Record<string, unknown>, profile: SchemaProfile) {
  return parseCompiled(params, readParamsShape(params), args, profile);
}

const supported: readonly (readonly [string, Params])[] = [
  ['IsString', classWith(IsString())],
  ['IsNumber', classWith(IsNumber())],
  [
    'IsNumber allowing NaN and Infinity',
    classWith(IsNumber({ allowNaN: true, allowInfinity: true })),
  ],
  ['IsInt', classWith(IsInt())],
  ['IsBoolean', classWith(IsBoolean())],
  ['Min', classWith(Min(2))],
  ['Max', classWith(Max(2))],
  ['MinLength', classWith(MinLength(2))],
  ['MaxLength', classWith(MaxLength(2))],
  ['Length', classWith(Length(2, 3))],
  ['IsIn', classWith(IsIn(['a', 1, null, Number.NaN]))],
  ['IsEnum of strings', classWith(IsEnum(Shade))],
  ['IsEnum of numbers', classWith(IsEnum(Level))],
  ['IsOptional', classWith(IsOptional(), IsInt())],
  ['IsNotEmpty', classWith(IsNotEmpty())],
  ['IsPositive', classWith(IsPositive())],
  ['IsNegative', classWith(IsNegative())],
  ['Matches with flags', classWith(Matches(/^[a-c]+$/i))],
  ['Matches with the global flag', classWith(Matches(/b/g))],
  ['Matches with a string and modifiers', classWith(Matches('^x+$', 'i'))],
  ['IsArray', classWith(IsArray())],
  ['ArrayMinSize', classWith(ArrayMinSize(2))],
  ['ArrayMaxSize', classWith(ArrayMaxSize(2))],
  ['ArrayNotEmpty', classWith(ArrayNotEmpty())],
  ['Equals', classWith(Equals('v1'))],
  ['IsDefined', classWith(IsDefined())],
  ['IsObject', classWith(IsObject())],
  ['Allow', classWith(Allow())],
  ['IsString each', classWith(IsString({ each: true }))],
  ['Min each', classWith(IsOptional(), Min(1, { each: true }))],
  ['MaxLength each with IsArray', classWith(IsArray(), MaxLength(1, { each: true }))],
  ['IsEnum each', classWith(IsEnum(Level, { each: true }))],
];

@ValidatorConstraint({ name: 'counted' })
class CountedConstraint implements ValidatorConstraintInterface {
  static calls = 0;

  validate(value: unknown): boolean {
    CountedConstraint.calls++;
    return typeof value === 'string';
  }
}

class Counted {
  @Validate(CountedConstraint) value!: string;
}

class Polymorphic {
  @Type(() => Date) @IsOptional() value?: Date;
}

class Discriminated {
  @ValidateNested()
  @Type(() => Stop, {
    discriminator: { property: 'kind', subTypes: [{ name: 'stop', value: Stop }] },
  })
  value!: Stop;
}

class WithMethod {
  @IsString() value!: string;

  label(): string {
    return this.value;
  }
}
IsString()(WithMethod.prototype, 'label');

class Empty {}

class HoldsEmpty {
  @ValidateNested() @Type(() => Empty) value!: Empty;
}

class UndecoratedDefault {
  @IsString() value!: string;
  extra = 1;
}

@Exclude()
class ExcludedAll {
  @IsString() value!: string;
}

class Exposed {
  @Expose() @IsString() value!: string;
}

class ExcludedField {
  @IsString() value!: string;
  @Exclude() @IsOptional() @IsString() secret?: string;
}

class Armed {
  @IsString() value!: string;

  constructor() {
    if (Armed.armed) throw new Error('constructor exploded');
  }

  static armed = false;
}

const unsupported: readonly (readonly [string, new () => object])[] = [
  ['a custom validator', Counted],
  [
    '@ValidateIf',
    classWith(
      ValidateIf(() => true),
      IsString(),
    ),
  ],
  ['groups', classWith(IsString({ groups: ['admin'] }))],
  ['IsNumber with maxDecimalPlaces', classWith(IsNumber({ maxDecimalPlaces: 2 }))],
  ['a sticky pattern', StickyParams],
  ['a constraint it does not implement', classWith(IsLatitude())],
  [
    '@Transform',
    classWith(
      Transform(({ value }: { value: unknown }) => value),
      IsString(),
    ),
  ],
  ['@Type of a built-in', Polymorphic],
  [
    '@Type without @ValidateNested',
    classWith(
      Type(() => Number),
      IsInt(),
    ),
  ],
  ['a discriminator', Discriminated],
  ['a field the prototype defines', WithMethod],
  ['a nested class without fields', HoldsEmpty],
  ['a field without validators', UndecoratedDefault],
  ['@Exclude on the class', ExcludedAll],
  ['@Exclude on a field', ExcludedField],
  ['@Expose on a field', Exposed],
];

describe('the compiled fast path of parseToolArguments', () => {
  describe.each(supported)('%s', (_name, params) => {
    it('compiles, and answers as class-validator for every probe value, in both profiles', async () => {
      for (const profile of ['standard', 'openai-strict'] as const) {
        expect(compiledParamsClass(params, profile)).toBeDefined();
        for (const value of probes) {
          const args = { value };
          const reference = await referenceParse(params, args, profile);
          const fast = fastParse(params, args, profile);
          expect({ value, profile, accepted: fast !== undefined }).toEqual({
            value,
            profile,
            accepted: reference.accepted,
          });
          if (fast !== undefined && reference.accepted) {
            expectSameStructure(fast, reference.instance);
            expectNoSharedObjects(fast, args);
          }
        }
      }
    });
  });

  describe.each(unsupported)('a class with %s', (_name, params) => {
    it('is not compiled, and is cached as such', async () => {
      expect(compiledParamsClass(params, 'standard')).toBeUndefined();
      const reads = await countMetadataReads(() => {
        expect(compiledParamsClass(params, 'standard')).toBeUndefined();
      });
      expect(reads).toBe(0);
    });
  });

  it('falls back to class-validator for a class it does not compile: the custom validator runs', async () => {
    const before = CountedConstraint.calls;
    const parsed = await parseToolArguments(Counted, { value: 'x' });
    expect(parsed).toBeInstanceOf(Counted);
    expect(CountedConstraint.calls).toBe(before + 1);
  });

  it('skips class-validator entirely for valid arguments of a compiled class', async () => {
    const args = {
      name: 'route',
      origin: { label: 'A' },
      stops: [{ place: { label: 'B' }, minutes: 5 }],
    };
    await parseToolArguments(RouteParams, args);
    const valid = await countMetadataReads(async () => {
      expect(await parseToolArguments(RouteParams, JSON.stringify(args))).toBeInstanceOf(
        RouteParams,
      );
    });
    expect(valid).toBe(0);
    const invalid = await countMetadataReads(async () => {
      await expect(parseToolArguments(RouteParams, { ...args, stops: [] })).rejects.toThrow(
        ToolValidationError,
      );
    });
    expect(invalid).toBeGreaterThan(0);
  });

  it('compiles a class once per profile', () => {
    const params = classWith(IsString());
    const standard = compiledParamsClass(params, 'standard');
    expect(compiledParamsClass(params, 'standard')).toBe(standard);
    expect(compiledParamsClass(params, 'openai-strict')).not.toBe(standard);
  });

  it('builds nested instances and arrays of them, with defaults, sharing nothing with the arguments', async () => {
    const args = {
      name: 'route',
      origin: { label: 'A', at: { lat: 1, lng: 2 } },
      stops: [{ place: { label: 'B', aliases: ['b'] }, minutes: 5 }],
    };
    const parsed = await parseToolArguments(RouteParams, args);
    const reference = await referenceParse(RouteParams, args, 'standard');
    expect(reference.accepted).toBe(true);
    expectSameStructure(parsed, reference.accepted ? reference.instance : undefined);
    expectNoSharedObjects(parsed, args);
    expect(parsed.stops[0]?.place.aliases).toEqual(['b']);
    expect(parsed.origin.aliases).toEqual([]);
    expect(parsed.home).toEqual({ lat: 51.5, lng: -0.1 });
  });

  it('treats null for an optional field as absent in the openai-strict profile only', async () => {
    const args = { ...scalarArgs(), pageSize: null, nickname: null };
    const standard = await parseToolArguments(ScalarParams, args);
    expect(standard.pageSize).toBeNull();
    expect(standard.nickname).toBeNull();
    const strict = await parseToolArguments(ScalarParams, args, { profile: 'openai-strict' });
    expect(strict.pageSize).toBe(20);
    expect(strict.nickname).toBe('none');
  });

  it('reports exactly what the full path reports when it rejects', async () => {
    const args = { ...scalarArgs(), age: 1.5, code: 'ab', tag: 'a-b', extra: true };
    const reference = await referenceParse(ScalarParams, args, 'standard');
    const error = await catchRejection(ToolValidationError, () =>
      parseToolArguments(ScalarParams, args),
    );
    expect(reference.accepted).toBe(false);
    expect(error.issues).toEqual(reference.accepted ? [] : reference.issues);
    expect(error.issues).toEqual([
      { path: 'extra', message: expect.stringMatching(/^unknown field/) as unknown },
      { path: 'code', message: 'must be longer than or equal to 3 characters' },
      { path: 'age', message: 'must be an integer number' },
      { path: 'tag', message: 'must match /^[a-z]+$/i regular expression' },
    ]);
  });

  it('leaves a constructor that throws after compilation to the full path and its message', async () => {
    expect(await parseToolArguments(Armed, { value: 'x' })).toBeInstanceOf(Armed);
    Armed.armed = true;
    try {
      await expect(parseToolArguments(Armed, { value: 'x' })).rejects.toThrow(
        'Arguments could not be converted: constructor exploded',
      );
    } finally {
      Armed.armed = false;
    }
  });

  it('generates a builder that passes field names as data: any name, quotes and braces included', async () => {
    const names = ["a'b", 'c"d', 'e`${f}`', 'g\n});throw 1;//', '\\', 'h i'];
    class Odd {}
    for (const name of names) IsString()(Odd.prototype, name);
    const args = Object.fromEntries(names.map((name, index) => [name, `v${index}`]));
    const compiled = compiledParamsClass(Odd, 'standard');
    expect(
      compiled?.fast?.(JSON.parse(JSON.stringify(args)) as Record<string, unknown>, 1),
    ).toEqual(args);
    const parsed = await parseToolArguments(Odd, JSON.stringify(args));
    expect(parsed).toBeInstanceOf(Odd);
    expect(Object.entries(parsed)).toEqual(Object.entries(args));
  });

  it('builds from arguments in any order only where a fresh instance has every field', async () => {
    const reversed = Object.fromEntries(Object.entries(scalarArgs()).reverse());
    const scalar = compiledParamsClass(ScalarParams, 'standard');
    expect(scalar?.predefined).toBe(true);
    expect(scalar?.fast?.(reversed, 1)).toBeInstanceOf(ScalarParams);
    // Without class fields, the arguments' order becomes the instance's: the screened path builds.
    const sparse = compiledParamsClass(SparseParams, 'standard');
    expect(sparse?.predefined).toBe(false);
    expect(sparse?.fast?.({ b: 'x', a: 1, d: 3 }, 1)).toBeInstanceOf(SparseParams);
    expect(sparse?.fast?.({ d: 3, a: 1, b: 'x' }, 1)).toBeUndefined();
    for (const args of [reversed, { d: 3, a: 1, b: 'x' }]) {
      const params = args === reversed ? ScalarParams : SparseParams;
      const parsed = await parseToolArguments(params, args);
      const reference = await referenceParse(params, args, 'standard');
      expectSameStructure(parsed, reference.accepted ? reference.instance : undefined);
    }
  });

  it('still parses through the screened path where code generation is refused', async () => {
    const params = classWith(IsString(), MaxLength(3));
    const original = globalThis.Function;
    globalThis.Function = function refused() {
      throw new EvalError('Code generation from strings disallowed for this context');
    } as unknown as FunctionConstructor;
    let compiled: ReturnType<typeof compiledParamsClass>;
    try {
      compiled = compiledParamsClass(params, 'standard');
    } finally {
      globalThis.Function = original;
    }
    expect(compiled).toBeDefined();
    expect(compiled?.fast).toBeUndefined();
    expect(fastParse(params, { value: 'abc' }, 'standard')).toEqual({ value: 'abc' });
    expect(fastParse(params, { value: 'abcd' }, 'standard')).toBeUndefined();
    await expect(parseToolArguments(params, { value: 'abcd' })).rejects.toThrow(
      ToolValidationError,
    );
  });

  it('does not compile a custom validator registered under a built-in name', async () => {
    const { ShadowedParams } = await import('./zoo/uncompilable-params.js');
    expect(compiledParamsClass(ShadowedParams, 'standard')).toBeUndefined();
    await expect(parseToolArguments(ShadowedParams, { name: 5 })).resolves.toEqual({ name: 5 });
  });
});

function scalarArgs(): Record<string, unknown> {
  return {
    name: 'Ada',
    code: 'GB1',
    age: 36,
    score: 0.5,
    debt: -3,
    active: true,
    channel: 'email',
    shade: 'dark',
    tag: 'abc',
    version: 'v1',
    note: 'n',
    present: 0,
  };
}
