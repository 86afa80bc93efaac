import { Media, MediaError, type MediaPart } from 'affordance';

import { type AnthropicHarness, startAnthropic } from '../support/anthropic-harness.js';
import { messageBody } from '../support/anthropic-payloads.js';
import { catchRejection } from '../support/catch-error.js';
import { pdfFile, pngFile } from '../support/media-files.js';
import { mediaDesk } from '../support/media-desk.js';

type Json = Record<string, unknown>;

let harness: AnthropicHarness | undefined;
afterEach(async () => {
  if (harness === undefined) return;
  // Every request body checked against the SDK's request types as it arrived.
  expect(harness.server.problems()).toEqual([]);
  await harness.server.close();
  harness = undefined;
});

const base64 = (bytes: Uint8Array | undefined): string =>
  Buffer.from(bytes ?? []).toString('base64');

describe('Anthropic with media', () => {
  it('sends image and document blocks (base64, text and url sources)', async () => {
    harness = await startAnthropic();
    harness.server.reply({ json: messageBody({ text: 'Seen.' }) });
    const png = pngFile(20, 10);
    const pdf = pdfFile();

    await harness.runtime.evaluate(mediaDesk(), {
      input: [
        Media.text('Compare these.'),
        Media.image(png),
        Media.file(pdf, { filename: 'claim.pdf' }),
        Media.file(Buffer.from('date,amount\n2026-01-02,17.50\n'), {
          mediaType: 'text/csv',
          filename: 'ledger.csv',
        }),
        Media.image({ url: 'https://cdn.example.com/damage.jpg' }),
      ],
    });

    const messages = harness.server.requests[0]?.body['messages'] as Json[];
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these.' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: base64(png) } },
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: base64(pdf) },
            title: 'claim.pdf',
          },
          {
            type: 'document',
            source: {
              type: 'text',
              media_type: 'text/plain',
              data: 'date,amount\n2026-01-02,17.50\n',
            },
            title: 'ledger.csv',
          },
          { type: 'image', source: { type: 'url', url: 'https://cdn.example.com/damage.jpg' } },
        ],
      },
    ]);
  });

  it('returns a tool’s image and a tool’s PDF inside their tool_result blocks', async () => {
    harness = await startAnthropic();
    harness.server.reply(
      {
        json: messageBody({
          toolCalls: [
            { name: 'screenshot', arguments: { page: 'claims' }, callId: 'toolu_01shot' },
            { name: 'fetch_invoice', arguments: { page: 'A-1' }, callId: 'toolu_01pdf' },
          ],
        }),
      },
      { json: messageBody({ text: 'The claim form is missing the invoice total.' }) },
    );
    const log = { returned: [] as MediaPart[] };

    await harness.runtime.evaluate(mediaDesk(log), { input: 'Check my claim.' });

    const messages = harness.server.requests[1]?.body['messages'] as Json[];
    expect(messages.map((entry) => entry['role'])).toEqual(['user', 'assistant', 'user']);
    const results = messages[2]?.['content'] as Json[];
    const [shot, invoice] = log.returned;
    expect(results).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_01shot',
        content: [
          { type: 'text', text: 'Screenshot of claims.' },
          {
            type: 'image',
            source: { type: 'base64', media_type: 'image/png', data: base64(shot?.bytes) },
          },
        ],
        is_error: false,
      },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_01pdf',
        content: [
          { type: 'text', text: 'The invoice.\n\n{"pages":1}' },
          {
            type: 'document',
            source: {
              type: 'base64',
              media_type: 'application/pdf',
              data: base64(invoice?.bytes),
            },
            title: 'invoice.pdf',
          },
        ],
        is_error: false,
      },
    ]);
  });

  it('refuses an image over 5 MB (as base64) before the request, naming the limit', async () => {
    harness = await startAnthropic();
    const photo = Media.image(pngFile(100, 100, 4 * 1024 * 1024));
    const error = await catchRejection(MediaError, () =>
      harness!.runtime.evaluate(mediaDesk(), { input: [photo] }),
    );
    expect(error.limit).toEqual({
      name: 'bytes per image (base64)',
      limit: 5 * 1024 * 1024,
      actual: Math.ceil(photo.size / 3) * 4,
      provider: 'anthropic',
    });
    expect(error.message).toContain("exceed the provider's published limit");
    expect(harness.server.requests).toHaveLength(0);
  });

  it('refuses an image wider than 8000 pixels, and audio', async () => {
    harness = await startAnthropic();
    const wide = Media.image(pngFile(8001, 1));
    expect(
      (
        await catchRejection(MediaError, () =>
          harness!.runtime.evaluate(mediaDesk(), { input: [wide] }),
        )
      ).limit,
    ).toMatchObject({ name: 'pixels per image side', limit: 8000, actual: 8001 });
    expect(harness.server.requests).toHaveLength(0);
  });
});
