import { generateText, stepCountIs, tool, type LanguageModel } from 'ai';
import { z } from 'zod';

// Vercel AI SDK: a tool object; its dependencies come from the closure that builds it.
export function deskTools(orders: Map<string, string>) {
  return {
    order_status: tool({
      description: 'Status of an order.',
      inputSchema: z.object({ orderId: z.string().regex(/^A-\d+$/) }),
      execute: ({ orderId }) => orders.get(orderId) ?? `No order ${orderId}.`,
    }),
  };
}

// The tool loop: generateText calls the model, runs the tools it asks for, and calls it again.
export async function askDesk(model: LanguageModel, orders: Map<string, string>, prompt: string) {
  const result = await generateText({
    model,
    system: 'Answer questions about orders.',
    prompt,
    tools: deskTools(orders),
    stopWhen: stepCountIs(5),
  });
  return {
    text: result.text,
    toolResults: result.steps.flatMap((step) => step.toolResults.map((call) => call.output)),
  };
}
