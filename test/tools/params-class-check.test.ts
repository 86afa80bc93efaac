/**
 * A tool checks its params class when it is built, without building the JSON
 * Schema (that happens on first use): the error must be the one building the
 * schema gives, for each way a class can never validate, nested ones included.
 */
import 'reflect-metadata';

import { Type } from 'class-transformer';
import { IsInt, IsString, ValidateNested } from 'class-validator';

import { ConfigurationError, Describe, ToolDefinition, ToolResult } from 'affordance';
import { toJsonSchema } from 'affordance/provider';

import { catchError } from '../support/catch-error.js';

class Inner {
  @IsString() name!: string;
}
class Hollow {}
class UntypedNested {
  @ValidateNested() inner!: Inner;
}
class Undecorated {
  @IsString() name!: string;
  @Describe('Never validated') note?: string;
}
class WithHollow {
  @ValidateNested() @Type(() => Hollow) hollow!: Hollow;
}
// Two broken classes: the schema builder meets the one nested in the first field first.
class Deep {
  @IsInt() count!: number;
  @ValidateNested() @Type(() => WithHollow) deeper!: WithHollow;
}
class TwoBroken {
  @ValidateNested() @Type(() => Deep) first!: Deep;
  @ValidateNested() @Type(() => Undecorated) second!: Undecorated;
}
class SelfReferencing {
  @IsString() label!: string;
  @ValidateNested() @Type(() => SelfReferencing) child?: SelfReferencing;
  @ValidateNested() @Type(() => Hollow) empty!: Hollow;
}

const tool = (params: new () => object): ToolDefinition<object> =>
  new ToolDefinition<object>({
    name: 'check',
    description: 'Checks.',
    params,
    handler: () => ToolResult.ok(null),
  });

describe('A tool built with a params class that can never validate', () => {
  it.each([
    ['@ValidateNested() without @Type', UntypedNested, 'UntypedNested.inner'],
    ['a field without class-validator decorators', Undecorated, 'Undecorated.note'],
    ['a nested class without validated fields', WithHollow, 'Hollow'],
    ['two broken nested classes, the first met being deeper', TwoBroken, 'Hollow'],
    ['a class that refers to itself', SelfReferencing, 'Hollow'],
  ])('fails as its schema would: %s', (_what, params, subject) => {
    const whenBuilt = catchError(ConfigurationError, () => tool(params));
    const fromSchema = catchError(ConfigurationError, () => toJsonSchema(params));
    expect(whenBuilt.subject).toBe(subject);
    expect(whenBuilt.message).toBe(fromSchema.message);
  });

  it('is built when the class can validate, and its schema is made when asked for', () => {
    expect(tool(Inner).paramsType).toBe(Inner);
    expect(toJsonSchema(Inner).schema).toEqual({
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
      additionalProperties: false,
    });
  });
});
