import { Media } from 'affordance';

import { type AiSdkHarness, startAiSdk } from '../support/ai-sdk-harness.js';
import { geminiWire, openAICompatibleWire } from '../support/ai-sdk-wires.js';
import { pdfFile, pngFile } from '../support/media-files.js';
import { bytesOfDataUrl, mediaDesk } from '../support/media-desk.js';

type Json = Record<string, unknown>;

let harness: AiSdkHarness | undefined;
afterEach(async () => {
  if (harness === undefined) return;
  await harness.server.close();
  expect(harness.server.problems()).toEqual([]);
  harness = undefined;
});

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

describe('the AI SDK bridge with media', () => {
  it('sends input images and PDFs as file parts, which @ai-sdk/google sends as inlineData', async () => {
    harness = await startAiSdk(geminiWire);
    harness.server.reply({ json: geminiWire.whole({ text: 'An invoice and a page.' }) });
    const png = pngFile(12, 12);
    const pdf = pdfFile();

    const response = await harness.runtime.evaluate(mediaDesk(), {
      input: [Media.text('What are these?'), Media.image(png), Media.file(pdf)],
    });

    expect(response.text).toBe('An invoice and a page.');
    const contents = harness.server.requests[0]?.body['contents'] as Json[];
    expect(contents[0]).toEqual({
      role: 'user',
      parts: [
        { text: 'What are these?' },
        { inlineData: { mimeType: 'image/png', data: base64(png) } },
        { inlineData: { mimeType: 'application/pdf', data: base64(pdf) } },
      ],
    });
  });

  it('sends an input image to an OpenAI-compatible model as an image_url part', async () => {
    harness = await startAiSdk(openAICompatibleWire);
    harness.server.reply({ json: openAICompatibleWire.whole({ text: 'A page.' }) });
    const png = pngFile(12, 12);

    await harness.runtime.evaluate(mediaDesk(), {
      input: [Media.text('What is it?'), Media.image(png)],
    });

    const messages = harness.server.requests[0]?.body['messages'] as Json[];
    const content = messages.find((message) => message['role'] === 'user')?.['content'] as Json[];
    expect(content[0]).toEqual({ type: 'text', text: 'What is it?' });
    expect(content[1]?.['type']).toBe('image_url');
    expect(bytesOfDataUrl((content[1]?.['image_url'] as Json)['url'])).toEqual(png);
  });
});
