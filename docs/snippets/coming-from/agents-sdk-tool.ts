import { tool } from '@openai/agents-core';
import { z } from 'zod';

// OpenAI Agents SDK: a tool object; its dependencies come through a context object you pass to run().
export interface DeskContext {
  orders: Map<string, string>;
}

export const orderStatus = tool({
  name: 'order_status',
  description: 'Status of an order.',
  parameters: z.object({ orderId: z.string().regex(/^A-\d+$/) }),
  execute: ({ orderId }, runContext) => {
    const context = runContext?.context as DeskContext | undefined;
    return context?.orders.get(orderId) ?? `No order ${orderId}.`;
  },
});
