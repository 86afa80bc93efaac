import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import puppeteer, { type Browser, type Page } from 'puppeteer-core';

import { ChatLog, type ChatRecord } from '../../examples/nest-service/chat-log.js';
import { RefundDesk } from '../../examples/nest-service/refund-desk.js';
import { type ChatServer, serveChat } from '../../examples/nest-service/serve-chat.js';
import { STORAGE_GIB } from '../../examples/nest-service/usage-chart-section.js';
import { barChartPng, pngImage } from '../../examples/shared/png-image.js';
import { pdfFile } from '../support/media-files.js';

/** The browser: Debian's chromium package unless CHROMIUM_PATH names another Chromium or Chrome. */
const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** What a person sees on the chat page at one moment. */
interface View {
  /** The last assistant message's state: streaming, done, cancelled or error. */
  readonly state: string | null;
  /** Characters of assistant text shown (every text segment of the last assistant message). */
  readonly textLength: number;
  readonly cards: readonly {
    readonly tool: string;
    readonly outcome: string;
    readonly message: string;
  }[];
  /** The approve / reject cards of the last assistant message. */
  readonly approvals: readonly {
    readonly title: string;
    readonly reason: string;
    readonly arguments: string;
    readonly decision: string;
    /** Its buttons that can still be clicked. */
    readonly enabledButtons: number;
  }[];
  /** The assistant text of the last message (every text segment). */
  readonly text: string;
  readonly status: string;
  readonly planSteps: readonly string[];
  readonly planStatus: string;
  readonly usage: string;
  readonly userBubble: string;
  /** Elements inside the user's bubble (none: the message is shown as text). */
  readonly userBubbleElements: number;
  readonly sendDisabled: boolean;
  readonly cancelDisabled: boolean;
}

/** Reads a {@link View} in the page (a string: the test's TypeScript has no DOM types). */
const readView = `(() => {
  const text = (node) => (node === null ? '' : node.textContent);
  const assistants = document.querySelectorAll('.message.assistant');
  const last = assistants[assistants.length - 1] ?? null;
  const users = document.querySelectorAll('.message.user');
  const user = users[users.length - 1] ?? null;
  const segments = last === null ? [] : [...last.querySelectorAll('.text')];
  return {
    state: last === null ? null : last.dataset.state,
    textLength: segments.reduce((sum, segment) => sum + segment.textContent.length, 0),
    cards: last === null ? [] : [...last.querySelectorAll('.tool-card')].map((card) => ({
      tool: text(card.querySelector('.tool-name')),
      outcome: card.dataset.outcome,
      message: text(card.querySelector('.tool-message')),
    })),
    approvals: last === null ? [] : [...last.querySelectorAll('.approval-card')].map((card) => ({
      title: text(card.querySelector('.approval-title')),
      reason: text(card.querySelector('.approval-reason')),
      arguments: text(card.querySelector('.tool-args')),
      decision: card.dataset.decision,
      enabledButtons: card.querySelectorAll('button:not(:disabled)').length,
    })),
    text: segments.map((segment) => segment.textContent).join(''),
    status: text(document.getElementById('status')),
    planSteps: [...document.querySelectorAll('#plan-steps li')].map((item) => item.textContent),
    planStatus: text(document.getElementById('plan-status')),
    usage: text(document.getElementById('usage')),
    userBubble: text(user),
    userBubbleElements: user === null ? 0 : user.querySelectorAll('*').length,
    sendDisabled: document.getElementById('send').disabled,
    cancelDisabled: document.getElementById('cancel').disabled,
  };
})()`;

async function view(page: Page): Promise<View> {
  return (await page.evaluate(readView)) as View;
}

/** Samples the page every 100 ms while `keepGoing` says so (at most `limit` samples). */
async function sampleWhile(
  page: Page,
  keepGoing: (latest: View, samples: readonly View[]) => boolean,
  limit = 600,
): Promise<View[]> {
  const samples: View[] = [];
  for (let taken = 0; taken < limit; taken += 1) {
    const latest = await view(page);
    samples.push(latest);
    if (!keepGoing(latest, samples)) return samples;
    await sleep(100);
  }
  throw new Error(`The page was still ${samples.at(-1)?.state ?? 'empty'} after ${limit} samples.`);
}

/** How many times the text got longer from one sample to the next. */
function growths(samples: readonly View[]): number {
  return samples.filter(
    (sample, index) => index > 0 && sample.textLength > samples[index - 1]!.textLength,
  ).length;
}

/** Polls `probe` until it returns a value. */
async function eventually<T>(what: string, probe: () => T | undefined): Promise<T> {
  for (let tries = 0; tries < 400; tries += 1) {
    const value = probe();
    if (value !== undefined) return value;
    await sleep(50);
  }
  throw new Error(`Gave up waiting for ${what}.`);
}

async function send(page: Page, message: string): Promise<void> {
  await page.type('#message', message);
  await page.click('#send');
}

describe('examples/nest-service chat page, in headless Chromium', () => {
  let browser: Browser | undefined;
  let server: ChatServer | undefined;
  let chats: ChatLog;
  let dir: string | undefined;

  beforeAll(async () => {
    if (!existsSync(chromiumPath)) {
      throw new Error(
        `No Chromium at ${chromiumPath}: this test drives the chat page in a real browser. ` +
          "Fix: install Debian's chromium package (apt-get install chromium; .ci/run does it in CI), " +
          'or set CHROMIUM_PATH to a Chromium or Chrome executable.',
      );
    }
    dir = await mkdtemp(join(tmpdir(), 'affordance-chat-page-'));
    server = await serveChat(() => undefined, { offline: true, port: 0 });
    chats = server.app.get(ChatLog);
    browser = await puppeteer.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-dev-shm-usage'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.app.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  /** A new page on the chat, failing the test on any script error in it. */
  async function openChat(errors: string[]): Promise<Page> {
    if (browser === undefined || server === undefined)
      throw new Error('The browser or the server did not start.');
    const page = await browser.newPage();
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(server.url, { waitUntil: 'load' });
    return page;
  }

  it('should stream the answer into a bubble, show tool cards and a live plan, then the usage', async () => {
    const errors: string[] = [];
    const page = await openChat(errors);
    const message = 'How do I reset my password? <b>thanks</b>';

    await send(page, message);
    const samples = await sampleWhile(page, (latest) => latest.state === 'streaming');

    const streaming = samples.filter((sample) => sample.state === 'streaming');
    const final = samples.at(-1)!;
    // The answer grew while it streamed, and was visibly incomplete in between.
    expect(growths(streaming)).toBeGreaterThanOrEqual(2);
    expect(streaming.at(-1)!.textLength).toBeLessThanOrEqual(final.textLength);
    // Tool cards and the plan appeared before the answer was complete, and the plan changed as it was worked.
    expect(streaming.some((sample) => sample.cards.length > 0)).toBe(true);
    expect(streaming.some((sample) => sample.planSteps.length > 0)).toBe(true);
    const plans = new Set(
      streaming
        .filter((sample) => sample.planSteps.length > 0)
        .map((sample) => sample.planSteps.join('|')),
    );
    expect(plans.size).toBeGreaterThanOrEqual(2);

    expect(final.state).toBe('done');
    expect(final.usage).toMatch(/^[1-9]\d* input \+ [1-9]\d* output tokens, \d+ turns$/);
    expect(final.planStatus).toBe('Status: completed');
    expect(final.planSteps.every((step) => step.endsWith('(done)'))).toBe(true);
    expect(final.cards.length).toBeGreaterThan(0);
    expect(final.cards.every((card) => card.outcome === 'success')).toBe(true);
    const search = final.cards.find((card) => card.tool === 'search_knowledge_base');
    expect(search?.message).toContain('Reset your password');
    // The message is shown as typed: markup in it is text, not HTML.
    expect(final.userBubble).toBe(message);
    expect(final.userBubbleElements).toBe(0);
    expect([final.sendDisabled, final.cancelDisabled]).toEqual([false, true]);
    expect(errors).toEqual([]);

    const record = chats.all().at(-1);
    expect([record?.message, record?.ending, record?.executed]).toEqual([
      message,
      'answered',
      true,
    ]);

    const screenshot = join(dir!, 'chat-page.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(existsSync(screenshot)).toBe(true);
    const png = await readFile(screenshot);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await page.close();
  }, 60_000);

  it('should stop the answer and cancel the evaluation on the server when Cancel is clicked', async () => {
    const errors: string[] = [];
    const page = await openChat(errors);
    const before = chats.all().length;
    const message = 'The CSV export crashes with error 500 since this morning.';

    await send(page, message);
    // Wait for a recorded tool call, then for the text to grow twice more: the agent is mid-answer.
    let afterCard: View[] = [];
    await sampleWhile(page, (latest) => {
      if (latest.cards.some((card) => card.outcome !== 'running')) afterCard.push(latest);
      return latest.state === 'streaming' && growths(afterCard) < 2;
    });
    const beforeCancel = await view(page);
    expect(beforeCancel.state).toBe('streaming');

    await page.click('#cancel');

    const record = await eventually<ChatRecord>('the server to record the cancelled chat', () =>
      chats
        .all()
        .slice(before)
        .find((entry) => entry.message === message),
    );
    expect(record.ending).toBe('cancelled');
    expect(record.executed).toBe(false);
    const cancelled = await view(page);
    expect(cancelled.state).toBe('cancelled');
    expect([cancelled.sendDisabled, cancelled.cancelDisabled]).toEqual([false, true]);
    expect(cancelled.textLength).toBeGreaterThanOrEqual(beforeCancel.textLength);
    // The bubble stays as it was: sampled several times after the server stopped.
    afterCard = [];
    for (let sample = 0; sample < 5; sample += 1) {
      await sleep(100);
      afterCard.push(await view(page));
    }
    expect(afterCard.map((sample) => sample.textLength)).toEqual(
      Array<number>(5).fill(cancelled.textLength),
    );
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('should refuse a missing, empty or too long message before running the agent', async () => {
    const before = chats.all().length;
    const queries = ['', '?message=', `?message=${'a'.repeat(2001)}`, '?message=hi&extra=1'];

    const statuses = await Promise.all(
      queries.map(async (query) => (await fetch(`${server!.url}chat/stream${query}`)).status),
    );

    expect(statuses).toEqual([400, 400, 400, 400]);
    expect(chats.all()).toHaveLength(before);
  });

  describe('files', () => {
    /** The images of the tool cards of the last answer, once each has loaded (or failed to). */
    const readImages = `(() => {
      const assistants = document.querySelectorAll('.message.assistant');
      const last = assistants[assistants.length - 1];
      const images = [...last.querySelectorAll('.tool-card .tool-image')];
      if (images.some((img) => !img.complete)) return undefined;
      return images.map((img) => ({ src: img.getAttribute('src'), width: img.naturalWidth, height: img.naturalHeight }));
    })()`;
    const lastError = `(() => {
      const errors = document.querySelectorAll('.message.assistant .error');
      return errors.length === 0 ? null : errors[errors.length - 1].textContent;
    })()`;

    interface ShownImage {
      src: string;
      width: number;
      height: number;
    }
    async function imagesOnceLoaded(page: Page): Promise<ShownImage[]> {
      for (let tries = 0; tries < 100; tries += 1) {
        const images = (await page.evaluate(readImages)) as ShownImage[] | undefined;
        if (images !== undefined) return images;
        await sleep(50);
      }
      throw new Error('The images of the last answer did not finish loading.');
    }

    async function attach(page: Page, name: string, bytes: Uint8Array): Promise<void> {
      const file = join(dir!, name);
      await writeFile(file, bytes);
      const input = await page.$('#attachment');
      if (input === null) throw new Error('The chat page has no #attachment input.');
      await input.uploadFile(file);
    }

    it('should send an attached screenshot with the message and show the chart image a tool returns', async () => {
      const errors: string[] = [];
      const page = await openChat(errors);
      const before = chats.all().length;
      const screenshot = pngImage(64, 40, (x, y) => [x * 4, y * 6, 200]);
      await attach(page, 'usage-page.png', screenshot);

      await send(page, 'Here is a screenshot of my storage page. Can you show my usage chart?');
      const samples = await sampleWhile(page, (latest) => latest.state === 'streaming');

      const final = samples.at(-1)!;
      expect(final.state).toBe('done');
      // The scripted model says what the request carried to it: the upload, as the page sent it.
      expect(final.text).toContain(
        `I can see the image usage-page.png you attached (image/png, ${screenshot.byteLength} bytes).`,
      );
      expect(final.text).toContain('now at 400 GiB of your 500 GiB plan');
      const chart = final.cards.find((card) => card.tool === 'show_usage_chart');
      expect(chart?.outcome).toBe('success');
      expect(chart?.message).toContain(
        `Storage used over the last 6 months, in GiB: ${STORAGE_GIB.slice(-6).join(', ')}`,
      );
      const attached = `[...document.querySelectorAll('.message.user')].at(-1).dataset.attachment`;
      expect(await page.evaluate(attached)).toBe('usage-page.png');

      // The chart is shown in its card: loaded by the browser from this server, the tool's own PNG.
      const images = await imagesOnceLoaded(page);
      expect(images).toEqual([
        {
          src: expect.stringMatching(/^chat\/media\/sha256%3A[0-9a-f]{64}$/) as unknown,
          width: 240,
          height: 120,
        },
      ]);
      const served = await fetch(`${server!.url}${images[0]?.src ?? ''}`);
      expect(served.headers.get('content-type')).toBe('image/png');
      const expected = barChartPng(STORAGE_GIB.slice(-6).map((gib) => gib / 500));
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(expected);

      expect(errors).toEqual([]);
      const record = chats.all().slice(before).at(-1);
      expect([record?.ending, record?.toolCalls]).toEqual([
        'answered',
        [{ tool: 'show_usage_chart', outcome: 'success' }],
      ]);
      await page.close();
    }, 60_000);

    it('should refuse a file whose bytes are not what its type says, showing why, without running the agent', async () => {
      const errors: string[] = [];
      const page = await openChat(errors);
      const before = chats.all().length;
      await attach(page, 'invoice.png', pdfFile());

      await send(page, 'What is wrong with this invoice?');
      const samples = await sampleWhile(page, (latest) => latest.state === 'streaming');

      expect(samples.at(-1)?.state).toBe('error');
      expect(await page.evaluate(lastError)).toContain(
        'the declared media type image/png contradicts the bytes, which are application/pdf.',
      );
      expect(samples.at(-1)?.status).toBe('The file was refused.');
      expect(errors).toEqual([]);
      expect(chats.all()).toHaveLength(before);
      await page.close();
    }, 60_000);

    it('should answer 413 past the upload limit, 415 for a type it does not take, and 404 for an unknown upload', async () => {
      const before = chats.all().length;
      const upload = (body: Uint8Array, type: string) =>
        fetch(`${server!.url}chat/uploads?name=file`, {
          method: 'POST',
          headers: { 'content-type': type },
          body,
        });

      const large = await upload(new Uint8Array(5 * 1024 * 1024 + 1), 'image/png');
      const text = await upload(new TextEncoder().encode('hello'), 'text/plain');
      const unknown = await fetch(
        `${server!.url}chat/stream?message=hi&upload=${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`,
      );

      expect(large.status).toBe(413);
      expect(((await large.json()) as { message: string }).message).toContain(
        "larger than the chat's upload limit of 5242880 bytes",
      );
      expect(text.status).toBe(415);
      expect(unknown.status).toBe(404);
      expect(chats.all()).toHaveLength(before);
    });
  });

  describe('approval', () => {
    const refundMessage = 'Please refund order A-1042, I was charged $120 twice.';

    /** Sends the refund request and waits for the page to show its approval card. */
    async function pauseForRefund(page: Page): Promise<View> {
      const before = chats.all().length;
      await send(page, refundMessage);
      const samples = await sampleWhile(page, (latest) => latest.state === 'streaming');
      const paused = samples.at(-1)!;
      expect(paused.state).toBe('awaiting');
      const record = await eventually('the server to record the paused chat', () =>
        chats.all().slice(before).at(-1),
      );
      expect([record.message, record.ending, record.executed]).toEqual([
        refundMessage,
        'paused',
        false,
      ]);
      return paused;
    }

    it('should show an approval card, wait, and continue the stream to the answer once Approve is clicked', async () => {
      const errors: string[] = [];
      const page = await openChat(errors);
      const refunds = server!.app.get(RefundDesk);
      const refundsBefore = refunds.all().length;

      const paused = await pauseForRefund(page);

      expect(paused.approvals).toHaveLength(1);
      const [card] = paused.approvals;
      expect(card?.title).toBe('Approve refund_order?');
      expect(card?.reason).toContain("needs a person's approval");
      expect(JSON.parse(card?.arguments ?? '{}')).toMatchObject({ orderId: 'A-1042', amount: 120 });
      expect([card?.decision, card?.enabledButtons]).toEqual(['waiting', 2]);
      expect(paused.cards.find((shown) => shown.tool === 'refund_order')?.outcome).toBe('awaiting');
      expect(paused.status).toBe('Waiting for your approval (1).');
      expect([paused.sendDisabled, paused.cancelDisabled]).toEqual([true, false]);
      // The styles are inlined (the CSP allows no stylesheet link): the card has its own border colour.
      const border = await page.evaluate(
        `getComputedStyle(document.querySelector('.approval-card')).borderTopColor`,
      );
      expect(border).toBe('rgb(220, 138, 14)');
      // Nothing runs while the card waits.
      await sleep(300);
      expect((await view(page)).state).toBe('awaiting');
      expect(refunds.all()).toHaveLength(refundsBefore);

      await page.click('.approval-card .approve');
      const samples = await sampleWhile(
        page,
        (latest) => latest.state === 'awaiting' || latest.state === 'streaming',
      );

      const final = samples.at(-1)!;
      expect(final.state).toBe('done');
      expect(samples.some((sample) => sample.state === 'streaming')).toBe(true);
      expect(final.approvals.map((shown) => [shown.decision, shown.enabledButtons])).toEqual([
        ['approved', 0],
      ]);
      const refundCard = final.cards.find((shown) => shown.tool === 'refund_order');
      expect(refundCard?.outcome).toBe('success');
      const issued = refunds.all().slice(refundsBefore);
      expect(issued).toMatchObject([{ orderId: 'A-1042', amount: 120 }]);
      expect(refundCard?.message).toContain(
        `Refunded $120.00 on order A-1042 (refund ${issued[0]?.id}).`,
      );
      // The answer was appended to the same bubble, after the text shown before the pause.
      expect(final.text.startsWith(paused.text)).toBe(true);
      expect(final.text).toContain(
        `Done: Refunded $120.00 on order A-1042 (refund ${issued[0]?.id}).`,
      );
      expect(final.usage).toMatch(/^[1-9]\d* input \+ [1-9]\d* output tokens, 2 turns$/);
      expect(errors).toEqual([]);
      const record = chats.all().at(-1);
      expect([record?.ending, record?.executed, record?.toolCalls]).toEqual([
        'answered',
        true,
        [{ tool: 'refund_order', outcome: 'success' }],
      ]);
      await page.close();
    }, 60_000);

    it('should send the reason of a rejection to the agent, whose answer gives it', async () => {
      const errors: string[] = [];
      const page = await openChat(errors);
      const refunds = server!.app.get(RefundDesk);
      const refundsBefore = refunds.all().length;
      const why = 'This order was already refunded last week.';
      await pauseForRefund(page);

      await page.type('.approval-card .approval-message', why);
      await page.click('.approval-card .reject');
      const samples = await sampleWhile(
        page,
        (latest) => latest.state === 'awaiting' || latest.state === 'streaming',
      );

      const final = samples.at(-1)!;
      expect(final.state).toBe('done');
      expect(final.approvals.map((shown) => shown.decision)).toEqual(['rejected']);
      expect(final.cards.find((shown) => shown.tool === 'refund_order')?.outcome).toBe('denied');
      expect(final.text).toContain(`I could not refund that order: ${why}`);
      expect(refunds.all()).toHaveLength(refundsBefore);
      expect(chats.all().at(-1)?.toolCalls).toEqual([{ tool: 'refund_order', outcome: 'denied' }]);
      expect(errors).toEqual([]);
      await page.close();
    }, 60_000);
  });
});
