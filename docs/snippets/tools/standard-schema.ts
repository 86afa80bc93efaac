import 'reflect-metadata';
import { IsBoolean, IsOptional, IsString, MinLength } from 'class-validator';
import { z } from 'zod';
import { Describe, ToolDefinition, ToolResult } from 'affordance';

// The same tool twice: params as a class-validator class...
export class LookupParams {
  @Describe('Order id, e.g. A-1') @IsString() @MinLength(3) orderId!: string;
  @IsOptional() @IsBoolean() includeItems?: boolean;
}

export const lookupWithClass = new ToolDefinition({
  name: 'lookup_order',
  description: 'Look an order up.',
  params: LookupParams,
  handler: (params) =>
    ToolResult.ok({ orderId: params.orderId, items: params.includeItems ?? false }),
});

// ...and as a zod schema (any Standard Schema library works the same way).
export const lookupParams = z.object({
  orderId: z.string().min(3).describe('Order id, e.g. A-1'),
  includeItems: z.boolean().optional(),
});

export const lookupWithZod = new ToolDefinition({
  name: 'lookup_order',
  description: 'Look an order up.',
  params: lookupParams,
  // params is typed { orderId: string; includeItems?: boolean } from the schema's output type
  handler: (params) =>
    ToolResult.ok({ orderId: params.orderId, items: params.includeItems ?? false }),
});
