import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Browser, Page } from 'puppeteer-core';

import { InMemorySessionStore, SessionCodec, SessionPersistence } from 'affordance/durable';
import {
  createInspectorServer,
  type ExportedEvent,
  exportSession,
  type InspectorServer,
  type SessionExport,
} from 'affordance/inspector';

import { launchChromium, watchProblems } from '../support/headless-chromium.js';
import { deskPrompt, runSupportDesk } from './support-desk-session.js';

/** What the timeline shows: each entry's kind, tool and outcome, and whether it is shown. */
interface Shown {
  readonly kind: string;
  readonly tool: string;
  readonly outcome: string;
  readonly hidden: boolean;
  readonly head: string;
}

const readTimeline = `[...document.querySelectorAll('li.entry')].map((entry) => ({
  kind: entry.dataset.kind, tool: entry.dataset.tool, outcome: entry.dataset.outcome,
  hidden: entry.hidden, head: entry.querySelector('.head').textContent,
}))`;

async function timeline(page: Page): Promise<Shown[]> {
  return (await page.evaluate(readTimeline)) as Shown[];
}

const visible = (entries: readonly Shown[]) => entries.filter((entry) => !entry.hidden);

/** The tool and outcome the export gives an entry (as the page's filters read them). */
function toolOf(event: ExportedEvent): string {
  return event.kind === 'tool-call' || event.kind === 'approval' ? event.tool : '';
}

/** GET `path` with the given headers; the status and body. */
function get(
  server: InspectorServer,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the inspector page, served by createInspectorServer, in headless Chromium', () => {
  let browser: Browser | undefined;
  let server: InspectorServer | undefined;
  let directory = '';
  let exported: SessionExport;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    const run = await runSupportDesk('Refunded $80 on A-1. <img src=x onerror="window.pwned=1">');
    exported = exportSession(run.session, {
      approvals: [{ pending: run.pending, decisions: run.decisions }],
    });
    directory = await mkdtemp(join(tmpdir(), 'affordance-inspector-'));
    await writeFile(join(directory, 'desk-run.json'), JSON.stringify(exported));
    await writeFile(join(directory, 'notes.txt'), 'not an export');
    server = await createInspectorServer({ sessions: directory });
    browser = await launchChromium();
    page = await browser.newPage();
    watchProblems(page, problems);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 and lists the export files of the directory', async () => {
    expect(server?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await page.goto(`${server?.url}/`);
    const links = (await page.evaluate(
      `[...document.querySelectorAll('ul.sessions a:not(.json)')].map((a) => a.textContent)`,
    )) as string[];
    expect(links).toEqual(['desk-run']);
  });

  it('shows one timeline entry per exported event, in order, with its tool and outcome', async () => {
    await page.goto(`${server?.url}/sessions/desk-run`);
    const shown = await timeline(page);
    expect(shown.map(({ kind, tool }) => [kind, tool])).toEqual(
      exported.events.map((event) => [event.kind, toolOf(event)]),
    );
    const calls = exported.events.filter((event) => event.kind === 'tool-call');
    expect(
      shown.filter((entry) => entry.kind === 'tool-call').map((entry) => entry.outcome),
    ).toEqual(calls.map((call) => call.outcome));
    // The run behind the export: a success, a rolled-back failure, a policy denial, an approved and a rejected refund.
    expect(calls.map((call) => [call.tool, call.outcome, call.rolledBack, call.deniedBy])).toEqual([
      ['lookup_order', 'success', false, null],
      ['cancel_order', 'failure', true, null],
      ['close_account', 'denied', true, 'policy'],
      ['refund_order', 'success', false, null],
      ['refund_order', 'denied', true, 'person'],
    ]);
    const heads = shown.map((entry) => entry.head);
    expect(heads.find((head) => head.includes('cancel_order'))).toContain('rolled back');
    expect(heads.filter((head) => head.startsWith('approval'))).toEqual([
      expect.stringContaining('approved'),
      expect.stringContaining('rejected'),
    ]);
    // The answer's markup is shown as text, never run.
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(await page.evaluate(`document.querySelectorAll('img').length`)).toBe(0);
    expect(
      await page.evaluate(`document.querySelector('li.entry.answer pre').textContent`),
    ).toContain('<img src=x onerror="window.pwned=1">');
  });

  it('filters by tool and by outcome, and searches, as the export says', async () => {
    await page.goto(`${server?.url}/sessions/desk-run`);
    await page.select('#filter-tool', 'refund_order');
    const refunds = exported.events.filter((event) => toolOf(event) === 'refund_order');
    expect(visible(await timeline(page)).map((entry) => entry.tool)).toEqual(
      refunds.map(() => 'refund_order'),
    );
    expect(await page.evaluate(`document.getElementById('shown-count').textContent`)).toBe(
      String(refunds.length),
    );

    await page.select('#filter-tool', '');
    await page.select('#filter-outcome', 'denied');
    const denied = exported.events.filter(
      (event) => event.kind === 'tool-call' && event.outcome === 'denied',
    );
    expect(visible(await timeline(page)).map((entry) => entry.tool)).toEqual(
      denied.map((event) => toolOf(event)),
    );

    await page.select('#filter-outcome', '');
    await page.type('#search', 'warehouse');
    const matching = exported.events.filter((event) =>
      JSON.stringify(event).toLowerCase().includes('warehouse'),
    );
    expect(matching.length).toBeGreaterThan(0);
    expect(visible(await timeline(page)).map((entry) => entry.kind)).toEqual(
      matching.map((event) => event.kind),
    );
  });

  it('expands a call to its arguments and result', async () => {
    await page.goto(`${server?.url}/sessions/desk-run`);
    const lookup = exported.events.find((event) => event.kind === 'tool-call');
    if (lookup?.kind !== 'tool-call') throw new Error('no call exported');
    const body = (await page.evaluate(
      `(() => { const entry = document.querySelector('li.entry.tool-call');
        for (const details of entry.querySelectorAll('details')) details.open = true;
        return [...entry.querySelectorAll('pre')].map((pre) => pre.textContent); })()`,
    )) as string[];
    // The arguments as the model sent them (JSON text here), shown indented.
    expect(typeof lookup.arguments).toBe('string');
    expect(body[0]).toBe(JSON.stringify(JSON.parse(lookup.arguments as string), null, 2));
    expect(JSON.parse(body[1] ?? '')).toEqual({
      message: lookup.resultMessage,
      value: lookup.value,
    });
  });

  it('logs no console error and no failed request on any page', () => {
    expect(problems).toEqual([]);
  });

  it('serves the export as JSON, and refuses a foreign Host or Origin, other methods and other files', async () => {
    const json = await get(server as InspectorServer, '/sessions/desk-run.json');
    expect(JSON.parse(json.body)).toEqual(exported);
    const foreign = await get(server as InspectorServer, '/sessions/desk-run', {
      host: 'attacker.example',
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body).not.toContain('refund_order');
    const origin = await get(server as InspectorServer, '/', {
      origin: 'https://attacker.example',
    });
    expect(origin.status).toBe(403);
    expect((await get(server as InspectorServer, '/sessions/desk-run', {}, 'POST')).status).toBe(
      405,
    );
    expect((await get(server as InspectorServer, '/sessions/notes')).status).toBe(404);
    expect((await get(server as InspectorServer, '/sessions/..%2Fpasswd')).status).toBe(404);
  });
});

describe('the inspector over a session store', () => {
  it('opens a stored session by id, with the same timeline as the live export', async () => {
    const store = new InMemorySessionStore();
    // The application's codec knows its params classes; the inspector's (the default) does not.
    const codec = new SessionCodec().registerPrompt(deskPrompt);
    const durable = await new SessionPersistence({ store, codec }).open('desk-session-1');
    const run = await runSupportDesk(undefined, durable.session);
    await durable.commit();
    const server = await createInspectorServer({ sessions: store });
    try {
      const json = await get(server, '/sessions/desk-session-1.json');
      expect(json.status).toBe(200);
      const live = exportSession(run.session);
      const stored = JSON.parse(json.body) as SessionExport;
      expect(stored.events).toEqual(live.events);
      expect((await get(server, '/sessions/no-such-session')).status).toBe(404);
      const index = await get(server, '/');
      expect(index.body).toContain('<input name="id"');
      const opened = await new Promise<{
        status: number | undefined;
        location: string | undefined;
      }>((resolve, reject) => {
        const req = request(`${server.url}/?id=desk-session-1`, (res) => {
          res.resume();
          resolve({ status: res.statusCode, location: res.headers.location });
        });
        req.on('error', reject);
        req.end();
      });
      expect(opened).toEqual({ status: 303, location: '/sessions/desk-session-1' });
    } finally {
      await server.close();
    }
  });
});
