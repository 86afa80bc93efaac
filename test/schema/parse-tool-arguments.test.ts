import { Transform, Type } from 'class-transformer';
import {
  Allow,
  IsInt,
  IsString,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';

import { ToolValidationError } from '../../src/core/errors/tool-validation-error.js';
import { parseToolArguments } from '../../src/schema/parse-tool-arguments.js';
import { catchRejection } from '../support/catch-error.js';
import { ContactParams } from './zoo/contact-params.js';
import { EmptyParams } from './zoo/empty-params.js';
import { LookupParams } from './zoo/lookup-params.js';
import { Address, LineItem, OrderParams, Priority } from './zoo/order-params.js';
import { TreeParams } from './zoo/tree-params.js';

const shipping = { street: '1 Main St', zip: '12345' };
const item = { name: 'widget', quantity: 2 };
const order = { shipping, items: [item], status: 'draft', coupon: null };

async function issuesOf(
  params: new () => object,
  raw: unknown,
  options: Parameters<typeof parseToolArguments>[2] = {},
): Promise<ToolValidationError['issues']> {
  const error = await catchRejection(ToolValidationError, () =>
    parseToolArguments(params, raw, options),
  );
  return error.issues;
}

class StrictCounter {
  @IsInt() count!: number;
}

class Freeform {
  @IsString() name!: string;
  @Allow() meta!: unknown;
}

class Throwing {
  @IsString() name!: string;

  constructor() {
    if (Throwing.armed) throw new Error('constructor exploded');
  }

  static armed = false;
}

@ValidatorConstraint({ name: 'explodes' })
class ExplodingConstraint implements ValidatorConstraintInterface {
  validate(): boolean {
    throw new Error('validator exploded');
  }
}

class WithExplodingValidator {
  @Validate(ExplodingConstraint) value!: string;
}

class WithExplodingTransform {
  @Transform(() => {
    throw new Error('transform exploded');
  })
  @IsString()
  value!: string;
}

@ValidatorConstraint({ name: 'isTaken', async: true })
class IsTakenConstraint implements ValidatorConstraintInterface {
  async validate(value: unknown): Promise<boolean> {
    await Promise.resolve();
    return value !== 'taken';
  }

  defaultMessage(): string {
    return '$property is already taken';
  }
}

class Signup {
  @IsString() @Validate(IsTakenConstraint) username!: string;
}

class Nullables {
  @ValidateIf((o: Nullables) => o.required !== null) @IsString() required!: string | null;
  @ValidateIf((o: Nullables) => o.either != null) @IsString() either?: string | null;
}

class Quoted {
  @IsString() name!: string;
}

class Wrapper {
  @ValidateNested() @Type(() => Quoted) inner!: Quoted;
}

describe('parseToolArguments', () => {
  describe('decoding', () => {
    it('should parse JSON text into an instance of the params class', async () => {
      const parsed = await parseToolArguments(LookupParams, '{"entityId":"e-1"}');
      expect(parsed).toBeInstanceOf(LookupParams);
      expect(parsed.entityId).toBe('e-1');
    });

    it('should accept an already-decoded object without changing it', async () => {
      const raw = { entityId: 'e-1', includeRelated: true };
      const parsed = await parseToolArguments(LookupParams, raw);
      expect(parsed).toBeInstanceOf(LookupParams);
      expect(parsed.includeRelated).toBe(true);
      expect(raw).toEqual({ entityId: 'e-1', includeRelated: true });
    });

    it('should build nested class instances, arrays of them included', async () => {
      const parsed = await parseToolArguments(OrderParams, JSON.stringify(order));
      expect(parsed.shipping).toBeInstanceOf(Address);
      expect(parsed.items[0]).toBeInstanceOf(LineItem);
    });

    it('should report text that is not JSON with the parser message', async () => {
      const issues = await issuesOf(LookupParams, '{"ci');
      expect(issues).toHaveLength(1);
      expect(issues[0]?.path).toBe('');
      expect(issues[0]?.message).toMatch(/^Arguments are not valid JSON: \S/);
    });

    it.each([
      ['[1,2]', 'an array'],
      ['null', 'null'],
      ['"text"', 'a string'],
      ['42', 'a number'],
      ['true', 'a boolean'],
    ])('should reject %s as not a JSON object', async (raw, kind) => {
      expect(await issuesOf(LookupParams, raw)).toEqual([
        { path: '', message: `Arguments must be a JSON object; got ${kind}.` },
      ]);
    });

    it('should reject decoded values that are not plain objects', async () => {
      expect(await issuesOf(LookupParams, new Map([['entityId', 'e-1']]))).toEqual([
        { path: '', message: 'Arguments must be a JSON object; got a Map object.' },
      ]);
      expect(await issuesOf(LookupParams, [])).toEqual([
        { path: '', message: 'Arguments must be a JSON object; got an array.' },
      ]);
    });

    it('should treat empty text and undefined as an empty object', async () => {
      expect(await issuesOf(LookupParams, '  ')).toEqual([
        { path: 'entityId', message: 'is required' },
      ]);
      expect(await issuesOf(LookupParams, undefined)).toEqual([
        { path: 'entityId', message: 'is required' },
      ]);
    });

    it('should name the params class on the error', async () => {
      const error = await catchRejection(ToolValidationError, () =>
        parseToolArguments(LookupParams, '{}'),
      );
      expect(error.paramsType).toBe(LookupParams);
      expect(error.message).toBe('entityId: is required');
    });
  });

  describe('a params class without fields', () => {
    it.each([['{}'], [''], [undefined], [{}]])('should accept %p', async (raw) => {
      expect(await parseToolArguments(EmptyParams, raw)).toBeInstanceOf(EmptyParams);
    });

    it.each([['{"a":1}'], ['{"__proto__":{}}'], [{ a: undefined, b: null }]])(
      'should reject %p with exactly the no-arguments message',
      async (raw) => {
        const error = await catchRejection(ToolValidationError, () =>
          parseToolArguments(EmptyParams, raw),
        );
        expect(error.message).toBe('Tool does not accept any arguments.');
        expect(error.issues).toEqual([
          { path: '', message: 'Tool does not accept any arguments.' },
        ]);
      },
    );
  });

  describe('unknown keys', () => {
    it('should reject unknown keys and list the accepted fields', async () => {
      expect(await issuesOf(LookupParams, { entityId: 'e-1', extra: 1 })).toEqual([
        { path: 'extra', message: 'unknown field (accepted fields: entityId, includeRelated)' },
      ]);
    });

    it('should reject unknown keys inside nested objects and arrays of nested objects', async () => {
      const issues = await issuesOf(OrderParams, {
        ...order,
        shipping: { ...shipping, country: 'US' },
        items: [item, { ...item, colour: 'red' }],
      });
      expect(issues).toEqual([
        { path: 'shipping.country', message: 'unknown field (accepted fields: street, zip, city)' },
        { path: 'items[1].colour', message: 'unknown field (accepted fields: name, quantity)' },
      ]);
    });

    it('should quote keys that are not identifiers in the path', async () => {
      expect(await issuesOf(Wrapper, { inner: { name: 'x', 'a b': 1 } })).toEqual([
        { path: 'inner["a b"]', message: 'unknown field (accepted fields: name)' },
      ]);
    });
  });

  describe('reserved keys', () => {
    afterEach(() => {
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });

    it.each(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'])(
      'should report %s as an unknown key at the top level and in nested objects',
      async (key) => {
        const raw = `{"entityId":"e-1","${key}":{"polluted":true}}`;
        expect(await issuesOf(LookupParams, raw)).toEqual([
          { path: key, message: 'unknown field (accepted fields: entityId, includeRelated)' },
        ]);
        const nested = `{"inner":{"name":"x","${key}":{"polluted":true}}}`;
        expect(await issuesOf(Wrapper, nested)).toEqual([
          { path: `inner.${key}`, message: 'unknown field (accepted fields: name)' },
        ]);
      },
    );

    it('should report __proto__ inside a free-form value instead of copying it', async () => {
      const raw = '{"name":"x","meta":{"ok":1,"deep":[{"__proto__":{"polluted":true}}]}}';
      expect(await issuesOf(Freeform, raw)).toEqual([
        {
          path: 'meta.deep[0].__proto__',
          message: "unknown field: '__proto__' is a reserved name and is never accepted",
        },
      ]);
    });

    it('should keep the prototype of the instance when an own __proto__ key is decoded', async () => {
      const raw = JSON.parse('{"entityId":"e-1","__proto__":{"entityId":5}}') as unknown;
      await expect(parseToolArguments(LookupParams, raw)).rejects.toThrow(
        '__proto__: unknown field',
      );
      const parsed = await parseToolArguments(Freeform, { name: 'x', meta: { a: 1 } });
      expect(Object.getPrototypeOf(parsed)).toBe(Freeform.prototype);
      expect(parsed.meta).toEqual({ a: 1 });
    });
  });

  describe('validation', () => {
    it('should report every problem at once, each with its path', async () => {
      const issues = await issuesOf(OrderParams, {
        shipping: { street: 1, zip: '1234' },
        items: [item, item, { name: 7, quantity: 0 }],
        status: 'lost',
        coupon: null,
      });
      expect(issues).toEqual([
        { path: 'shipping.street', message: 'must be a string' },
        { path: 'shipping.zip', message: 'must match /^\\d{5}$/ regular expression' },
        { path: 'items[2].name', message: 'must be shorter than or equal to 60 characters' },
        { path: 'items[2].name', message: 'must be a string' },
        { path: 'items[2].quantity', message: 'must not be less than 1' },
        { path: 'status', message: 'must be one of the following values: draft, placed, shipped' },
      ]);
    });

    it('should report a missing required field once, as required', async () => {
      expect(await issuesOf(OrderParams, { ...order, shipping: { zip: '12345' } })).toEqual([
        { path: 'shipping.street', message: 'is required' },
      ]);
    });

    it('should require a nested field that class-validator alone would let through when absent', async () => {
      const { shipping: _omitted, ...rest } = order;
      expect(await issuesOf(OrderParams, rest)).toEqual([
        { path: 'shipping', message: 'is required' },
      ]);
    });

    it('should never convert implicitly: "5" is not an integer', async () => {
      expect(await issuesOf(StrictCounter, { count: '5' })).toEqual([
        { path: 'count', message: 'must be an integer number' },
      ]);
    });

    it('should reject the member names TypeScript adds to numeric enums', async () => {
      expect(await issuesOf(OrderParams, { ...order, priority: 'Low' })).toEqual([
        { path: 'priority', message: 'must be one of the following values: 1, 2, 3' },
      ]);
      const parsed = await parseToolArguments(OrderParams, { ...order, priority: 3 });
      expect(parsed.priority).toBe(Priority.Urgent);
    });

    it('should reject an array where an object is expected, and the reverse', async () => {
      expect(await issuesOf(OrderParams, { ...order, shipping: [shipping] })).toEqual([
        { path: 'shipping', message: 'must be an object, not an array' },
      ]);
      expect(await issuesOf(OrderParams, { ...order, items: item })).toEqual([
        { path: 'items', message: 'must be an array' },
        { path: 'items', message: 'must contain no more than 20 elements' },
        { path: 'items', message: 'must contain at least 1 elements' },
      ]);
      expect(await issuesOf(OrderParams, { ...order, items: [[item]] })).toEqual([
        { path: 'items[0]', message: 'must be an object, not an array' },
      ]);
    });

    it('should reject a primitive where a nested object is expected', async () => {
      expect(await issuesOf(OrderParams, { ...order, shipping: 'home' })).toEqual([
        { path: 'shipping', message: 'must be an object' },
      ]);
      expect(await issuesOf(OrderParams, { ...order, items: ['widget'] })).toEqual([
        { path: 'items[0]', message: 'must be an object' },
      ]);
    });

    it('should report each-validators on the array without the property name', async () => {
      expect(await issuesOf(OrderParams, { ...order, tags: ['ok', 5] })).toEqual([
        { path: 'tags', message: 'each value must be shorter than or equal to 15 characters' },
        { path: 'tags', message: 'each value must be a string' },
      ]);
      expect(await issuesOf(OrderParams, { ...order, tags: ['a', 'a'] })).toEqual([
        { path: 'tags', message: 'must not contain duplicates' },
      ]);
    });

    it('should validate recursive classes at every depth', async () => {
      expect(
        await issuesOf(TreeParams, {
          label: 'r',
          children: [{ label: 'a', children: [{ label: 3 }] }],
        }),
      ).toEqual([{ path: 'children[0].children[0].label', message: 'must be a string' }]);
    });

    it('should run asynchronous validators', async () => {
      expect(await issuesOf(Signup, { username: 'taken' })).toEqual([
        { path: 'username', message: 'is already taken' },
      ]);
      await expect(parseToolArguments(Signup, { username: 'free' })).resolves.toBeInstanceOf(
        Signup,
      );
    });
  });

  describe('optional and nullable fields', () => {
    it('should accept an absent optional field and keep default values', async () => {
      const parsed = await parseToolArguments(ContactParams, {
        id: '8a1c3a86-2f43-4c59-9a57-3d5d3f7e1b2c',
        email: 'ada@example.com',
        name: 'Ada',
        country: 'GB',
        since: '2024-05-01',
        age: 36,
        score: 1,
        debt: -1,
        channel: 'post',
        version: 'v1',
      });
      expect(parsed.bio).toBeUndefined();
      expect(parsed.pageSize).toBe(20);
    });

    it('should pass null for an @IsOptional() field through in the standard profile', async () => {
      const parsed = await parseToolArguments(LookupParams, {
        entityId: 'e',
        includeRelated: null,
      });
      expect(parsed.includeRelated).toBeNull();
    });

    it('should turn null for an optional field into absent in the openai-strict profile', async () => {
      const parsed = await parseToolArguments(
        LookupParams,
        { entityId: 'e', includeRelated: null },
        { profile: 'openai-strict' },
      );
      expect(parsed.includeRelated).toBeUndefined();
    });

    it('should accept null but require presence for a nullable-but-required field', async () => {
      const parsed = await parseToolArguments(Nullables, { required: null });
      expect(parsed.required).toBeNull();
      expect(await issuesOf(Nullables, {})).toEqual([{ path: 'required', message: 'is required' }]);
      expect(await issuesOf(Nullables, { required: 5 })).toEqual([
        { path: 'required', message: 'must be a string' },
      ]);
    });

    it('should keep null for a nullable-but-required field in the openai-strict profile', async () => {
      const parsed = await parseToolArguments(
        Nullables,
        { required: null, either: null },
        { profile: 'openai-strict' },
      );
      expect(parsed.required).toBeNull();
      expect(parsed.either).toBeUndefined();
    });

    it('should report null for a required field', async () => {
      expect(await issuesOf(LookupParams, { entityId: null })).toEqual([
        { path: 'entityId', message: 'must be a string' },
      ]);
    });
  });

  describe('robustness', () => {
    it('should reject values nested deeper than 64 levels', async () => {
      let deep: unknown = 'bottom';
      for (let i = 0; i < 100; i++) deep = [deep];
      const issues = await issuesOf(Freeform, { name: 'x', meta: deep });
      expect(issues).toHaveLength(1);
      expect(issues[0]?.message).toBe('is nested too deeply (more than 64 levels)');
      expect(issues[0]?.path).toMatch(/^meta(\[0\])+$/);
    });

    it('should reject decoded values that are not JSON data', async () => {
      expect(await issuesOf(Freeform, { name: 'x', meta: { when: new Date(0), big: 1n } })).toEqual(
        [
          { path: 'meta.when', message: 'must be JSON data; got a Date' },
          { path: 'meta.big', message: 'must be JSON data; got a bigint' },
        ],
      );
    });

    it('should turn a throwing constructor into a ToolValidationError with the cause', async () => {
      Throwing.armed = true;
      try {
        const error = await catchRejection(ToolValidationError, () =>
          parseToolArguments(Throwing, { name: 'x' }),
        );
        expect(error.message).toBe('Arguments could not be converted: constructor exploded');
        expect((error.cause as Error).message).toBe('constructor exploded');
      } finally {
        Throwing.armed = false;
      }
    });

    it('should turn a throwing transform or validator into a ToolValidationError', async () => {
      await expect(parseToolArguments(WithExplodingTransform, { value: 'x' })).rejects.toThrow(
        'Arguments could not be converted: transform exploded',
      );
      await expect(parseToolArguments(WithExplodingValidator, { value: 'x' })).rejects.toThrow(
        'Arguments could not be validated: validator exploded',
      );
    });

    it('should turn a throwing getter on a decoded value into a ToolValidationError', async () => {
      const hostile = {
        get entityId(): string {
          throw new Error('getter exploded');
        },
      };
      const error = await catchRejection(ToolValidationError, () =>
        parseToolArguments(LookupParams, hostile),
      );
      expect(error.message).toBe('Arguments could not be validated: getter exploded');
    });
  });
});
