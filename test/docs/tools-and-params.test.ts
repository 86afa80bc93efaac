/**
 * docs/guide/tools-and-params.md: every snippet it includes exists (with its
 * region), runs, and every output block on the page (marked
 * `<!-- output: name -->`) is what the snippets produce.
 */
import { readFileSync, existsSync } from 'node:fs';

import { createTestRuntime } from 'affordance/testing';
import { toJsonSchema } from 'affordance/provider';
import { MarkdownSection, Prompt, type ToolDefinition } from 'affordance';

import { arktypeForecast } from '../../docs/snippets/tools-and-params/forecast-arktype.js';
import { valibotForecast } from '../../docs/snippets/tools-and-params/forecast-valibot.js';
import { zodForecast } from '../../docs/snippets/tools-and-params/forecast-zod.js';
import {
  answerPrompt,
  renderParams,
  WeatherAnswer,
} from '../../docs/snippets/tools-and-params/schema-everywhere.js';
import { leftOut, schemaSent } from '../../docs/snippets/tools-and-params/schema-sent.js';
import {
  Forecast,
  weatherPrompt,
  WeatherSection,
} from '../../docs/snippets/tools-and-params/weather-section.js';
import {
  definitionPrompt,
  forecastTool,
} from '../../docs/snippets/tools-and-params/weather-tool-definition.js';

const page = readFileSync(new URL('../../docs/guide/tools-and-params.md', import.meta.url), 'utf8');

/** The blocks of the page marked `<!-- output: name -->`, by name. */
function outputBlocks(): Map<string, string> {
  const blocks = new Map<string, string>();
  const marked = /<!-- output: ([^>]+?) -->\s*```[a-z]*\n([\s\S]*?)```/g;
  for (const match of page.matchAll(marked)) {
    const [, name = '', text = ''] = match;
    blocks.set(name, name.startsWith('sent:') ? JSON.stringify(JSON.parse(text)) : text);
  }
  return blocks;
}

const bad = { city: '', days: 9, unit: 'k' };

async function failureOf(tool: ToolDefinition): Promise<string> {
  const prompt = new Prompt({
    ns: 'docs',
    key: 'failure',
    sections: [new MarkdownSection({ key: 'w', title: 'W', tools: [tool] })],
  });
  const { runtime } = createTestRuntime();
  return (await runtime.callTool(prompt, { name: 'forecast', arguments: bad })).message;
}

/** JSON as compact text, keys in order: the page's blocks are compared after the same (prettier lays them out). */
const json = (value: unknown): string => JSON.stringify(value);

describe('docs/guide/tools-and-params.md', () => {
  it('includes snippets that exist, with their regions', () => {
    const includes = [...page.matchAll(/^<<< @\/snippets\/([^#\s]+)(?:#(\S+))?$/gm)];
    expect(includes.length).toBeGreaterThanOrEqual(8);
    for (const [, file, region] of includes) {
      const path = new URL(`../../docs/snippets/${file}`, import.meta.url);
      expect(existsSync(path)).toBe(true);
      if (region !== undefined) {
        expect(readFileSync(path, 'utf8')).toContain(`// #region ${region}`);
      }
    }
  });

  it('shows what the snippets produce', async () => {
    const produced = new Map<string, string>([
      ['sent: class-validator', json(schemaSent(forecastTool, false))],
      ['sent: class-validator, strict', json(schemaSent(forecastTool, true))],
      ['left out: class-validator, strict', `${leftOut(forecastTool).join('\n')}\n`],
      ['sent: zod', json(schemaSent(zodForecast, false))],
      ['sent: valibot', json(schemaSent(valibotForecast, false))],
      ['sent: arktype', json(schemaSent(arktypeForecast, false))],
      ['failure: class-validator', `${await failureOf(forecastTool)}\n`],
      ['failure: zod', `${await failureOf(zodForecast)}\n`],
      ['failure: valibot', `${await failureOf(valibotForecast)}\n`],
      ['failure: arktype', `${await failureOf(arktypeForecast)}\n`],
      ['render: schema section', `${answerPrompt.render({ params: renderParams }).text}\n`],
      ['sent: output, strict', json(toJsonSchema(WeatherAnswer, 'openai-strict').schema)],
    ]);

    expect(Object.fromEntries(outputBlocks())).toEqual(Object.fromEntries(produced));
  });

  it('runs the @Tool section and the ToolDefinition alike', async () => {
    const { runtime } = createTestRuntime({ configure: (c) => c.bind(WeatherSection).toSelf() });
    const args = { city: 'Oslo', days: 2, unit: 'c' };

    const onSection = await runtime.callTool(weatherPrompt, { name: 'forecast', arguments: args });
    const defined = await runtime.callTool(definitionPrompt, { name: 'forecast', arguments: args });

    expect(onSection.message).toBe('2-day forecast for Oslo.\n\n{"city":"Oslo","highs":[18,19]}');
    expect(defined.message).toBe(onSection.message);
    expect(onSection.result.value).toBeInstanceOf(Forecast);
    expect(schemaSent(weatherPrompt.allTools[0] as ToolDefinition, false)).toEqual(
      schemaSent(forecastTool, false),
    );
  });
});
