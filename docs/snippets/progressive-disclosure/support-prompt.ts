import 'reflect-metadata';
import { IsString } from 'class-validator';
import {
  MarkdownSection,
  OPEN_SECTIONS_TOOL,
  Prompt,
  Session,
  ToolDefinition,
  ToolResult,
  VisibilityExpansionRequired,
} from 'affordance';
import { createTestRuntime } from 'affordance/testing';

class OrderParams {
  @IsString() orderId!: string;
}

const refund = new ToolDefinition({
  name: 'refund',
  description: 'Refund a delivered order.',
  params: OrderParams,
  handler: (params: OrderParams) => ToolResult.ok(null, `Refunded ${params.orderId}.`),
});

// #region prompt
export function supportPrompt(disclosure: 'in-loop' | 'raise' = 'in-loop'): Prompt {
  return new Prompt({
    ns: 'docs',
    key: 'support',
    disclosure,
    sections: [
      new MarkdownSection({ key: 'basics', title: 'Basics', template: 'Answer politely.' }),
      new MarkdownSection({
        key: 'billing',
        title: 'Billing',
        template: 'Refund within 30 days of delivery. Never refund an order twice.',
        summary: 'Refunds of delivered orders.',
        visibility: 'summary',
        tools: [refund],
      }),
    ],
  });
}
// #endregion prompt

/** What the first request offers, and the text the model reads for the summarized section. */
export function firstRender(): { text: string; tools: string[] } {
  const rendered = supportPrompt().render();
  return { text: rendered.text, tools: rendered.tools.map((tool) => tool.name) };
}

// #region in-loop
export async function openInLoop(): Promise<{ toolsBefore: string[]; toolsAfter: string[] }> {
  const { runtime, adapter } = createTestRuntime({
    script: [
      { toolCalls: [{ name: OPEN_SECTIONS_TOOL, arguments: { sectionKeys: ['billing'] } }] },
      { toolCalls: [{ name: 'refund', arguments: { orderId: 'A-1' } }] },
      { text: 'Refunded A-1.' },
    ],
  });
  const session = new Session();
  await runtime.evaluate(supportPrompt(), { session });
  // The opening is in the session: the next evaluation on it renders billing in full.
  const [first, second] = adapter.requests;
  return {
    toolsBefore: (first?.tools ?? []).map((tool) => tool.name),
    toolsAfter: (second?.tools ?? []).map((tool) => tool.name),
  };
}
// #endregion in-loop

// #region raise
export async function openByRaising(): Promise<string[]> {
  const { runtime, adapter } = createTestRuntime({
    script: [
      { toolCalls: [{ name: OPEN_SECTIONS_TOOL, arguments: { sectionKeys: ['billing'] } }] },
      { text: 'Refunded.' },
    ],
  });
  const session = new Session();
  try {
    await runtime.evaluate(supportPrompt('raise'), { session });
  } catch (error) {
    if (!VisibilityExpansionRequired.is(error)) throw error;
    // Re-run with the sections opened (or record SectionVisibilityOverrides in the session).
    await runtime.evaluate(supportPrompt('raise'), {
      session,
      visibility: error.requestedOverrides,
    });
  }
  return (adapter.requests[1]?.tools ?? []).map((tool) => tool.name);
}
// #endregion raise
