import { Expose, Transform, Type } from 'class-transformer';
import {
  IsDate,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsLatitude,
  Matches,
  registerDecorator,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import fc from 'fast-check';

import type { FastPathEntry } from './fast-path-entry.js';
import { IsEvenConstraint } from './loose-params.js';

@ValidatorConstraint({ name: 'isShortAsync', async: true })
class IsShortAsyncConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): Promise<boolean> {
    return Promise.resolve(typeof value === 'string' && value.length < 4);
  }
}

/** A custom decorator registered under a built-in name, which also accepts numbers. */
function LooseIsString(): PropertyDecorator {
  return (target, propertyName) => {
    registerDecorator({
      name: 'isString',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: { validate: (value: unknown) => ['string', 'number'].includes(typeof value) },
    });
  };
}

export class CustomParams {
  @IsString() name!: string;
  @Validate(IsEvenConstraint) even!: number;
}

export class AsyncParams {
  @Validate(IsShortAsyncConstraint) code!: string;
}

export class ShadowedParams {
  @LooseIsString() name!: string;
}

export class ConditionalParams {
  @IsString() kind!: string;
  @ValidateIf((o: ConditionalParams) => o.kind === 'number') @IsInt() value!: number;
}

export class GroupParams {
  @IsString({ groups: ['admin'] }) name!: string;
}

export class TransformParams {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  name!: string;
}

export class ExposeParams {
  @Expose({ name: 'full_name' }) @IsOptional() @IsString() fullName?: string;
  @IsOptional() @IsString() full_name?: string;
}

export class DateParams {
  @Type(() => Date) @IsDate() when!: Date;
}

export class DecimalParams {
  @IsNumber({ maxDecimalPlaces: 2 }) amount!: number;
}

/**
 * A sticky pattern keeps its `lastIndex` between calls, so class-validator's
 * answer depends on the calls before: never compiled, and left out of the
 * property test, where two validations of the same value may disagree.
 */
export class StickyParams {
  @Matches(/ab/y) code!: string;
}

/** A format the fast path does not implement (it takes numbers too). */
export class LatitudeParams {
  @IsLatitude() latitude!: string | number;
}

export class FunctionDefaultParams {
  @IsOptional() @IsString() name?: string;
  @IsOptional() callback: unknown = () => 1;
}

export class UncompilableChild {
  @Validate(IsEvenConstraint) even!: number;
}

/** Compilable itself, but its nested class is not. */
export class UncompilableParent {
  @IsString() name!: string;
  @ValidateNested() @Type(() => UncompilableChild) child!: UncompilableChild;
}

const text = fc.string({ maxLength: 6 });

export const uncompilableEntries: readonly FastPathEntry[] = [
  entry('custom', CustomParams, fc.record({ name: text, even: fc.integer({ min: -4, max: 4 }) })),
  entry('async', AsyncParams, fc.record({ code: text })),
  entry('shadowed', ShadowedParams, fc.record({ name: fc.oneof(text, fc.integer()) })),
  entry(
    'conditional',
    ConditionalParams,
    fc.record({ kind: fc.constantFrom('number', 'text'), value: fc.integer() }),
  ),
  entry('groups', GroupParams, fc.record({ name: text })),
  entry('transform', TransformParams, fc.record({ name: text })),
  entry('expose', ExposeParams, fc.record({ full_name: text }, { requiredKeys: [] })),
  entry('date', DateParams, fc.record({ when: fc.constant('2024-05-01T10:00:00Z') })),
  entry(
    'decimal',
    DecimalParams,
    fc.record({ amount: fc.integer({ min: -1000, max: 1000 }).map((n) => n / 100) }),
  ),
  entry(
    'latitude',
    LatitudeParams,
    fc.record({
      latitude: fc.oneof(fc.double({ min: -90, max: 90, noNaN: true }), fc.constant('51.5')),
    }),
  ),
  entry('function default', FunctionDefaultParams, fc.record({ name: text }, { requiredKeys: [] })),
  entry(
    'uncompilable nested',
    UncompilableParent,
    fc.record({ name: text, child: fc.record({ even: fc.integer({ min: -4, max: 4 }) }) }),
  ),
];

function entry(
  name: string,
  params: new () => object,
  valid: fc.Arbitrary<Record<string, unknown>>,
): FastPathEntry {
  return { name, params, compilable: false, valid };
}
