import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import type { Browser, Page } from 'puppeteer-core';

import { type EvalComparison, type EvalReport, renderEvalReportHtml } from 'affordance/evals';

import { launchChromium, watchProblems } from '../support/headless-chromium.js';
import { buildReport, type CaseSpec, score } from './report-builder.js';

const hostile = '</script><img src=x onerror="window.pwned=1"><script>window.pwned=2</script>';

/** The support-desk suite of a good run and of a worse one (the prompt lost its refund rule). */
function cases(worse: boolean): CaseSpec[] {
  return [
    {
      id: 'refund-small',
      tags: ['refunds'],
      input: 'Refund $20 on A-1.',
      trials: [
        {
          answer: worse ? 'I cannot help.' : 'Refunded $20.',
          scores: [score('answer-contains', worse ? 0 : 1), score('called-refund', worse ? 0 : 1)],
          durationMs: 120,
          tokens: 300,
          costUsd: 0.002,
          toolCalls: worse
            ? []
            : [
                {
                  name: 'refund_order',
                  arguments: { orderId: 'A-1', amountUsd: 20 },
                  outcome: 'success',
                  durationMs: 3,
                },
              ],
        },
        {
          answer: 'Refunded $20.',
          scores: [score('answer-contains', 1), score('called-refund', worse ? 0.5 : 1)],
          durationMs: 140,
          tokens: 320,
          costUsd: 0.002,
        },
      ],
    },
    {
      id: 'refund-large',
      tags: ['refunds', 'approval'],
      input: 'Refund $900 on A-2.',
      trials: [
        {
          answer: worse ? 'Refund waiting for a manager.' : 'Refunded.',
          scores: [score('answer-contains', worse ? 1 : 0.3), score('called-refund', 1)],
          durationMs: 300,
          tokens: 500,
          costUsd: 0.004,
        },
      ],
    },
    {
      id: 'status',
      tags: ['orders'],
      input: 'Where is A-3?',
      trials: [
        {
          answer: hostile,
          scores: [score('answer-contains', 1)],
          durationMs: 80,
          tokens: 200,
          costUsd: 0.001,
          toolCalls: [
            {
              name: 'lookup_order',
              arguments: { orderId: hostile },
              outcome: 'success',
              durationMs: 1,
            },
          ],
        },
      ],
    },
    {
      id: 'crash',
      tags: ['orders'],
      input: 'Cancel A-4.',
      trials: [
        {
          answer: null,
          error: 'Deadline exceeded',
          scores: [score('answer-contains', 0)],
          durationMs: 900,
          tokens: 50,
        },
      ],
    },
  ];
}

const baseline = buildReport('support-desk', cases(false), '2026-11-28T10:00:00.000Z');
const current = buildReport('support-desk', cases(true), '2026-11-29T10:00:00.000Z');

/** The comparison as the schema defines it, worked out from the two reports. */
function compare(before: EvalReport, after: EvalReport): EvalComparison {
  const passed = (report: EvalReport) =>
    new Map(report.cases.map((entry) => [entry.id, entry.passAtK === 1]));
  const was = passed(before);
  const now = passed(after);
  return {
    baseline: { startedAt: before.startedAt, passRate: before.summary.passRate },
    current: { startedAt: after.startedAt, passRate: after.summary.passRate },
    regressions: after.cases
      .filter((entry) => was.get(entry.id) === true && now.get(entry.id) === false)
      .map((entry) => ({
        id: entry.id,
        failedScorers: [
          ...new Set(
            entry.trials.flatMap((trial) =>
              trial.scores.filter((s) => !s.passed).map((s) => s.scorer),
            ),
          ),
        ],
      })),
    improvements: after.cases
      .filter((entry) => was.get(entry.id) === false && now.get(entry.id) === true)
      .map((entry) => entry.id),
    added: [],
    removed: [],
    scorerDeltas: after.scorers.map((summary) => ({
      scorer: summary.scorer,
      delta:
        summary.passRate -
        (before.scorers.find((item) => item.scorer === summary.scorer)?.passRate ?? 0),
    })),
  };
}

interface Row {
  readonly id: string;
  readonly hidden: boolean;
  readonly classes: string;
  readonly background: string;
}

const readRows = `[...document.querySelectorAll('tr.case')].map((row) => ({
  id: row.dataset.case, hidden: row.hidden, classes: row.className,
  background: getComputedStyle(row.querySelector('td')).backgroundColor,
}))`;

async function rows(page: Page): Promise<Row[]> {
  return (await page.evaluate(readRows)) as Row[];
}

const shownIds = async (page: Page) =>
  (await rows(page)).filter((row) => !row.hidden).map((row) => row.id);

describe('the HTML eval report, in headless Chromium', () => {
  let browser: Browser | undefined;
  let page: Page;
  let directory = '';
  let opened = 0;
  const problems: string[] = [];
  const requested: string[] = [];

  /** Writes `html` to a file and opens it, as a person opens the report. */
  async function open(html: string): Promise<void> {
    opened += 1;
    const file = join(directory, `report-${opened}.html`);
    await writeFile(file, html);
    await page.goto(pathToFileURL(file).href);
  }

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'affordance-report-'));
    browser = await launchChromium();
    page = await browser.newPage();
    watchProblems(page, problems);
    page.on('request', (request) => requested.push(request.url()));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('draws one pass-rate bar per scorer, a ten-bucket histogram per scorer and a duration bar per case, as the data says', async () => {
    await open(renderEvalReportHtml(baseline));
    const bars = (await page.evaluate(
      `[...document.querySelectorAll('svg.pass-rates rect.bar')].map((bar) => [bar.dataset.scorer, Number(bar.getAttribute('width'))])`,
    )) as [string, number][];
    expect(bars).toEqual(
      baseline.scorers.map((item) => [item.scorer, Math.round(item.passRate * 360)]),
    );
    for (const summary of baseline.scorers) {
      const buckets = (await page.evaluate(
        `[...document.querySelectorAll('figure.histogram[data-scorer="${summary.scorer}"] rect.bucket')].map((bar) => [Number(bar.dataset.count), Number(bar.getAttribute('height')) > 0])`,
      )) as [number, boolean][];
      expect(buckets).toEqual(summary.histogram.map((count) => [count, count > 0]));
    }
    const latency = (await page.evaluate(
      `[...document.querySelectorAll('svg.latency rect.latency')].map((bar) => bar.dataset.case)`,
    )) as string[];
    expect(latency).toEqual(baseline.cases.map((entry) => entry.id));
    expect(
      await page.evaluate(`document.getElementById('summary-pass-rate').textContent`),
    ).toContain(`${(baseline.summary.passRate * 100).toFixed(1)}%`);
  });

  it('shows an answer holding markup as text, never running it', async () => {
    await open(renderEvalReportHtml(baseline));
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(await page.evaluate(`document.querySelectorAll('img').length`)).toBe(0);
    const answers = (await page.evaluate(
      `[...document.querySelectorAll('tr.details[data-details-for="status"] pre')].map((pre) => pre.textContent)`,
    )) as string[];
    expect(answers[0]).toBe(hostile);
    expect(answers[1]).toBe(JSON.stringify({ orderId: hostile }, null, 2));
  });

  it('filters the cases by tag and by passed or failed', async () => {
    await open(renderEvalReportHtml(baseline));
    expect(await shownIds(page)).toEqual(baseline.cases.map((entry) => entry.id));
    await page.select('#filter-tag', 'refunds');
    expect(await shownIds(page)).toEqual(
      baseline.cases.filter((entry) => entry.tags.includes('refunds')).map((entry) => entry.id),
    );
    await page.select('#filter-tag', '');
    await page.select('#filter-status', 'false');
    expect(await shownIds(page)).toEqual(
      baseline.cases.filter((entry) => entry.passAtK < 1).map((entry) => entry.id),
    );
    // A case's details row hides with it.
    const detailsHidden = (await page.evaluate(
      `[...document.querySelectorAll('tr.details')].map((row) => [row.dataset.detailsFor, row.hidden])`,
    )) as [string, boolean][];
    expect(detailsHidden).toEqual(baseline.cases.map((entry) => [entry.id, entry.passAtK === 1]));
  });

  it('highlights the regressions and improvements against a baseline', async () => {
    const comparison = compare(baseline, current);
    expect(comparison.regressions.map((item) => item.id)).toEqual(['refund-small']);
    expect(comparison.improvements).toEqual(['refund-large']);
    await open(renderEvalReportHtml(current, { comparison }));
    expect(await page.evaluate(`document.getElementById('regression-count').textContent`)).toBe(
      '1',
    );
    expect(await page.evaluate(`document.getElementById('improvement-count').textContent`)).toBe(
      '1',
    );
    const byId = new Map((await rows(page)).map((row) => [row.id, row]));
    expect(byId.get('refund-small')?.classes).toContain('regression');
    expect(byId.get('refund-large')?.classes).toContain('improvement');
    expect(byId.get('status')?.classes).not.toMatch(/regression|improvement/);
    // Coloured: a regression's cells differ from an unchanged row's, and from an improvement's.
    expect(byId.get('refund-small')?.background).not.toBe(byId.get('status')?.background);
    expect(byId.get('refund-small')?.background).not.toBe(byId.get('refund-large')?.background);
    const deltas = (await page.evaluate(
      `[...document.querySelectorAll('svg.pass-rates text.delta')].map((text) => [text.classList.contains('worse'), text.textContent])`,
    )) as [boolean, string][];
    expect(deltas).toEqual(
      comparison.scorerDeltas
        .filter((item) => item.delta !== 0)
        .map((item) => [
          item.delta < 0,
          `${item.delta > 0 ? '+' : '−'}${(Math.abs(item.delta) * 100).toFixed(1)}%`,
        ]),
    );
    await page.select('#filter-change', 'regression');
    expect(await shownIds(page)).toEqual(['refund-small']);
  });

  it('links each trial to its session where inspectorHref gives one, and never to a script', async () => {
    await open(
      renderEvalReportHtml(baseline, {
        inspectorHref: (caseId, trial) =>
          caseId === 'crash'
            ? 'javascript:window.pwned=3'
            : `http://127.0.0.1:4390/sessions/${caseId}-${trial}`,
      }),
    );
    const links = (await page.evaluate(
      `[...document.querySelectorAll('a.inspect')].map((a) => a.getAttribute('href'))`,
    )) as string[];
    expect(links).toEqual([
      ...baseline.cases
        .filter((entry) => entry.id !== 'crash')
        .flatMap((entry) =>
          entry.trials.map((trial) => `http://127.0.0.1:4390/sessions/${entry.id}-${trial.trial}`),
        ),
      '#',
    ]);
  });

  it('logs no console error (no blocked script, no failed request)', () => {
    expect(problems).toEqual([]);
  });

  it('loads nothing but the report file itself', () => {
    expect(requested.length).toBe(opened);
    expect(requested.every((url) => url.startsWith('file://') && url.endsWith('.html'))).toBe(true);
  });
});
