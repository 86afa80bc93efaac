import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';

import type { EvalReport } from 'affordance/evals';
import { readSessionExports } from 'affordance/inspector';

import { writeHtmlReport } from '../../docs/snippets/inspector/eval-report.js';
import { runAndExport } from '../../docs/snippets/inspector/export-session.js';
import { InspectorModule } from '../../docs/snippets/inspector/inspector.module.js';
import { serveExports } from '../../docs/snippets/inspector/serve-inspector.js';

const script = [
  { toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'A-7' } }] },
  { text: 'Order A-7 has shipped.' },
];

describe('docs: Inspecting sessions', () => {
  let directory = '';
  let file = '';

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'affordance-docs-inspector-'));
    file = await runAndExport(script, directory);
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('exports the session of an evaluation: the rendered prompt, the call and the answer, in order', async () => {
    const [exported] = readSessionExports(await readFile(file, 'utf8'), file);
    expect(exported?.events.map((event) => event.kind)).toEqual([
      'prompt-rendered',
      'tool-call',
      'answer',
    ]);
    const call = exported?.events[1];
    expect(call?.kind === 'tool-call' && [call.tool, call.outcome, call.params]).toEqual([
      'lookup_order',
      'success',
      { orderId: 'A-7' },
    ]);
    const answer = exported?.events[2];
    expect(answer?.kind === 'answer' && answer.text).toBe('Order A-7 has shipped.');
  });

  it('serves the exports on 127.0.0.1', async () => {
    const server = await serveExports(directory);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const page = await fetch(`${server.url}/sessions/${basename(file, '.json')}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('lookup_order');
    } finally {
      await server.close();
    }
  });

  describe('mounted in a NestJS application', () => {
    let app: INestApplication | undefined;

    afterEach(async () => {
      await app?.close();
    });

    it('answers under /inspector, and refuses a foreign Host', async () => {
      const nest = await NestFactory.create(
        InspectorModule.forDirectory(directory),
        new ExpressAdapter(),
        // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- Nest types its options as a class; literals are how it is configured.
        { logger: false },
      );
      app = nest;
      await nest.listen(0, '127.0.0.1');
      const url = await nest.getUrl();
      const index = await fetch(`${url}/inspector`);
      expect(index.status).toBe(200);
      expect(await index.text()).toContain(`/inspector/sessions/${basename(file, '.json')}`);
      const page = await fetch(`${url}/inspector/sessions/${basename(file, '.json')}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Order A-7 has shipped.');
      const json = await fetch(`${url}/inspector/sessions/${basename(file, '.json')}.json`);
      expect(((await json.json()) as { sessionId: string }).sessionId).toBe(
        basename(file, '.json'),
      );
      const { request } = await import('node:http');
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const req = request(
          `${url}/inspector`,
          { headers: { host: 'attacker.example' } },
          (res) => {
            res.resume();
            resolve(res.statusCode);
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(403);
    });
  });

  it('writes the HTML report with each trial linked to its session page', async () => {
    const sessionId = basename(file, '.json');
    const report: EvalReport = {
      schemaVersion: 1,
      suite: 'orders',
      startedAt: '2026-11-29T10:00:00.000Z',
      durationMs: 40,
      config: { trials: 1, concurrency: 1 },
      cases: [
        {
          id: 'where-is-a7',
          tags: ['orders'],
          input: 'Where is A-7?',
          passAtK: 1,
          passRate: 1,
          trials: [
            {
              trial: 1,
              answer: 'Order A-7 has shipped.',
              toolCalls: [],
              scores: [
                { scorer: 'answer-contains', score: 1, passed: true, reason: 'says shipped' },
              ],
              passed: true,
              durationMs: 40,
              turns: 2,
              usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
              sessionId,
              sessionFile: `sessions/${sessionId}.json`,
            },
          ],
        },
      ],
      scorers: [
        {
          scorer: 'answer-contains',
          passRate: 1,
          meanScore: 1,
          histogram: [0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
        },
      ],
      summary: { cases: 1, passRate: 1, totalTokens: 0, p50DurationMs: 40, p95DurationMs: 40 },
    };
    const out = join(directory, 'report.html');
    await writeHtmlReport(report, undefined, out, 'http://127.0.0.1:4390');
    const html = await readFile(out, 'utf8');
    expect(html).toContain(`href="http://127.0.0.1:4390/sessions/${sessionId}"`);
    expect(html).toContain('Order A-7 has shipped.');
  });
});
