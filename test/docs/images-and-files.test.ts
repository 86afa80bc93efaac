import { Media } from 'affordance';

import { askAboutScreenshot } from '../../docs/snippets/images-and-files/screenshot-desk.js';
import { tooManyParts } from '../../docs/snippets/images-and-files/limits.js';
import { pngFile } from '../support/media-files.js';

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
});
