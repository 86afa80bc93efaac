import { readFileSync } from 'node:fs';

import { ToolInvoked } from 'affordance';

import { askWeather } from '../../docs/snippets/getting-started/openai-agent.js';
import { functionCall, message, responseBody } from '../support/openai-payloads.js';
import { OpenAITestServer } from '../support/openai-test-server.js';

/**
 * The Getting started page and the README show docs/snippets/getting-started:
 * each snippet runs here, and the transcript the page shows is the one the
 * code prints.
 */
const snippets = new URL('../../docs/snippets/getting-started/', import.meta.url);

/** Runs `load` with console.log captured; returns what it printed, a line per call. */
export async function printedBy(load: () => Promise<unknown>): Promise<string> {
  const original = console.log;
  const lines: string[] = [];
  console.log = (...args: unknown[]) => lines.push(args.map(String).join(' '));
  try {
    await load();
  } finally {
    console.log = original;
  }
  return `${lines.join('\n')}\n`;
}

describe('docs: getting started', () => {
  it('should run the quickstart offline and print the transcript the page shows', async () => {
    const printed = await printedBy(
      () => import('../../docs/snippets/getting-started/quickstart.js'),
    );
    expect(printed).toBe(readFileSync(new URL('quickstart.out.txt', snippets), 'utf8'));
    expect(printed).toContain('→ failure');
    expect(printed).toContain('answer: Tomorrow in Paris');
  });

  it('should keep the README to 200 lines: everything else is in the guides', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  });

  it('should keep the README quickstart and its output identical to the snippet and what it prints', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = /```ts\n([\s\S]*?)```/.exec(readme);
    expect(block?.[1]).toBe(readFileSync(new URL('quickstart.ts', snippets), 'utf8'));
    const page = readFileSync(
      new URL('../../docs/guide/getting-started.md', import.meta.url),
      'utf8',
    );
    const tsconfigOf = (markdown: string): unknown =>
      JSON.parse(/```json\n([\s\S]*?)```/.exec(markdown)?.[1] ?? '');
    expect(tsconfigOf(readme)).toEqual(tsconfigOf(page)); // the page's tsconfig is compiled by test/hardening/consumer-package
    const shown = /It prints:\n\n```text\n([\s\S]*?)```/.exec(readme);
    expect(shown?.[1]).toBe(readFileSync(new URL('quickstart.out.txt', snippets), 'utf8'));
  });
});

describe('docs: getting started on OpenAI', () => {
  it('should send the tool to the Responses API and run the call the model asks for', async () => {
    const server = await OpenAITestServer.start();
    server.reply(
      { json: responseBody([functionCall('get_forecast', { city: 'Paris' })]) },
      { json: responseBody([message('Sunny in Paris tomorrow, 21 °C.')]) },
    );
    try {
      const { answer, session } = await askWeather('Weather in Paris?', server.client());

      expect(answer).toBe('Sunny in Paris tomorrow, 21 °C.');
      const calls = session.slice(ToolInvoked).all();
      expect(calls.map((call) => [call.name, call.outcome])).toEqual([['get_forecast', 'success']]);
      expect(server.requests[0]?.body['model']).toBe('gpt-5-mini');
      expect(JSON.stringify(server.requests[0]?.body['tools'])).toContain('get_forecast');
      expect(server.problems()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
