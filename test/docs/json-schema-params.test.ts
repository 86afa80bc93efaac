/**
 * The snippets of docs/guide/json-schema-params.md, run: the tool validates and
 * answers, the JSON the page shows is what `schemasSent()` produces, and the
 * MCP client snippet connects to a reference server over stdio.
 */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Container } from 'inversify';

import { installAffordance, MarkdownSection, Prompt } from 'affordance';

import { forecastTool } from '../../docs/snippets/json-schema-params/forecast-tool.js';
import {
  connectServer,
  remotePrompt,
  whyNot,
} from '../../docs/snippets/json-schema-params/mcp-client.js';
import { schemasSent } from '../../docs/snippets/json-schema-params/schemas-sent.js';

const page = readFileSync(join(process.cwd(), 'docs/guide/json-schema-params.md'), 'utf8');

/** The page's fenced blocks of `language`, in order. */
function blocks(language: string): string[] {
  const fence = new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g');
  return [...page.matchAll(fence)].map((match) => match[1] ?? '');
}

const prompt = new Prompt({
  ns: 'docs',
  key: 'weather',
  sections: [
    new MarkdownSection({
      key: 'weather',
      title: 'Weather',
      template: 'Forecasts.',
      tools: [forecastTool],
    }),
  ],
});

describe('docs: JSON Schema params', () => {
  it('runs the tool, and shows the validation failure the model reads', async () => {
    const runtime = installAffordance(new Container());
    const ok = await runtime.callTool(prompt, {
      name: 'get_forecast',
      arguments: { city: 'Lyon', days: 3 },
    });
    expect(ok.message).toBe('Lyon: sunny for 3 day(s).');
    const bad = await runtime.callTool(prompt, {
      name: 'get_forecast',
      arguments: { days: 9, units: 'kelvin' },
    });
    expect(bad.result.success).toBe(false);
    expect(blocks('text')[0]?.trim()).toBe(bad.message);
  });

  it('shows the strict schema and the loss report schemasSent() produces', () => {
    const sent = schemasSent();
    const [strict, unexpressed] = blocks('json').map((text) => JSON.parse(text) as unknown);
    expect(strict).toEqual(sent.strict);
    expect(unexpressed).toEqual(sent.unexpressed);
    expect(sent.standard['properties']).toEqual(
      expect.objectContaining({ city: { type: 'string', minLength: 1, description: 'City name' } }),
    );
  });

  it('names the problem of a schema it cannot validate', () => {
    const problems = whyNot({
      type: 'object',
      properties: { code: { type: 'string', pattern: '^(a+)\\1$' } },
    });
    expect(problems).toEqual([
      expect.objectContaining({ pointer: '/properties/code', keyword: 'pattern' }),
    ]);
  });

  it('connects to an MCP server over stdio and calls its tool', async () => {
    const lines: string[] = [];
    const section = await connectServer(
      process.execPath,
      [
        join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
        'stdio',
      ],
      (line) => lines.push(line),
    );
    try {
      expect(section.skipped).toEqual([]);
      expect(lines).toEqual([]);
      const outcome = await installAffordance(new Container()).callTool(remotePrompt(section), {
        name: 'echo',
        arguments: { message: 'hi' },
      });
      expect(outcome.message).toBe('Echo: hi');
    } finally {
      await section.close();
    }
  }, 30_000);
});
