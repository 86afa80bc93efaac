/**
 * The agent the telemetry tests trace: an order desk whose tools succeed,
 * fail (after writing state, so the failure is rolled back), are denied by a
 * policy, need a person's approval, and nest an evaluation. Every text it
 * puts in front of the model or reads back carries a marker, so a test can
 * look for content anywhere in the recorded spans.
 */
import { IsInt, IsString, Min } from 'class-validator';

import { MarkdownSection, PolicyDecision, Prompt, ToolDefinition, ToolResult } from 'affordance';
import { ScriptedAdapter, type ScriptedToolCall, type ScriptedTurn } from 'affordance/testing';

/** In every piece of content of the desk: the prompts, the input, arguments, results and answers. */
export const MARK = 'QX-CONTENT-7781';

export const ORDER = `ORD-${MARK}`;
export const INPUT = `Please settle order ${ORDER} (${MARK}).`;
export const DESK_TEMPLATE = `Settle orders carefully (${MARK}).`;
export const ANSWER = `All settled (${MARK}).`;
export const RESEARCH_ANSWER = `Shipping is delayed (${MARK}).`;

class OrderParams {
  @IsString() orderId!: string;
}

class ChargeParams {
  @IsString() orderId!: string;
  @IsInt() @Min(1) amount!: number;
}

class TopicParams {
  @IsString() topic!: string;
}

/** Written by `charge_card` before it fails: the rollback removes it. */
export class ChargeAttempted {
  constructor(readonly orderId: string) {}
}

/** The nested prompt `research` evaluates. */
export const researchPrompt = new Prompt({
  ns: 'desk',
  key: 'research',
  sections: [
    new MarkdownSection({ key: 'research', title: 'Research', template: `Research (${MARK}).` }),
  ],
});

/** The order desk. */
export function deskPrompt(): Prompt {
  const tools: ToolDefinition[] = [
    new ToolDefinition({
      name: 'lookup_order',
      description: 'Look an order up.',
      params: OrderParams,
      readOnly: true,
      handler: (params) => ToolResult.ok(null, `Order ${params.orderId} is paid.`),
    }),
    new ToolDefinition({
      name: 'charge_card',
      description: 'Charge the card of an order.',
      params: ChargeParams,
      handler: (params, context) => {
        context.session.dispatch(new ChargeAttempted(params.orderId));
        throw new Error(`card declined for ${params.orderId}`);
      },
    }),
    new ToolDefinition({
      name: 'close_account',
      description: 'Close the account of an order.',
      params: OrderParams,
      policies: [
        {
          name: 'staff_only',
          check: () => PolicyDecision.deny(`Only staff close accounts (${MARK}).`),
        },
      ],
      handler: () => ToolResult.ok(null, 'Closed.'),
    }),
    new ToolDefinition({
      name: 'refund_order',
      description: 'Refund an order.',
      params: ChargeParams,
      approval: (params) => params.amount > 100,
      handler: (params) => ToolResult.ok(null, `Refunded ${params.amount} on ${params.orderId}.`),
    }),
    new ToolDefinition({
      name: 'research',
      description: 'Research a topic with a nested evaluation.',
      params: TopicParams,
      handler: async (params, context) => {
        const response = await context.evaluate(researchPrompt, { input: params.topic });
        return ToolResult.ok(null, response.text ?? '');
      },
    }),
  ];
  return new Prompt({
    ns: 'desk',
    key: 'orders',
    sections: [new MarkdownSection({ key: 'desk', title: 'Desk', template: DESK_TEMPLATE, tools })],
  });
}

/** A scripted model that names its model, as the OpenAI and Anthropic adapters do. */
export class ModelledScriptedAdapter extends ScriptedAdapter {
  override readonly model = 'scripted-model-1';
}

export const lookup = (callId: string): ScriptedToolCall => ({
  callId,
  name: 'lookup_order',
  arguments: { orderId: ORDER },
});
export const charge = (callId: string): ScriptedToolCall => ({
  callId,
  name: 'charge_card',
  arguments: { orderId: ORDER, amount: 30 },
});
export const close = (callId: string): ScriptedToolCall => ({
  callId,
  name: 'close_account',
  arguments: { orderId: ORDER },
});
export const refund = (callId: string, amount: number): ScriptedToolCall => ({
  callId,
  name: 'refund_order',
  arguments: { orderId: ORDER, amount },
});
export const research = (callId: string): ScriptedToolCall => ({
  callId,
  name: 'research',
  arguments: { topic: `shipping of ${ORDER}` },
});

/**
 * Two turns of the desk: every kind of call, then the answer; the nested
 * evaluation's one turn comes between them (it runs inside `research`).
 */
export function deskScript(): ScriptedTurn[] {
  return [
    {
      toolCalls: [lookup('c1'), charge('c2'), close('c3'), research('c4')],
      usage: {
        inputTokens: 120,
        outputTokens: 30,
        cachedTokens: 50,
        cacheWriteTokens: 10,
        reasoningTokens: 9,
      },
    },
    { text: RESEARCH_ANSWER, usage: { inputTokens: 40, outputTokens: 8 } },
    { text: ANSWER, usage: { inputTokens: 200, outputTokens: 12, reasoningTokens: 4 } },
  ];
}
