import {
  Equals,
  IsBoolean,
  IsDefined,
  IsEnum,
  IsIn,
  IsInt,
  IsNegative,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import fc from 'fast-check';

import type { FastPathEntry } from './fast-path-entry.js';

export enum Shade {
  Light = 'light',
  Dark = 'dark',
}

export enum Level {
  Low = 1,
  High = 2,
}

/** An enum-like object with NaN among its values, which `@IsEnum` matches as `includes` does. */
export const Odd = { Missing: Number.NaN, Zero: 0, Half: 0.5 } as const;

/** Every scalar constraint the compiled fast path implements, with defaults and optional fields. */
export class ScalarParams {
  @IsString() @MinLength(2) @MaxLength(12) name!: string;
  @IsString() @Length(3, 5) code!: string;
  @IsInt() @Min(0) @Max(150) age!: number;
  @IsNumber() @IsPositive() score!: number;
  @IsOptional() @IsNumber({ allowNaN: true, allowInfinity: true }) ratio?: number;
  @IsNumber() @IsNegative() @Min(-100) debt!: number;
  @IsBoolean() active!: boolean;
  @IsIn(['email', 'phone', 0, null, Number.NaN]) channel!: string | number | null;
  @IsEnum(Shade) shade!: Shade;
  @IsOptional() @IsEnum(Level) level?: Level;
  @IsOptional() @IsEnum(Odd) odd?: number;
  @Matches(/^[a-z]+$/i) tag!: string;
  @IsOptional() @Matches(/\d/g) digits?: string;
  @IsOptional() @Matches('^x+$', 'i') xs?: string;
  @Equals('v1') version!: string;
  @IsNotEmpty() note!: unknown;
  @IsDefined() present!: unknown;
  @IsOptional() @IsInt() @Min(1) pageSize = 20;
  @IsInt() @Min(5) threshold = 10;
  @IsOptional() @IsString() nickname: string | null = 'none';
}

const letters = fc.string({
  unit: fc.constantFrom('a', 'B', 'z', 'Q'),
  minLength: 1,
  maxLength: 8,
});
/** Characters whose length validator.js counts differently from `String.length`. */
const tricky = fc.constantFrom('a', 'é', '\u{1F600}', 'e\uFE0F', '\uFE0F', 'x', ' ');

const scalars = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -5, max: 200 }),
  fc.double({ noDefaultInfinity: false }),
  fc.boolean(),
  fc.constant(null),
);

export const scalarEntry: FastPathEntry = {
  name: 'scalar',
  params: ScalarParams,
  compilable: true,
  valid: fc.record(
    {
      name: fc.string({ unit: tricky, minLength: 2, maxLength: 12 }),
      code: fc.string({ unit: tricky, minLength: 3, maxLength: 5 }),
      age: fc.integer({ min: 0, max: 150 }),
      score: fc.double({ min: Number.MIN_VALUE, max: 1e6, noNaN: true }),
      ratio: fc.oneof(fc.double(), fc.constant(null)),
      debt: fc.double({ min: -100, max: -Number.MIN_VALUE, noNaN: true }),
      active: fc.boolean(),
      channel: fc.constantFrom('email', 'phone', 0, null),
      shade: fc.constantFrom('light', 'dark'),
      level: fc.constantFrom(1, 2, null),
      odd: fc.constantFrom(Number.NaN, 0, -0, 0.5, null),
      tag: letters,
      digits: fc.oneof(fc.stringMatching(/\d/), fc.constant(null)),
      xs: fc.oneof(fc.stringMatching(/^[xX]+$/), fc.constant(null)),
      version: fc.constant('v1'),
      note: fc
        .oneof(scalars, fc.array(scalars, { maxLength: 2 }), fc.dictionary(letters, scalars))
        .filter((value) => value !== '' && value !== null),
      present: fc
        .oneof(scalars, fc.array(scalars, { maxLength: 2 }))
        .filter((value) => value !== null),
      pageSize: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constant(null)),
      threshold: fc.integer({ min: 5, max: 50 }),
      nickname: fc.oneof(fc.string({ maxLength: 5 }), fc.constant(null)),
    },
    {
      requiredKeys: [
        'name',
        'code',
        'age',
        'score',
        'debt',
        'active',
        'channel',
        'shade',
        'tag',
        'version',
        'note',
        'present',
      ],
    },
  ),
};
