import { readFileSync } from 'node:fs';

import { traceOneEvaluation } from '../../docs/snippets/observability/trace-spans.js';

/** The Observability page's snippet runs here; the span list the page shows is the one it prints. */
const shown = new URL('../../docs/snippets/observability/spans.out.txt', import.meta.url);

/** Runs `run` with console.log captured; returns what it printed, a line per call. */
async function printedBy(run: () => Promise<void>): Promise<string> {
  const original = console.log;
  const lines: string[] = [];
  console.log = (...args: unknown[]) => lines.push(args.map(String).join(' '));
  try {
    await run();
  } finally {
    console.log = original;
  }
  return `${lines.join('\n')}\n`;
}

describe('docs: observability', () => {
  it('should print the spans of one traced evaluation, as the page shows them', async () => {
    const printed = await printedBy(traceOneEvaluation);
    const lines = printed.trimEnd().split('\n');
    // Spans end inside out: the provider requests and the tool call before the evaluation's own span.
    expect(lines.at(-1)).toBe('invoke_agent docs/orders');
    expect(lines.filter((line) => /^chat\b/.test(line))).toHaveLength(2);
    expect(lines).toContain('execute_tool order_status (success)');
    expect(printed).toBe(readFileSync(shown, 'utf8'));
  });
});
