import { Media } from 'affordance';

import { askAboutScreenshot } from '../../docs/snippets/images-and-files/screenshot-desk.js';
import { tooManyParts } from '../../docs/snippets/images-and-files/limits.js';
import { readInvoices } from '../../docs/snippets/images-and-files/invoice-reader.js';
import { pdfFile, pngFile } from '../support/media-files.js';

describe('docs/guide/images-and-files.md', () => {
  it('screenshot-desk.ts: sends the input image, records it by reference and shows the tool’s screenshot', async () => {
    const customer = pngFile(32, 24, 0, 10);
    const checkout = pngFile(48, 36, 0, 20);
    const run = await askAboutScreenshot(customer, () => checkout);

    expect(run.answer).toBe('The pay button is disabled until you accept the terms.');
    expect(run.inputMedia).toEqual([Media.ref(Media.image(customer))]);
    expect(run.toolMedia).toEqual([Media.ref(Media.image(checkout, { filename: 'checkout.png' }))]);
    // The scripted model takes no media in a tool result: the screenshot follows in a user message.
    expect(run.secondRequest).toEqual([
      'system',
      'user: Why can I not pay? + image/png',
      'assistant',
      'tool',
      'user: [The result of tool call screenshot (call_1_1) comes with the attachment below; this provider takes no media in a tool result.] + image/png',
    ]);
    expect(run.blobs).toBe(2);
  });

  it('limits.ts: refuses a message with more parts than maxPartsPerMessage before any request', async () => {
    const pages = [1, 2, 3, 4].map((page) => pngFile(8, 8, 0, page));
    expect(await tooManyParts(pages)).toBe(
      'maxPartsPerMessage: The input of docs/claims: 4 parts exceed the media limit maxPartsPerMessage of 3. ' +
        "Fix: Send fewer or smaller parts, or raise maxPartsPerMessage in the runtime's media option " +
        '(installAffordance(container, { media: { maxPartsPerMessage } })).',
    );
    expect(await tooManyParts(pages.slice(0, 3))).toBe('sent');
  });

  it('invoice-reader.ts: resolves a @MediaReference by file name or hash, and names the known ones otherwise', async () => {
    const pdf = pdfFile('Invoice 42: total 17.50 EUR');
    const invoice = Media.file(pdf, { filename: 'invoice-42.pdf' });
    const short = invoice.hash.slice(0, 'sha256:'.length + 12);
    const totalOf = (bytes: Uint8Array) =>
      /total ([0-9.]+ EUR)/.exec(new TextDecoder().decode(bytes))?.[1] ?? 'unknown';

    const messages = await readInvoices(pdf, ['invoice-42.pdf', short, 'invoice-41.pdf'], totalOf);

    expect(messages).toEqual([
      'invoice-42.pdf: total 17.50 EUR.',
      'invoice-42.pdf: total 17.50 EUR.',
      `Tool validation failed: invoice: 'invoice-41.pdf' names no media part of this evaluation. Known references: ${short} (file application/pdf, invoice-42.pdf). Pass one of them (the hash or the file name).`,
    ]);
  });
});
