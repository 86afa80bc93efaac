import { IsInt, Max, Min } from 'class-validator';

import { Describe, Media, Section, Tool, type ToolContext, ToolResult } from 'affordance';

import { barChartPng } from '../shared/png-image.js';

/** Arguments of `show_usage_chart`. */
export class UsageChartParams {
  @Describe('How many recent months to chart, 1 to 12')
  @IsInt()
  @Min(1)
  @Max(12)
  months!: number;
}

/** Storage used at the end of each month, in GiB, oldest first (the demo account's). */
export const STORAGE_GIB = [120, 180, 150, 210, 260, 240, 310, 290, 330, 380, 350, 400] as const;
const PLAN_GIB = 500;

/**
 * A tool that answers with an image: `show_usage_chart` renders the
 * customer's storage use as a bar chart (a PNG) and returns it with
 * `ToolResult.withMedia`, so the model sees the chart and the chat page shows it.
 */
@Section({
  key: 'usage',
  title: 'Usage',
  template:
    'When a customer asks about their storage use or usage chart, call show_usage_chart and describe what it shows.',
})
export class UsageChartSection {
  @Tool({
    name: 'show_usage_chart',
    description: 'Render the customer storage use per month as a bar chart image.',
    readOnly: true,
  })
  chart(params: UsageChartParams, _context: ToolContext): ToolResult {
    const months = STORAGE_GIB.slice(-params.months);
    const chart = Media.image(barChartPng(months.map((gib) => gib / PLAN_GIB)), {
      filename: 'storage-usage.png',
    });
    const latest = months.at(-1) ?? 0;
    return ToolResult.withMedia(
      `Storage used over the last ${months.length} months, in GiB: ${months.join(', ')} (plan: ${PLAN_GIB} GiB; now ${Math.round((latest / PLAN_GIB) * 100)}% used).`,
      [chart],
    );
  }
}
