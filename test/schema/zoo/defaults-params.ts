import { Type } from 'class-transformer';
import { IsArray, IsInt, IsOptional, IsString, Max, ValidateNested } from 'class-validator';
import fc from 'fast-check';

import type { FastPathEntry } from './fast-path-entry.js';
import { Coordinates } from './route-params.js';

function coordinates(fields: Record<string, unknown>): Coordinates {
  return Object.assign(new Coordinates(), fields);
}

/**
 * Default values, valid and not, which class-validator checks when the field
 * is absent: scalars, arrays, a set (`each` reads its values), nested
 * instances, and a nested instance carrying a property without validators.
 */
export class DefaultsParams {
  @IsInt() @Max(3) limit = 10;
  @IsOptional() @IsString() label: string | null = 'x';
  @IsArray() @IsInt({ each: true }) numbers: number[] = [1, 2];
  @IsOptional() @IsInt({ each: true }) picks: Set<number> | number[] = new Set([1, 2]);
  @IsOptional() @IsInt({ each: true }) misses: Set<unknown> | number[] = new Set([1, 'two']);

  @IsOptional()
  @ValidateNested()
  @Type(() => Coordinates)
  fallback: Coordinates | null = coordinates({ lat: 100, lng: 0 });

  @ValidateNested() @Type(() => Coordinates) home = coordinates({ lat: 1, lng: 2 });
  @ValidateNested() @Type(() => Coordinates) ghost = coordinates({
    lat: 1,
    lng: 2,
    note: undefined,
  });
  @ValidateNested() @Type(() => Coordinates) stray = coordinates({ lat: 1, lng: 2, note: 'x' });
  @IsOptional() @ValidateNested() @Type(() => Coordinates) blank = new Coordinates();
}

const point = fc.record({
  lat: fc.integer({ min: -90, max: 90 }),
  lng: fc.integer({ min: -180, max: 180 }),
});

export const defaultsEntry: FastPathEntry = {
  name: 'defaults',
  params: DefaultsParams,
  compilable: true,
  valid: fc.record(
    {
      limit: fc.integer({ min: -3, max: 3 }),
      label: fc.oneof(fc.string({ maxLength: 3 }), fc.constant(null)),
      numbers: fc.array(fc.integer(), { maxLength: 3 }),
      picks: fc.oneof(fc.array(fc.integer(), { maxLength: 3 }), fc.integer()),
      misses: fc.array(fc.integer(), { maxLength: 2 }),
      fallback: fc.oneof(point, fc.constant(null)),
      home: point,
      ghost: point,
      stray: point,
      blank: fc.oneof(point, fc.constant(null)),
    },
    { requiredKeys: ['limit', 'stray'] },
  ),
};
