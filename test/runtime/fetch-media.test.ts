import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { MarkdownSection, Media, MediaError, Prompt, PromptRendered, Session } from 'affordance';
import { createTestRuntime } from 'affordance/testing';

import { catchRejection } from '../support/catch-error.js';
import { pdfFile, pngFile } from '../support/media-files.js';

const chart = pngFile(64, 48, 4_000, 7);

/** Serves `/chart.png` (in two chunks, without a length), `/fake.png` (a PDF) and `/moved.png` (a redirect). */
let server: Server;
let origin: string;
const requested: string[] = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    requested.push(request.url ?? '');
    if (request.url === '/chart.png') {
      response.writeHead(200, { 'content-type': 'image/png' });
      response.write(chart.subarray(0, 1_000));
      response.end(chart.subarray(1_000));
    } else if (request.url === '/fake.png') {
      response.writeHead(200, { 'content-type': 'image/png' });
      response.end(pdfFile());
    } else if (request.url === '/moved.png') {
      response.writeHead(302, { location: '/chart.png' });
      response.end();
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  requested.length = 0;
});

const prompt = new Prompt({
  ns: 'test/fetch-media',
  key: 'charts',
  sections: [
    new MarkdownSection({ key: 'charts', title: 'Charts', template: 'Describe the chart.' }),
  ],
});

const urlPart = (path: string) => Media.image({ url: `${origin}${path}` }, { allowHttp: true });

describe('fetchMedia', () => {
  it('downloads a URL part from an allowed origin and sends its bytes, recorded by hash', async () => {
    const agent = createTestRuntime({
      script: [{ text: 'Sales grow.' }],
      runtime: { fetchMedia: { allow: [origin] } },
    });
    const session = new Session();
    await agent.runtime.evaluate(prompt, { session, input: [urlPart('/chart.png')] });

    expect(requested).toEqual(['/chart.png']);
    const user = agent.adapter.requests[0]?.messages[1];
    const sent =
      user?.role === 'user' && typeof user.content !== 'string' ? user.content[0] : undefined;
    expect(sent).toEqual(Media.image(chart));
    expect(session.slice(PromptRendered).all()[0]?.media).toEqual([Media.ref(Media.image(chart))]);
  });

  it('fetches nothing without the option, and refuses an http: part no provider could take', async () => {
    const agent = createTestRuntime({ script: [] });
    const error = await catchRejection(MediaError, () =>
      agent.runtime.evaluate(prompt, { input: [urlPart('/chart.png')] }),
    );
    expect(error.message).toContain('fetchMedia does not allow its origin');
    expect(error.message).toContain(
      `Fix: Name its origin with the scheme in the runtime's fetchMedia.allow (e.g. '${origin}')`,
    );
    expect(requested).toEqual([]);
    expect(agent.adapter.requests).toEqual([]);
  });

  it('needs the scheme to allow http: a bare host allows https: only', async () => {
    const agent = createTestRuntime({
      script: [],
      runtime: { fetchMedia: { allow: ['127.0.0.1'] } },
    });
    await catchRejection(MediaError, () =>
      agent.runtime.evaluate(prompt, { input: [urlPart('/chart.png')] }),
    );
    expect(requested).toEqual([]);
  });

  it('stops reading at maxBytes and names the limit', async () => {
    const agent = createTestRuntime({
      script: [],
      runtime: { fetchMedia: { allow: [origin], maxBytes: 2_000 } },
    });
    const error = await catchRejection(MediaError, () =>
      agent.runtime.evaluate(prompt, { input: [urlPart('/chart.png')] }),
    );
    expect(error.limit?.name).toBe('fetchMedia.maxBytes');
    expect(error.limit?.limit).toBe(2_000);
    expect(error.limit?.actual).toBeGreaterThan(2_000);
    expect(error.limit?.actual).toBeLessThan(chart.length + 1);
    expect(agent.adapter.requests).toEqual([]);
  });

  it('refuses bytes that contradict the media type, and does not follow a redirect', async () => {
    const agent = createTestRuntime({ script: [], runtime: { fetchMedia: { allow: [origin] } } });
    const fake = await catchRejection(MediaError, () =>
      agent.runtime.evaluate(prompt, { input: [urlPart('/fake.png')] }),
    );
    expect(fake.message).toContain('application/pdf');
    const moved = await catchRejection(MediaError, () =>
      agent.runtime.evaluate(prompt, { input: [urlPart('/moved.png')] }),
    );
    expect(moved.message).toContain('a redirect is not followed');
    expect(requested).toEqual(['/fake.png', '/moved.png']);
    expect(agent.adapter.requests).toEqual([]);
  });
});
