import { Media, MediaError, type MediaPart, Session, ToolInvoked } from 'affordance';

import { catchRejection } from '../support/catch-error.js';
import { pdfFile, pngFile, wavFile } from '../support/media-files.js';
import { bytesOfDataUrl, mediaDesk } from '../support/media-desk.js';
import { type OpenAIHarness, startOpenAI } from '../support/openai-harness.js';
import { chatCompletion, functionCall, message, responseBody } from '../support/openai-payloads.js';

type Body = Record<string, unknown>;

let harness: OpenAIHarness | undefined;
afterEach(async () => {
  if (harness === undefined) return;
  // Every request body validated against the OpenAI OpenAPI document as it arrived.
  expect(harness.server.problems()).toEqual([]);
  await harness.server.close();
  harness = undefined;
});

const screenshotPng = pngFile(40, 30);
const invoicePdf = pdfFile();

describe('OpenAI Responses with media', () => {
  it('sends input images and files as input_image and input_file parts with data URLs', async () => {
    harness = await startOpenAI();
    harness.server.reply({ json: responseBody([message('A checkout page and an invoice.')]) });
    const image = Media.image(screenshotPng);
    const pdf = Media.file(invoicePdf, { filename: 'invoice.pdf' });

    await harness.runtime.evaluate(mediaDesk(), {
      input: [Media.text('What do you see?'), image, pdf],
    });

    const input = harness.server.requests[0]?.body['input'] as Body[];
    expect(input).toHaveLength(1);
    const content = input[0]?.['content'] as Body[];
    expect(input[0]).toMatchObject({ type: 'message', role: 'user' });
    expect(content[0]).toEqual({ type: 'input_text', text: 'What do you see?' });
    expect(content[1]).toMatchObject({ type: 'input_image', detail: 'auto' });
    expect(String(content[1]?.['image_url'])).toMatch(/^data:image\/png;base64,/);
    expect(bytesOfDataUrl(content[1]?.['image_url'])).toEqual(screenshotPng);
    expect(content[2]).toMatchObject({ type: 'input_file', filename: 'invoice.pdf' });
    expect(String(content[2]?.['file_data'])).toMatch(/^data:application\/pdf;base64,/);
    expect(bytesOfDataUrl(content[2]?.['file_data'])).toEqual(invoicePdf);
  });

  it('sends URL parts as URLs for the provider to fetch', async () => {
    harness = await startOpenAI();
    harness.server.reply({ json: responseBody([message('A chart.')]) });

    await harness.runtime.evaluate(mediaDesk(), {
      input: [
        Media.image({ url: 'https://cdn.example.com/q3.png' }),
        Media.file({ url: 'https://cdn.example.com/report.pdf' }),
      ],
    });

    const input = harness.server.requests[0]?.body['input'] as Body[];
    expect(input[0]?.['content']).toEqual([
      { type: 'input_image', image_url: 'https://cdn.example.com/q3.png', detail: 'auto' },
      { type: 'input_file', file_url: 'https://cdn.example.com/report.pdf' },
    ]);
  });

  it('returns a tool’s screenshot inside function_call_output, recorded by reference', async () => {
    harness = await startOpenAI();
    harness.server.reply(
      { json: responseBody([functionCall('screenshot', { page: 'checkout' }, 'call_s1')]) },
      { json: responseBody([message('The pay button is grey.')]) },
    );
    const session = new Session();
    const log = { returned: [] as MediaPart[] };

    await harness.runtime.evaluate(mediaDesk(log), { input: 'Why can’t I pay?', session });

    const shot = log.returned[0];
    const output = (harness.server.requests[1]?.body['input'] as Body[]).find(
      (item) => item['type'] === 'function_call_output',
    );
    expect(output?.['call_id']).toBe('call_s1');
    const parts = output?.['output'] as Body[];
    expect(parts[0]).toEqual({ type: 'input_text', text: 'Screenshot of checkout.' });
    expect(parts[1]).toMatchObject({ type: 'input_image', detail: 'auto' });
    expect(bytesOfDataUrl(parts[1]?.['image_url'])).toEqual(shot?.bytes);
    // No extra user message: Responses takes media in the tool output.
    expect(
      (harness.server.requests[1]?.body['input'] as Body[]).filter(
        (item) => item['role'] === 'user',
      ),
    ).toHaveLength(1);
    const [invoked] = session.view.slice(ToolInvoked).all();
    expect(invoked?.media).toEqual([Media.ref(shot as MediaPart)]);
    expect(JSON.stringify(invoked?.media).length).toBeLessThan(300);
  });

  it('refuses audio before any request, naming the provider', async () => {
    harness = await startOpenAI();
    const error = await catchRejection(MediaError, () =>
      harness!.runtime.evaluate(mediaDesk(), { input: [Media.audio(wavFile())] }),
    );
    expect(error.message).toContain('openai (responses) takes no audio parts');
    expect(harness.server.requests).toHaveLength(0);
  });

  it('refuses an image over the published data-URL size before the request', async () => {
    harness = await startOpenAI();
    const big = Media.image(pngFile(64, 64, 16 * 1024 * 1024));
    const error = await catchRejection(MediaError, () =>
      harness!.runtime.evaluate(mediaDesk(), { input: [big] }),
    );
    expect(error.limit).toMatchObject({
      name: 'bytes per image (base64)',
      provider: 'openai (responses)',
      limit: 20_971_456,
    });
    expect(error.limit?.actual).toBe(Math.ceil(big.size / 3) * 4);
    expect(harness.server.requests).toHaveLength(0);
  });
});

describe('OpenAI Chat Completions with media', () => {
  it('sends image_url, file and input_audio parts', async () => {
    harness = await startOpenAI({ api: 'chat' });
    harness.server.reply({ json: chatCompletion({ content: 'Seen.' }) });
    const wav = wavFile();

    await harness.runtime.evaluate(mediaDesk(), {
      input: [
        Media.text('Look.'),
        Media.image(screenshotPng),
        Media.file(invoicePdf, { filename: 'invoice.pdf' }),
        Media.audio(wav),
      ],
    });

    const messages = harness.server.requests[0]?.body['messages'] as Body[];
    const content = messages[1]?.['content'] as Body[];
    expect(content[0]).toEqual({ type: 'text', text: 'Look.' });
    expect(content[1]?.['type']).toBe('image_url');
    expect(bytesOfDataUrl((content[1]?.['image_url'] as Body)['url'])).toEqual(screenshotPng);
    expect(content[2]?.['type']).toBe('file');
    expect((content[2]?.['file'] as Body)['filename']).toBe('invoice.pdf');
    expect(bytesOfDataUrl((content[2]?.['file'] as Body)['file_data'])).toEqual(invoicePdf);
    expect(content[3]).toEqual({
      type: 'input_audio',
      input_audio: { data: Buffer.from(wav).toString('base64'), format: 'wav' },
    });
  });

  it('sends a tool’s media after the tool messages as a user message with a note', async () => {
    harness = await startOpenAI({ api: 'chat' });
    harness.server.reply(
      {
        json: chatCompletion({
          toolCalls: [{ name: 'screenshot', args: { page: 'cart' }, id: 'call_c1' }],
        }),
      },
      { json: chatCompletion({ content: 'The cart is empty.' }) },
    );
    const log = { returned: [] as MediaPart[] };

    await harness.runtime.evaluate(mediaDesk(log), { input: 'What is in my cart?' });

    const messages = harness.server.requests[1]?.body['messages'] as Body[];
    expect(messages.map((entry) => entry['role'])).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'user',
    ]);
    expect(messages[3]).toEqual({
      role: 'tool',
      tool_call_id: 'call_c1',
      content: 'Screenshot of cart.',
    });
    const shown = messages[4]?.['content'] as Body[];
    expect(shown[0]).toEqual({
      type: 'text',
      text: '[The result of tool call screenshot (call_c1) comes with the attachment below; this provider takes no media in a tool result.]',
    });
    expect(bytesOfDataUrl((shown[1]?.['image_url'] as Body)['url'])).toEqual(
      log.returned[0]?.bytes,
    );
  });

  it('refuses a document URL (Chat Completions takes documents as bytes only)', async () => {
    harness = await startOpenAI({ api: 'chat' });
    const error = await catchRejection(MediaError, () =>
      harness!.runtime.evaluate(mediaDesk(), {
        input: [Media.file({ url: 'https://cdn.example.com/report.pdf' })],
      }),
    );
    expect(error.problem).toContain('does not fetch file URLs, and affordance fetches no URL');
    expect(error.fix).toContain('pass the bytes to Media.file');
    expect(harness.server.requests).toHaveLength(0);
  });

  it('keeps a text-only request exactly as before (content stays a string)', async () => {
    harness = await startOpenAI({ api: 'chat' });
    harness.server.reply({ json: chatCompletion({ content: 'Hi.' }) });
    await harness.runtime.evaluate(mediaDesk(), { input: 'Hello' });
    const messages = harness.server.requests[0]?.body['messages'] as Body[];
    expect(messages[1]).toEqual({ role: 'user', content: 'Hello' });
  });
});
