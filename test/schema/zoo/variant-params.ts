import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import fc from 'fast-check';

import type { FastPathEntry } from './fast-path-entry.js';
import { LookupParams } from './lookup-params.js';
import { TreeParams } from './tree-params.js';

export class BaseParams {
  @IsString() id!: string;
  @IsOptional() @IsInt() revision?: number;
}

/**
 * Inherits fields and adds a constraint to one of them: class-validator then
 * drops the base class's constraints of that field (`id` need not be a string).
 */
export class DerivedParams extends BaseParams {
  @IsBoolean() flag!: boolean;
}
MaxLength(5)(DerivedParams.prototype, 'id');

/**
 * Fields declared by decorators alone, so a fresh instance has none of them
 * as own properties and the key order of the arguments becomes the instance's;
 * the constructor gives `d` a default that fails its own constraint.
 */
export class SparseParams {
  constructor() {
    (this as Record<string, unknown>)['d'] = 7;
  }
}
IsString()(SparseParams.prototype, 'b');
IsInt()(SparseParams.prototype, 'a');
IsOptional()(SparseParams.prototype, 'c');
IsBoolean()(SparseParams.prototype, 'c');
IsInt()(SparseParams.prototype, 'd');
Max(5)(SparseParams.prototype, 'd');

export class Circle {
  @IsNumber() radius!: number;
}

export class Square {
  @IsNumber() side!: number;
}

/**
 * A `@Type` function that picks the class from the arguments: the fast path
 * calls it as class-transformer does and leaves any class but the one it
 * compiled (`Circle`, what the function names for an empty object) to the full path.
 */
export class FigureParams {
  @IsIn(['circle', 'square']) kind!: string;

  @ValidateNested()
  @Type((options) => (options?.object['kind'] === 'square' ? Square : Circle))
  figure!: Circle | Square;
}

interface TreeNode {
  label: string;
  children?: TreeNode[];
  category?: { name: string; parent?: { name: string } };
}

const tree = fc.letrec<{ node: TreeNode }>((tie) => ({
  node: fc.record(
    {
      label: fc.string({ maxLength: 4 }),
      children: fc.array(tie('node'), { maxLength: 2 }),
      category: fc.record(
        { name: fc.string({ maxLength: 4 }), parent: fc.record({ name: fc.string() }) },
        { requiredKeys: ['name'] },
      ),
    },
    { requiredKeys: ['label'] },
  ),
})).node;

export const variantEntries: readonly FastPathEntry[] = [
  {
    name: 'lookup',
    params: LookupParams,
    compilable: true,
    valid: fc.record(
      { entityId: fc.string(), includeRelated: fc.oneof(fc.boolean(), fc.constant(null)) },
      { requiredKeys: ['entityId'] },
    ),
  },
  {
    name: 'tree',
    params: TreeParams,
    compilable: true,
    valid: tree as unknown as fc.Arbitrary<Record<string, unknown>>,
  },
  {
    name: 'derived',
    params: DerivedParams,
    compilable: true,
    valid: fc.record(
      {
        id: fc.oneof(fc.string({ maxLength: 6 }), fc.integer()),
        revision: fc.integer(),
        flag: fc.boolean(),
      },
      { requiredKeys: ['id', 'flag'] },
    ),
  },
  {
    name: 'figure',
    params: FigureParams,
    compilable: true,
    valid: fc.oneof(
      fc.record({ kind: fc.constant('circle'), figure: fc.record({ radius: fc.double() }) }),
      fc.record({ kind: fc.constant('square'), figure: fc.record({ radius: fc.double() }) }),
      fc.record({ kind: fc.constant('square'), figure: fc.record({ side: fc.double() }) }),
    ),
  },
  {
    name: 'sparse',
    params: SparseParams,
    compilable: true,
    valid: fc
      .record({
        a: fc.integer(),
        b: fc.string(),
        c: fc.oneof(fc.boolean(), fc.constant(null)),
        d: fc.integer({ min: 0, max: 6 }),
      })
      .chain((record) =>
        fc
          .tuple(fc.shuffledSubarray(['a', 'b', 'c', 'd'], { minLength: 4 }), fc.boolean())
          .map(([keys, withC]) => {
            const shuffled: Record<string, unknown> = {};
            for (const key of keys) {
              if (key !== 'c' || withC) shuffled[key] = record[key as keyof typeof record];
            }
            return shuffled;
          }),
      ),
  },
];
