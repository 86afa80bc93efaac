import { IsBoolean, IsObject, IsOptional, IsString, MinLength } from 'class-validator';

import { Describe } from '../../src/decorators/describe.js';
import { MarkdownSection } from '../../src/prompt/markdown-section.js';
import { Prompt } from '../../src/prompt/prompt.js';
import type { DataClass } from '../../src/core/class-type.js';
import { ToolDefinition } from '../../src/tools/tool-definition.js';
import { ToolResult } from '../../src/tools/tool-result.js';

/** Params that fit OpenAI strict mode (the optional field becomes required and nullable). */
export class LookupOrderParams {
  @Describe('The order id, e.g. A-1') @IsString() @MinLength(2) orderId!: string;
  @Describe('Whether to list the items') @IsOptional() @IsBoolean() includeItems?: boolean;
}

/** Params that cannot be strict: a free-form object. */
export class AnnotateParams {
  @IsString() note!: string;
  @IsObject() extra!: Record<string, unknown>;
}

/** A structured answer whose optional field strict mode sends as `null`. */
export class OrderSummary {
  @IsString() orderId!: string;
  @IsOptional() @IsString() note?: string;
}

/** The parsed params each tool received, in call order. */
export type CallLog = [string, unknown][];

/** A prompt with a strict-compatible tool, a non-strict one, and optionally a structured output. */
export function orderDesk<O>(
  log: CallLog,
  output?: DataClass<O> | readonly [DataClass<O>],
): Prompt<O> {
  const section = new MarkdownSection({
    key: 'orders',
    title: 'Orders',
    template: 'Answer questions about orders. Look orders up before answering.',
    tools: [
      new ToolDefinition({
        name: 'lookup_order',
        description: 'Look an order up by id.',
        params: LookupOrderParams,
        handler: (params: LookupOrderParams) => {
          log.push(['lookup_order', params]);
          return ToolResult.ok({ orderId: params.orderId, status: 'shipped' }, 'Found it.');
        },
      }),
      new ToolDefinition({
        name: 'annotate',
        description: 'Attach a note to the conversation.',
        params: AnnotateParams,
        handler: (params: AnnotateParams) => {
          log.push(['annotate', params]);
          return ToolResult.ok(null, 'Noted.');
        },
      }),
    ],
  });
  return new Prompt<O>({ ns: 'test/openai', key: 'order-desk', sections: [section], output });
}
