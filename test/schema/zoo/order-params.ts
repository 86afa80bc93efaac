import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsEnum,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

import { Describe } from '../../../src/decorators/describe.js';
import type { ZooEntry } from './zoo-entry.js';

export enum OrderStatus {
  Draft = 'draft',
  Placed = 'placed',
  Shipped = 'shipped',
}

export enum Priority {
  Low = 1,
  Normal = 2,
  Urgent = 3,
}

export class Address {
  @Describe('Street and number') @IsString() street!: string;
  @Describe('Five-digit postal code') @Matches(/^\d{5}$/) zip!: string;
  @IsOptional() @IsString() @MaxLength(40) city?: string;
}

export class LineItem {
  @IsString() @MaxLength(60) name!: string;
  @IsInt() @Min(1) quantity!: number;
}

/** Nested objects, arrays of classes, string and numeric enums, optional and nullable fields. */
export class OrderParams {
  @Describe('Where to ship the order') @ValidateNested() @Type(() => Address) shipping!: Address;

  @IsOptional() @ValidateNested() @Type(() => Address) billing?: Address;

  @Describe('What to ship')
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => LineItem)
  items!: LineItem[];

  @IsEnum(OrderStatus) status!: OrderStatus;

  @IsOptional() @IsEnum(Priority) priority?: Priority;

  @Describe('Coupon to apply; null for none')
  @ValidateIf((o: OrderParams) => o.coupon !== null)
  @IsString()
  coupon!: string | null;

  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsString({ each: true })
  @MaxLength(15, { each: true })
  tags?: string[];
}

const shipping = { street: '1 Main St', zip: '12345' };
const item = { name: 'widget', quantity: 2 };

export const orderZoo: ZooEntry = {
  name: 'order',
  params: OrderParams,
  valid: [
    { shipping, items: [item], status: 'draft', coupon: null },
    {
      shipping: { ...shipping, city: 'Springfield' },
      billing: shipping,
      items: [item, { name: 'gadget', quantity: 1 }],
      status: 'shipped',
      priority: 3,
      coupon: 'SAVE10',
      tags: ['gift', 'fragile'],
    },
  ],
  invalid: [
    { items: [item], status: 'draft', coupon: null },
    { shipping, items: [item], status: 'draft' },
    {
      shipping: { street: '1 Main St', zip: '1234' },
      items: [item],
      status: 'draft',
      coupon: null,
    },
    { shipping: { ...shipping, extra: true }, items: [item], status: 'draft', coupon: null },
    { shipping, items: [], status: 'draft', coupon: null },
    { shipping, items: [{ name: 'widget', quantity: 0 }], status: 'draft', coupon: null },
    { shipping, items: [{ name: 'widget', quantity: 1.5 }], status: 'draft', coupon: null },
    { shipping, items: [{ ...item, colour: 'red' }], status: 'draft', coupon: null },
    { shipping, items: [item], status: 'lost', coupon: null },
    { shipping, items: [item], status: 'draft', priority: 4, coupon: null },
    { shipping, items: [item], status: 'draft', priority: 'Low', coupon: null },
    { shipping, items: [item], status: 'draft', coupon: 5 },
    { shipping, items: [item], status: 'draft', coupon: null, tags: ['a', 'a'] },
    { shipping, items: [item], status: 'draft', coupon: null, tags: ['a-very-long-tag-indeed'] },
    { shipping, items: item, status: 'draft', coupon: null },
    { shipping: [shipping], items: [item], status: 'draft', coupon: null },
  ],
};
