import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsEnum,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  Min,
} from 'class-validator';
import fc from 'fast-check';

import type { FastPathEntry } from './fast-path-entry.js';
import { Level } from './scalar-params.js';

/** Arrays, `{ each: true }` constraints (on arrays and on single values) and free-form fields. */
export class ListParams {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(5)
  @IsString({ each: true })
  @MaxLength(8, { each: true })
  tags!: string[];

  @IsOptional() @IsArray() @IsInt({ each: true }) @Min(0, { each: true }) counts?: number[];
  @ArrayNotEmpty() @IsIn(['a', 'b', 'c'], { each: true }) letters!: string[];
  @IsOptional() @IsNotEmpty({ each: true }) words?: string[];
  @IsOptional() @IsObject() meta?: Record<string, unknown>;
  @Allow() anything!: unknown;
  @IsOptional() @IsEnum(Level, { each: true }) levels?: Level[];
  @IsOptional() @IsBoolean({ each: true }) flags?: boolean | boolean[];
}

const json = fc.jsonValue({ maxDepth: 3 });

export const listEntry: FastPathEntry = {
  name: 'list',
  params: ListParams,
  compilable: true,
  valid: fc.record(
    {
      tags: fc.array(fc.string({ maxLength: 8 }), { minLength: 1, maxLength: 5 }),
      counts: fc.oneof(fc.array(fc.nat({ max: 1000 }), { maxLength: 4 }), fc.constant(null)),
      letters: fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 4 }),
      words: fc.array(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 3 }),
      meta: fc.oneof(
        fc.dictionary(fc.string({ maxLength: 4 }), json, { maxKeys: 3 }),
        fc.constant(null),
      ),
      anything: json,
      levels: fc.array(fc.constantFrom(1, 2), { maxLength: 3 }),
      flags: fc.oneof(fc.boolean(), fc.array(fc.boolean(), { maxLength: 3 })),
    },
    { requiredKeys: ['tags', 'letters', 'anything'] },
  ),
};
