import { IsIn, IsOptional, IsString, Matches } from 'class-validator';

import { Describe, MarkdownSection, Prompt, ToolDefinition, ToolResult } from 'affordance';
import { type EvalCase } from 'affordance/evals';
import { ScriptedAdapter, type ScriptedTurn } from 'affordance/testing';

/** Params of lookup_order. */
export class LookupOrderParams {
  @Describe('The order id, e.g. A-17') @IsString() @Matches(/^A-\d+$/) orderId!: string;
}

/** Params of refund_order. */
export class RefundOrderParams {
  @Describe('The order id') @IsString() @Matches(/^A-\d+$/) orderId!: string;
  @Describe('Why') @IsString() reason!: string;
}

/** A stricter reading of refund arguments, for the class matcher of the trajectory scorers. */
export class LateRefund {
  @IsString() @Matches(/^A-\d+$/) orderId!: string;
  @IsIn(['late']) reason!: string;
  @IsOptional() @IsString() note?: string;
}

/** The structured answer. */
export class DeskAnswer {
  @Describe('refunded or explained') @IsIn(['refunded', 'explained']) action!: string;
  @Describe('The reply') @IsString() reply!: string;
}

/** Every order the desk knows. */
const orders: Record<string, string> = { 'A-17': 'late', 'A-18': 'on time' };

/** The tools' work, for a test to hang or count. */
export interface DeskHooks {
  lookup?: (orderId: string) => Promise<void> | void;
}

/** The order desk prompt: lookup_order, refund_order, a structured answer. */
export function orderDeskPrompt(hooks: DeskHooks = {}): Prompt<DeskAnswer> {
  const section = new MarkdownSection({
    key: 'desk',
    title: 'Order desk',
    template: 'Look the order up before refunding. Refund late orders only.',
    tools: [
      new ToolDefinition({
        name: 'lookup_order',
        description: 'Look an order up.',
        params: LookupOrderParams,
        handler: async (params: LookupOrderParams) => {
          await hooks.lookup?.(params.orderId);
          const state = orders[params.orderId];
          return state === undefined
            ? ToolResult.error(`No order ${params.orderId}.`)
            : ToolResult.ok(state, `Order ${params.orderId} is ${state}.`);
        },
      }),
      new ToolDefinition({
        name: 'refund_order',
        description: 'Refund an order.',
        params: RefundOrderParams,
        handler: (params: RefundOrderParams) =>
          ToolResult.ok(params.orderId, `Refunded ${params.orderId}.`),
      }),
    ],
  });
  return new Prompt({
    ns: 'test/evals',
    key: 'order-desk',
    sections: [section],
    output: DeskAnswer,
  });
}

/** A final structured answer turn. */
export function answer(action: string, reply: string): ScriptedTurn {
  return { text: JSON.stringify({ action, reply }), usage: { inputTokens: 100, outputTokens: 20 } };
}

/** A turn calling tools. */
export function call(name: string, args: object): ScriptedTurn {
  return { toolCalls: [{ name, arguments: args }], usage: { inputTokens: 80, outputTokens: 10 } };
}

/** The script of a case: `data.script`, or `data.scripts[trial - 1]` for a script per trial. */
export function scriptedAdapterFor(evalCase: EvalCase, trial: number): ScriptedAdapter {
  const data = evalCase.data ?? {};
  const scripts = data['scripts'] as ScriptedTurn[][] | undefined;
  const script = scripts?.[trial - 1] ?? (data['script'] as ScriptedTurn[] | undefined) ?? [];
  return new ScriptedAdapter(script);
}

/** The scripts of a late order refunded properly. */
export const goodRefund: ScriptedTurn[] = [
  call('lookup_order', { orderId: 'A-17' }),
  call('refund_order', { orderId: 'A-17', reason: 'late' }),
  answer('refunded', 'Order A-17 was late: refunded.'),
];

/** A refund without looking the order up first. */
export const blindRefund: ScriptedTurn[] = [
  call('refund_order', { orderId: 'A-18', reason: 'asked' }),
  answer('refunded', 'Refunded A-18.'),
];
