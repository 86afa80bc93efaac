/**
 * Progressive disclosure on a large prompt: 100 sections of 5 tools each
 * (500 tools, each with a params class of three described fields). Two
 * versions of the same prompt:
 * - full: every section renders its text and offers its tools (what every
 *   prompt did before sections could be summarized);
 * - summary: the first 5 sections in full, the other 95 summarized (a summary
 *   line each, their tools behind `open_sections`).
 * Measured: the first request's tokens (the system text and the tool specs
 * as the adapter receives them, counted with js-tiktoken's o200k_base), goal:
 * the summary request at least 5× smaller; and the cost of one render,
 * interleaved. Token counts are exact (the same every run); each timed render
 * is checked for its tool count.
 */
import 'reflect-metadata';

import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { getEncoding } from 'js-tiktoken';

import { Describe, MarkdownSection, Prompt, ToolDefinition, ToolResult } from 'affordance';
import type { ProviderRequest } from 'affordance/provider';
import { ScriptedAdapter } from 'affordance/testing';
import { Container } from 'inversify';
import { installAffordance } from 'affordance';

import { compare } from './measure.js';

const SECTIONS = 100;
const TOOLS_PER_SECTION = 5;
const FULL_SECTIONS = 5;

class RecordParams {
  @Describe('Identifier of the record to act on, as shown in earlier results')
  @IsString()
  recordId!: string;

  @Describe('How many related items to include in the answer')
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100)
  limit?: number;

  @Describe('Free-text note stored with the action for auditors')
  @IsOptional()
  @IsString()
  note?: string;
}

function section(index: number, summarized: boolean): MarkdownSection {
  const area = `area${index}`;
  const tools = Array.from(
    { length: TOOLS_PER_SECTION },
    (_, t) =>
      new ToolDefinition<RecordParams>({
        name: `${area}_action_${t}`,
        description: `Perform action ${t} on a record of ${area}, following that area's rules.`,
        params: RecordParams,
        handler: (params) => ToolResult.ok(null, `Done ${params.recordId}.`),
      }),
  );
  const rules = Array.from(
    { length: 6 },
    (_, r) =>
      `- Rule ${r + 1} of ${area}: check the record's owner, its state and its history before action ${r % TOOLS_PER_SECTION}; explain the outcome to the user in one sentence.`,
  ).join('\n');
  return new MarkdownSection({
    key: area,
    title: `Area ${index}`,
    template: `How to work on records of ${area}.\n\n${rules}`,
    summary: `Records of ${area}: actions 0-${TOOLS_PER_SECTION - 1}.`,
    visibility: summarized ? 'summary' : 'full',
    tools,
  });
}

function largePrompt(summaries: boolean): Prompt {
  return new Prompt({
    ns: 'bench',
    key: summaries ? 'summary' : 'full',
    sections: Array.from({ length: SECTIONS }, (_, i) =>
      section(i, summaries && i >= FULL_SECTIONS),
    ),
  });
}

/** The first request an evaluation of `prompt` sends (the model answers at once). */
async function firstRequest(prompt: Prompt): Promise<ProviderRequest> {
  const runtime = installAffordance(new Container());
  const adapter = new ScriptedAdapter([{ text: 'Done.' }]);
  await runtime.evaluate(prompt, { adapter });
  const request = adapter.requests[0];
  if (request === undefined) throw new Error('no request was sent');
  return request;
}

export default async function run(): Promise<void> {
  const encoding = getEncoding('o200k_base');
  const full = largePrompt(false);
  const summary = largePrompt(true);
  const tokens = async (prompt: Prompt) => {
    const request = await firstRequest(prompt);
    const system = request.messages[0]?.role === 'system' ? request.messages[0].content : '';
    const text = encoding.encode(system).length;
    const tools = encoding.encode(JSON.stringify(request.tools)).length;
    return { text, tools, total: text + tools, offered: request.tools.length };
  };
  const before = await tokens(full);
  const after = await tokens(summary);
  if (before.offered !== SECTIONS * TOOLS_PER_SECTION) throw new Error('full: wrong tool count');
  if (after.offered !== FULL_SECTIONS * TOOLS_PER_SECTION + 1) {
    throw new Error('summary: wrong tool count');
  }
  const ratio = before.total / after.total;
  console.log(
    `\nFirst request of a ${SECTIONS}-section / ${SECTIONS * TOOLS_PER_SECTION}-tool prompt (o200k_base tokens; exact, the same every run)`,
  );
  for (const [name, row] of [
    ['full (before)', before],
    [`summary (${SECTIONS - FULL_SECTIONS} sections summarized)`, after],
  ] as const) {
    console.log(
      `  ${name.padEnd(36)} text ${String(row.text).padStart(7)}  tools ${String(row.tools).padStart(7)}  total ${String(row.total).padStart(7)}  (${row.offered} tools offered)`,
    );
  }
  console.log(
    `  full / summary: ×${ratio.toFixed(2)}  goal ≥ ×5.00: ${ratio >= 5 ? 'met' : 'not met'}`,
  );

  const checkedRender = (prompt: Prompt, expectedTools: number) => (): void => {
    const rendered = prompt.render();
    if (rendered.tools.length !== expectedTools) throw new Error(`${prompt.key}: wrong tool count`);
  };
  await compare(
    `One render of the ${SECTIONS}-section prompt`,
    [
      { name: 'full (before)', run: checkedRender(full, SECTIONS * TOOLS_PER_SECTION) },
      {
        name: 'summary',
        run: checkedRender(summary, FULL_SECTIONS * TOOLS_PER_SECTION + 1),
        goal: 1,
      },
    ],
    { baseline: 'full (before)', batch: 50, rounds: 15 },
  );
}
