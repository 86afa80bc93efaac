/**
 * Per-call cost of turning a tool call's JSON arguments into a validated
 * params instance: affordance's parseToolArguments against the same
 * class-transformer + class-validator calls made by hand, and against zod 4
 * with an equivalent schema. Also the JSON Schema of the class, cached and not.
 *
 * src/index.ts does not export the schema functions yet, so they are imported
 * from their modules.
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
import { analyseParamsClass } from '../../src/schema/params-shape.js';
import { toJsonSchema } from '../../src/schema/to-json-schema.js';
import { measure, printTable } from './measure.js';

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

export default async function (): Promise<void> {
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
