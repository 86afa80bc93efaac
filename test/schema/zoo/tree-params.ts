import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';

import { Describe } from '../../../src/decorators/describe.js';
import type { ZooEntry } from './zoo-entry.js';

export class Category {
  @IsString() name!: string;
  @Describe('Enclosing category')
  @IsOptional()
  @ValidateNested()
  @Type(() => Category)
  parent?: Category;
}

/** Recursion: the root refers to itself and a nested class refers to itself. */
export class TreeParams {
  @IsString() label!: string;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => TreeParams)
  children?: TreeParams[];

  @IsOptional() @ValidateNested() @Type(() => Category) category?: Category;
}

export const treeZoo: ZooEntry = {
  name: 'tree',
  params: TreeParams,
  valid: [
    { label: 'root' },
    {
      label: 'root',
      children: [{ label: 'a', children: [{ label: 'a1' }] }, { label: 'b' }],
      category: { name: 'leaf', parent: { name: 'branch' } },
    },
  ],
  invalid: [
    { label: 'root', children: [{ label: 'a', children: [{}] }] },
    { label: 'root', children: [{ label: 'a', extra: 1 }] },
    { label: 'root', category: { name: 'leaf', parent: { name: 7 } } },
    { label: 'root', category: { name: 'leaf', parent: { name: 'x', colour: 'red' } } },
  ],
};
