import { MarkdownSection, Prompt } from 'affordance';
import { PlanningToolsSection } from 'affordance/planning';

import { RefundSection } from './refund-section.js';
import { SupportDeskSection } from './support-desk-section.js';
import { UsageChartSection } from './usage-chart-section.js';

/** How the chat agent talks: free text, a plan kept up to date, the answer last. */
const chatRole = new MarkdownSection({
  key: 'chat',
  title: 'Chat',
  template: [
    'You chat with a customer of Acme Cloud in plain, friendly sentences (no JSON).',
    'Plan your work with the planning tools and keep the plan up to date as you go: the customer watches it.',
    'When you are done, answer in a few short paragraphs.',
  ].join('\n'),
});

/**
 * The chat agent of `GET /chat/stream`: the support desk's tools (search, tickets),
 * refunds (large ones wait for approval), a usage chart (a tool that answers
 * with an image) and the planning tools, answering in
 * free text (no output class).
 */
export const chatPrompt = new Prompt({
  ns: 'examples/nest-service',
  key: 'chat',
  sections: [chatRole, SupportDeskSection, RefundSection, UsageChartSection, PlanningToolsSection],
});
