import 'reflect-metadata';

import { Type } from 'class-transformer';
import {
  getMetadataStorage,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

import { validationMetadataOf } from '../../src/schema/validation-metadata.js';

class Base {
  @IsString() @MaxLength(10) name!: string;
  @IsInt() @Min(0) count!: number;
}

class Middle extends Base {
  // Redeclares `name` with a constraint of the same type: the base's MaxLength is replaced.
  @IsString() @MaxLength(20) override name = '';
  @IsOptional() @IsString() note?: string;
}

class Leaf extends Middle {
  @IsInt() @Max(5) level!: number;
}

class Holder {
  @ValidateNested() @Type(() => Leaf) leaf!: Leaf;
}

class Undecorated {}

class UndecoratedChild extends Leaf {}

describe('validationMetadataOf', () => {
  it.each([
    ['a class of its own', Base],
    ['a subclass redeclaring a field', Middle],
    ['a subclass two levels down', Leaf],
    ['a class holding a nested class', Holder],
    ['a class with no decorators', Undecorated],
    ['an undecorated subclass of decorated ones', UndecoratedChild],
  ])('finds what class-validator finds for %s, in the same order', (_label, cls) => {
    const expected = getMetadataStorage().getTargetValidationMetadatas(cls, '', false, false);
    expect(validationMetadataOf(cls)).toEqual(expected);
    expect(validationMetadataOf(cls).map((metadata) => metadata.target)).toEqual(
      expected.map((metadata) => metadata.target),
    );
  });

  it('keeps the subclass record where a field is redeclared with the same constraint type', () => {
    const lengths = validationMetadataOf(Middle).filter(
      (metadata) => metadata.propertyName === 'name' && metadata.name === 'maxLength',
    );
    expect(lengths.map((metadata): unknown => metadata.constraints)).toEqual([[20]]);
  });
});
