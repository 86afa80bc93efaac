/**
 * Per-call cost of turning a tool call's JSON arguments into a validated
 * params instance: affordance's parseToolArguments against the same
 * class-transformer + class-validator calls made by hand, and against zod 4
 * with an equivalent schema. Also the JSON Schema of the class, cached and not.
 *
 * The schema functions are imported from their modules (they are public in
 * `affordance/provider`), as the other benches import the sources.
 */
import 'reflect-metadata';

import { plainToInstance, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDateString,
  IsEnum,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  validate,
  validateSync,
  ValidateNested,
} from 'class-validator';
import { z } from 'zod';

import { buildJsonSchema } from '../../src/schema/build-json-schema.js';
import { parseToolArguments } from '../../src/schema/parse-tool-arguments.js';
import { parseToolArgumentsSync } from '../../src/schema/parse-tool-arguments-sync.js';
import { analyseParamsClass } from '../../src/schema/params-shape.js';
import { toJsonSchema } from '../../src/schema/to-json-schema.js';
import { compare, measure, printTable } from './measure.js';

enum Sort {
  Relevance = 'relevance',
  Newest = 'newest',
  Oldest = 'oldest',
}

class DateRange {
  @IsDateString() from!: string;
  @IsDateString() to!: string;
}

class SearchParams {
  @IsString() @MinLength(1) @MaxLength(200) query!: string;
  @Matches(/^[a-z]{2}-[A-Z]{2}$/) locale!: string;
  @IsInt() @Min(1) @Max(100) limit!: number;
  @IsEnum(Sort) sort!: Sort;
  @IsOptional() @IsBoolean() includeArchived?: boolean;
  @ValidateNested() @Type(() => DateRange) range!: DateRange;
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @MaxLength(30, { each: true })
  tags!: string[];
}

const searchSchema = z.strictObject({
  query: z.string().min(1).max(200),
  locale: z.string().regex(/^[a-z]{2}-[A-Z]{2}$/),
  limit: z.int().min(1).max(100),
  sort: z.enum(Sort),
  includeArchived: z.boolean().optional(),
  range: z.strictObject({ from: z.iso.datetime(), to: z.iso.datetime() }),
  tags: z.array(z.string().max(30)).max(10),
});

const text = JSON.stringify({
  query: 'quarterly revenue by region',
  locale: 'en-GB',
  limit: 20,
  sort: 'newest',
  includeArchived: false,
  range: { from: '2024-01-01T00:00:00Z', to: '2024-03-31T23:59:59Z' },
  tags: ['finance', 'emea', 'q1'],
});

const validatorOptions = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true };

async function byHand(): Promise<SearchParams> {
  const instance = plainToInstance(SearchParams, JSON.parse(text) as object);
  const errors = await validate(instance, validatorOptions);
  if (errors.length > 0) throw new Error('invalid');
  return instance;
}

function byHandSync(): SearchParams {
  const instance = plainToInstance(SearchParams, JSON.parse(text) as object);
  if (validateSync(instance, validatorOptions).length > 0) throw new Error('invalid');
  return instance;
}

function withZod(): z.infer<typeof searchSchema> {
  return searchSchema.parse(JSON.parse(text));
}

/** Three fields. */
class Small {
  @IsString() @MaxLength(100) name!: string;
  @IsInt() @Min(0) @Max(150) age!: number;
  @IsOptional() @IsBoolean() active?: boolean;
}
const smallSchema = z.strictObject({
  name: z.string().max(100),
  age: z.int().min(0).max(150),
  active: z.boolean().optional(),
});
const smallText = JSON.stringify({ name: 'Ada', age: 36, active: true });

/** Thirty fields: ten strings, ten integers, ten booleans. */
class Wide {}
const wideShape: Record<string, z.ZodType> = {};
const wideValue: Record<string, unknown> = {};
for (let index = 0; index < 10; index++) {
  IsString()(Wide.prototype, `s${index}`);
  MaxLength(50)(Wide.prototype, `s${index}`);
  IsInt()(Wide.prototype, `n${index}`);
  Min(0)(Wide.prototype, `n${index}`);
  IsBoolean()(Wide.prototype, `b${index}`);
  wideShape[`s${index}`] = z.string().max(50);
  wideShape[`n${index}`] = z.int().min(0);
  wideShape[`b${index}`] = z.boolean();
  wideValue[`s${index}`] = `value ${index}`;
  wideValue[`n${index}`] = index;
  wideValue[`b${index}`] = index % 2 === 0;
}
const wideSchema = z.strictObject(wideShape);
const wideText = JSON.stringify(wideValue);

/** Nested three levels: an order with a customer with an address. */
class Address {
  @IsString() @MinLength(1) street!: string;
  @IsString() @MinLength(1) city!: string;
}
class Customer {
  @IsString() name!: string;
  @ValidateNested() @Type(() => Address) address!: Address;
}
class Order {
  @IsString() id!: string;
  @IsInt() @Min(1) quantity!: number;
  @ValidateNested() @Type(() => Customer) customer!: Customer;
}
const orderSchema = z.strictObject({
  id: z.string(),
  quantity: z.int().min(1),
  customer: z.strictObject({
    name: z.string(),
    address: z.strictObject({ street: z.string().min(1), city: z.string().min(1) }),
  }),
});
const orderText = JSON.stringify({
  id: 'o-1',
  quantity: 2,
  customer: { name: 'Ada', address: { street: '1 Loop Road', city: 'London' } },
});

/**
 * parseToolArguments, in both forms, against zod 4 for one shape, interleaved.
 * zod's `parse` and `parseToolArgumentsSync` are called as synchronous APIs are
 * (not awaited); `parseToolArguments` is awaited, as its callers must.
 */
async function againstZod(
  title: string,
  cls: new () => unknown,
  schema: z.ZodType,
  json: string,
): Promise<void> {
  // Every form must accept the payload, and build the same data from it, before it is timed.
  const theirs = JSON.stringify(schema.parse(JSON.parse(json)));
  for (const ours of [await parseToolArguments(cls, json), parseToolArgumentsSync(cls, json)]) {
    if (!(ours instanceof cls) || JSON.stringify(ours) !== theirs) {
      throw new Error(`${title}: parseToolArguments and zod disagree`);
    }
  }
  const zod = 'zod 4 strictObject.parse (JSON.parse first)';
  await compare(
    title,
    [
      { name: zod, run: () => schema.parse(JSON.parse(json)), sync: true },
      {
        name: 'parseToolArgumentsSync',
        run: () => parseToolArgumentsSync(cls, json),
        sync: true,
        goal: 1,
      },
      { name: 'parseToolArguments (awaited)', run: () => parseToolArguments(cls, json) },
    ],
    { baseline: zod, batch: 2_000, rounds: 15 },
  );
}

export default async function (): Promise<void> {
  await againstZod('Validation, 3 fields, from JSON text', Small, smallSchema, smallText);
  await againstZod('Validation, 30 fields, from JSON text', Wide, wideSchema, wideText);
  await againstZod('Validation, nested 3 levels, from JSON text', Order, orderSchema, orderText);

  // Every contender must accept the payload before it is timed.
  await parseToolArguments(SearchParams, text);
  await byHand();
  byHandSync();
  withZod();

  printTable(
    'parse + validate tool arguments (7 fields, nested object, array) from JSON text',
    [
      await measure('parseToolArguments', () => parseToolArguments(SearchParams, text)),
      await measure('class-transformer + validate (by hand)', byHand),
      await measure('class-transformer + validateSync (by hand)', byHandSync),
      await measure('zod 4 strictObject.parse', withZod),
    ],
    'class-transformer + validate (by hand)',
  );

  printTable('JSON Schema of the params class', [
    await measure('toJsonSchema (cached)', () => toJsonSchema(SearchParams, 'openai-strict'), {
      batch: 100_000,
    }),
    await measure('buildJsonSchema (uncached, fresh metadata read)', () =>
      buildJsonSchema(SearchParams, 'openai-strict', analyseParamsClass),
    ),
  ]);
}
