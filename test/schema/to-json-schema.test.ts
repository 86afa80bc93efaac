import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  ArrayUnique,
  Equals,
  IsArray,
  IsBoolean,
  IsDate,
  IsDateString,
  IsEmail,
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
  IsUrl,
  IsUUID,
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
import { toStrictJsonSchema } from 'openai/lib/transform';

import { Describe } from '../../src/decorators/describe.js';
import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import type { JsonSchema, SchemaProfile } from '../../src/schema/params-json-schema.js';
import { toJsonSchema } from '../../src/schema/to-json-schema.js';
import { catchError } from '../support/catch-error.js';
import { LookupParams } from './zoo/lookup-params.js';
import { OrderParams } from './zoo/order-params.js';

enum Colour {
  Red = 'red',
  Green = 'green',
}

enum Level {
  Low = 1,
  High = 2,
}

@ValidatorConstraint({ name: 'isPalindrome' })
class IsPalindrome implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && value.split('').reverse().join('') === value;
  }
}

/** A params class with one field, `value`, carrying `decorators` and no design type. */
function classWith(...decorators: PropertyDecorator[]): new () => object {
  class Probe {
    value!: unknown;
  }
  for (const decorator of decorators) decorator(Probe.prototype, 'value');
  return Probe;
}

function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  return schema['properties'] as Record<string, JsonSchema>;
}

function valueSchema(cls: new () => object, profile: SchemaProfile): JsonSchema | undefined {
  return propertiesOf(toJsonSchema(cls, profile).schema)['value'];
}

const strictMinMax =
  'enforced at runtime only: OpenAI strict mode does not support minLength/maxLength';
const custom = 'enforced at runtime only: JSON Schema has no keyword for this validator';

describe('toJsonSchema', () => {
  describe('mapping class-validator decorators', () => {
    it.each<[string, PropertyDecorator[], JsonSchema, JsonSchema?]>([
      ['IsString', [IsString()], { type: 'string' }],
      ['IsInt', [IsInt()], { type: 'integer' }],
      ['IsNumber', [IsNumber()], { type: 'number' }],
      ['IsBoolean', [IsBoolean()], { type: 'boolean' }],
      ['IsEnum of a string enum', [IsEnum(Colour)], { type: 'string', enum: ['red', 'green'] }],
      ['IsEnum of a numeric enum', [IsEnum(Level)], { type: 'integer', enum: [1, 2] }],
      ['IsIn of strings', [IsIn(['a', 'b'])], { type: 'string', enum: ['a', 'b'] }],
      ['IsIn of numbers', [IsIn([1, 2.5])], { type: 'number', enum: [1, 2.5] }],
      ['IsIn of mixed values', [IsIn(['a', 1])], { type: ['string', 'integer'], enum: ['a', 1] }],
      ['Equals', [Equals('v1')], { type: 'string', const: 'v1' }],
      [
        'IsInt with Min and Max',
        [IsInt(), Min(1), Max(9)],
        { type: 'integer', minimum: 1, maximum: 9 },
      ],
      ['Min alone', [Min(0)], { type: 'number', minimum: 0 }],
      ['IsPositive', [IsPositive()], { type: 'number', exclusiveMinimum: 0 }],
      ['IsNegative', [IsNegative()], { type: 'number', exclusiveMaximum: 0 }],
      [
        'MinLength',
        [IsString(), MinLength(2)],
        { type: 'string', minLength: 2 },
        { type: 'string' },
      ],
      ['MaxLength', [MaxLength(5)], { type: 'string', maxLength: 5 }, { type: 'string' }],
      [
        'Length',
        [Length(2, 4)],
        { type: 'string', minLength: 2, maxLength: 4 },
        { type: 'string' },
      ],
      ['Matches', [Matches(/^a+$/)], { type: 'string', pattern: '^a+$' }],
      ['IsEmail', [IsEmail()], { type: 'string', format: 'email' }],
      ['IsUrl', [IsUrl()], { type: 'string', format: 'uri' }, { type: 'string' }],
      ['IsUUID', [IsUUID()], { type: 'string', format: 'uuid' }],
      ['IsDateString', [IsDateString()], { type: 'string', format: 'date-time' }],
      [
        'IsNotEmpty on a string',
        [IsString(), IsNotEmpty()],
        { type: 'string', minLength: 1 },
        { type: 'string' },
      ],
      [
        'IsArray with each-validators and array sizes',
        [
          IsArray(),
          IsInt({ each: true }),
          Min(0, { each: true }),
          ArrayMinSize(1),
          ArrayMaxSize(3),
          ArrayUnique(),
        ],
        {
          type: 'array',
          items: { type: 'integer', minimum: 0 },
          minItems: 1,
          maxItems: 3,
          uniqueItems: true,
        },
        { type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 1, maxItems: 3 },
      ],
      [
        'ArrayNotEmpty',
        [ArrayNotEmpty(), IsString({ each: true })],
        { type: 'array', items: { type: 'string' }, minItems: 1 },
      ],
    ])('should map %s', (_name, decorators, standard, strict = standard) => {
      const cls = classWith(...decorators);
      expect(valueSchema(cls, 'standard')).toEqual(standard);
      expect(valueSchema(cls, 'openai-strict')).toEqual(strict);
    });

    it('should keep the tightest of repeated bounds', () => {
      const cls = classWith(Min(1), Min(3), Max(10), Max(7), IsPositive());
      expect(valueSchema(cls, 'standard')).toEqual({
        type: 'number',
        minimum: 3,
        exclusiveMinimum: 0,
        maximum: 7,
      });
    });

    it('should nest classes in $defs, arrays of classes included', () => {
      const schema = toJsonSchema(OrderParams).schema;
      const properties = propertiesOf(schema);
      expect(properties['shipping']).toEqual({
        description: 'Where to ship the order',
        $ref: '#/$defs/Address',
      });
      expect(properties['items']?.['items']).toEqual({ $ref: '#/$defs/LineItem' });
      expect(Object.keys(schema['$defs'] as object)).toEqual(['Address', 'LineItem']);
    });

    it('should fall back on design:type when no validator gives a type', () => {
      class Typed {
        @Allow() name!: string;
        @Allow() count!: number;
        @Allow() flag!: boolean;
      }
      expect(propertiesOf(toJsonSchema(Typed).schema)).toEqual({
        name: { type: 'string' },
        count: { type: 'number' },
        flag: { type: 'boolean' },
      });
    });

    it('should put @Describe texts in description', () => {
      expect(propertiesOf(toJsonSchema(LookupParams).schema)['entityId']).toEqual({
        description: 'Global identifier to fetch',
        type: 'string',
      });
    });

    it('should list base-class fields first', () => {
      class Base {
        @IsString() id!: string;
      }
      class Derived extends Base {
        @IsInt() count!: number;
      }
      expect(Object.keys(propertiesOf(toJsonSchema(Derived).schema))).toEqual(['id', 'count']);
    });

    it('should give two nested classes with the same name distinct $defs entries', () => {
      const First = classWith(IsString());
      const Second = classWith(IsInt());
      class Pair {
        @ValidateNested() @Type(() => First) first!: object;
        @ValidateNested() @Type(() => Second) second!: object;
      }
      const schema = toJsonSchema(Pair).schema;
      expect(propertiesOf(schema)).toEqual({
        first: { $ref: '#/$defs/Probe' },
        second: { $ref: '#/$defs/Probe2' },
      });
    });
  });

  describe('required, optional and nullable fields', () => {
    class Fields {
      @IsString() plain!: string;
      @IsOptional() @IsString() optional?: string;
      @ValidateIf((o: Fields) => o.nullable !== null) @IsString() nullable!: string | null;
      @ValidateIf((o: Fields) => o.plain === 'x') @IsString() conditional?: string;
      @IsOptional() @IsEnum(Colour) colour?: Colour;
      @IsInt() withDefault = 3;
    }

    it('should require what the parser requires in the standard profile', () => {
      const schema = toJsonSchema(Fields, 'standard').schema;
      expect(schema['required']).toEqual(['plain', 'nullable']);
      expect(propertiesOf(schema)).toEqual({
        plain: { type: 'string' },
        optional: { type: 'string' },
        nullable: { type: ['string', 'null'] },
        conditional: { type: 'string' },
        colour: { type: 'string', enum: ['red', 'green'] },
        withDefault: { type: 'integer', default: 3 },
      });
    });

    it('should require every field and make optional ones nullable in the openai-strict profile', () => {
      const schema = toJsonSchema(Fields, 'openai-strict').schema;
      expect(schema['required']).toEqual([
        'plain',
        'optional',
        'nullable',
        'conditional',
        'colour',
        'withDefault',
      ]);
      expect(propertiesOf(schema)).toEqual({
        plain: { type: 'string' },
        optional: { type: ['string', 'null'] },
        nullable: { type: ['string', 'null'] },
        conditional: { type: 'string' },
        colour: { type: ['string', 'null'], enum: ['red', 'green', null] },
        withDefault: { type: 'integer' },
      });
    });

    it('should report a @ValidateIf on other fields as unexpressed', () => {
      expect(toJsonSchema(Fields).unexpressed).toEqual([
        {
          path: 'conditional',
          constraint: 'validateIf',
          reason:
            'validated only when its @ValidateIf condition on other fields holds; the schema shows the validated form and does not require the field',
        },
      ]);
    });

    it('should write a tool without params as an empty object that allows no properties', () => {
      class NoParams {}
      expect(toJsonSchema(NoParams).schema).toEqual({
        type: 'object',
        properties: {},
        additionalProperties: false,
      });
    });
  });

  describe('what a schema cannot say', () => {
    it('should report what the openai-strict profile drops', () => {
      const cls = classWith(IsString(), MinLength(2), MaxLength(9), IsUrl());
      expect(toJsonSchema(cls, 'standard').unexpressed).toEqual([]);
      expect(toJsonSchema(cls, 'openai-strict').unexpressed).toEqual([
        { path: 'value', constraint: 'minLength', reason: strictMinMax },
        { path: 'value', constraint: 'maxLength', reason: strictMinMax },
        {
          path: 'value',
          constraint: 'isUrl',
          reason: 'enforced at runtime only: OpenAI strict mode does not support format "uri"',
        },
      ]);
    });

    it('should report ArrayUnique in openai-strict with the item path syntax for item constraints', () => {
      const cls = classWith(
        IsArray(),
        ArrayUnique(),
        IsString({ each: true }),
        IsNotEmpty({ each: true }),
      );
      expect(toJsonSchema(cls, 'openai-strict').unexpressed).toEqual([
        {
          path: 'value[]',
          constraint: 'isNotEmpty',
          reason: 'enforced at runtime only: OpenAI strict mode does not support minLength',
        },
        {
          path: 'value',
          constraint: 'arrayUnique',
          reason: 'enforced at runtime only: OpenAI strict mode does not support uniqueItems',
        },
      ]);
    });

    it.each<[string, PropertyDecorator[], JsonSchema, string, string]>([
      [
        'a custom validator',
        [IsString(), Validate(IsPalindrome)],
        { type: 'string' },
        'isPalindrome',
        custom,
      ],
      [
        'a pattern with flags',
        [Matches(/^a+$/i)],
        { type: 'string' },
        'matches',
        'enforced at runtime only: the pattern uses flags (i) JSON Schema cannot express',
      ],
      [
        'a UUID version',
        [IsUUID('4')],
        { type: 'string', format: 'uuid' },
        'isUuid',
        'enforced at runtime only: the schema says format "uuid" but not the version ("4")',
      ],
      [
        'decimal places',
        [IsNumber({ maxDecimalPlaces: 2 })],
        { type: 'number' },
        'isNumber',
        'enforced at runtime only: JSON Schema cannot limit decimal places exactly',
      ],
      [
        'IsDate without a Date conversion',
        [IsDate()],
        { type: 'string', format: 'date-time' },
        'isDate',
        'fails for every JSON value: add @Type(() => Date) so the ISO string is converted to a Date',
      ],
    ])('should report %s in both profiles', (_name, decorators, schema, constraint, reason) => {
      const cls = classWith(...decorators);
      for (const profile of ['standard', 'openai-strict'] as const) {
        const result = toJsonSchema(cls, profile);
        expect(valueSchema(cls, profile)).toEqual(schema);
        expect(result.unexpressed).toEqual([{ path: 'value', constraint, reason }]);
        expect(result.strictCompatible).toBe(true);
      }
    });

    it('should map IsDate with @Type(() => Date) without a report', () => {
      class When {
        @IsDate() @Type(() => Date) at!: Date;
      }
      const result = toJsonSchema(When);
      expect(propertiesOf(result.schema)['at']).toEqual({ type: 'string', format: 'date-time' });
      expect(result.unexpressed).toEqual([]);
    });

    it('should emit {} for a field of unknown type and block strict mode', () => {
      class Untyped {
        @Allow() meta!: Record<string, unknown>;
      }
      for (const profile of ['standard', 'openai-strict'] as const) {
        const result = toJsonSchema(Untyped, profile);
        expect(propertiesOf(result.schema)['meta']).toEqual({});
        expect(result.strictCompatible).toBe(false);
        expect(result.strictBlockers).toEqual([
          {
            path: 'meta',
            constraint: 'type',
            reason:
              'has no type: no validator gives one and its design type is Object; add @IsString(), @IsInt(), @IsEnum(), @ValidateNested() with @Type() or similar',
          },
        ]);
      }
    });

    it('should block strict mode for free-form objects and untyped array items', () => {
      expect(toJsonSchema(classWith(IsObject())).strictBlockers.map((b) => b.path)).toEqual([
        'value',
      ]);
      expect(valueSchema(classWith(IsObject()), 'standard')).toEqual({ type: 'object' });
      const list = classWith(IsArray());
      expect(valueSchema(list, 'standard')).toEqual({ type: 'array', items: {} });
      expect(toJsonSchema(list).strictBlockers.map((b) => [b.path, b.constraint])).toEqual([
        ['value[]', 'type'],
      ]);
    });

    it('should report IsNotEmpty when the field has no type to restrict', () => {
      const result = toJsonSchema(classWith(IsNotEmpty()));
      expect(result.schema['properties']).toEqual({ value: {} });
      expect(result.unexpressed.map((gap) => gap.constraint)).toEqual(['isNotEmpty']);
    });
  });

  describe('misconfigured classes', () => {
    it('should reject @ValidateNested() without @Type', () => {
      class Inner {
        @IsString() name!: string;
      }
      class Outer {
        @ValidateNested() inner!: Inner;
      }
      const error = catchError(ConfigurationError, () => toJsonSchema(Outer));
      expect(error.subject).toBe('Outer.inner');
      expect(error.fix).toBe('Add @Type(() => Inner) from class-transformer to the field.');
    });

    it('should reject a field without class-validator decorators', () => {
      class Described {
        @IsString() name!: string;
        @Describe('Never validated') note?: string;
      }
      const error = catchError(ConfigurationError, () => toJsonSchema(Described));
      expect(error.subject).toBe('Described.note');
      expect(error.problem).toMatch(/has no class-validator decorator/);
    });

    it('should reject a nested class without validated fields', () => {
      class Hollow {}
      class Outer {
        @ValidateNested() @Type(() => Hollow) hollow!: Hollow;
      }
      expect(catchError(ConfigurationError, () => toJsonSchema(Outer)).subject).toBe('Hollow');
    });
  });

  describe('caching', () => {
    it('should return the same frozen result for the same class and profile', () => {
      const first = toJsonSchema(OrderParams, 'openai-strict');
      expect(toJsonSchema(OrderParams, 'openai-strict')).toBe(first);
      expect(toJsonSchema(OrderParams, 'standard')).not.toBe(first);
      expect(Object.isFrozen(first)).toBe(true);
      expect(Object.isFrozen(first.schema)).toBe(true);
      expect(Object.isFrozen(propertiesOf(first.schema)['items']?.['items'])).toBe(true);
      expect(Object.isFrozen(first.unexpressed[0])).toBe(true);
    });
  });

  describe('the openai SDK strict transform', () => {
    it('should accept the strict schema unchanged but rewrite or reject the standard one', () => {
      const strict = toJsonSchema(OrderParams, 'openai-strict').schema;
      const standard = toJsonSchema(OrderParams, 'standard').schema;
      type Input = Parameters<typeof toStrictJsonSchema>[0];
      expect(toStrictJsonSchema(structuredClone(strict) as Input)).toEqual(strict);
      expect(() => toStrictJsonSchema(structuredClone(standard) as Input)).toThrow(
        /uses `\.optional\(\)` without `\.nullable\(\)`/,
      );
    });
  });
});
