/**
 * The HTML report of the example run, as a person opens it: from the disk in
 * headless Chromium, no server. Each trial links to its session's inspector
 * page written beside the report; following the link shows that trial's
 * timeline, whose tool calls are the ones the report lists.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import type { Browser, Page } from 'puppeteer-core';

import type { EvalReport } from 'affordance/evals';

import { run } from '../../examples/evals/main.js';
import { launchChromium, watchProblems } from '../support/headless-chromium.js';

interface ShownCall {
  readonly tool: string;
  readonly outcome: string;
  readonly arguments: unknown;
}

const readTimeline = `({
  title: document.querySelector('h1').textContent,
  session: document.querySelector('section.session').dataset.session,
  calls: [...document.querySelectorAll('li.entry.tool-call')].map((entry) => ({
    tool: entry.dataset.tool,
    outcome: entry.dataset.outcome,
    arguments: JSON.parse(entry.querySelector('details.block pre').textContent),
  })),
})`;

describe('the example run’s HTML report, linked to each trial’s session', () => {
  let browser: Browser | undefined;
  let page: Page;
  let directory = '';
  let report: EvalReport;
  const problems: string[] = [];
  const requested: string[] = [];

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'affordance-report-sessions-'));
    report = (await run(() => undefined, [], directory)).baseline;
    browser = await launchChromium();
    page = await browser.newPage();
    watchProblems(page, problems);
    page.on('request', (request) => requested.push(request.url()));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await rm(directory, { recursive: true, force: true });
  });

  const reportUrl = () => pathToFileURL(join(directory, 'careful', 'report.html')).href;

  it('links every trial of every case to its own session page', async () => {
    await page.goto(reportUrl());
    const links = (await page.evaluate(
      `[...document.querySelectorAll('tr.details')].flatMap((row) => [...row.querySelectorAll('section.trial')].map((trial) => [row.dataset.detailsFor, Number(trial.dataset.trial), trial.querySelector('a.inspect')?.getAttribute('href')]))`,
    )) as [string, number, string | undefined][];
    expect(links).toEqual(
      report.cases.flatMap((entry) =>
        entry.trials.map((trial) => [
          entry.id,
          trial.trial,
          `sessions/${entry.id}-${trial.trial}.html`,
        ]),
      ),
    );
  });

  it.each(['angry-outage', 'double-charge', 'refund-old-order'])(
    'following the link of %s shows that trial’s timeline with the tool calls the report lists',
    async (caseId) => {
      const trial = report.cases.find((entry) => entry.id === caseId)?.trials[0];
      expect(trial?.toolCalls.length).toBeGreaterThan(0);
      await page.goto(reportUrl());
      const row = `tr.details[data-details-for="${caseId}"]`;
      await page.click(`${row} details > summary`);
      await Promise.all([
        page.waitForNavigation(),
        page.click(`${row} section.trial[data-trial="1"] a.inspect`),
      ]);
      expect(page.url()).toBe(
        pathToFileURL(join(directory, 'careful', 'sessions', `${caseId}-1.html`)).href,
      );
      const shown = (await page.evaluate(readTimeline)) as {
        title: string;
        session: string;
        calls: ShownCall[];
      };
      expect(shown.title).toBe(`support-desk: ${caseId}, trial 1`);
      expect(shown.session).toBe(trial?.sessionId);
      expect(shown.calls).toEqual(
        trial?.toolCalls.map((call) => ({
          tool: call.name,
          outcome: call.outcome,
          arguments: call.arguments,
        })),
      );
    },
  );

  it('logs no console error and loads only the local files', () => {
    expect(problems).toEqual([]);
    expect(requested.every((url) => url.startsWith('file://') && url.endsWith('.html'))).toBe(true);
  });
});
