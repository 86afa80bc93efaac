import { type EvaluationStreamPart, Media, PromptRendered, Session } from 'affordance';

import { pngFile } from '../support/media-files.js';
import { bytesOfDataUrl, mediaDesk } from '../support/media-desk.js';
import { messageStreamEvents } from '../support/message-stream-events.js';
import { type OpenAIHarness, startOpenAI } from '../support/openai-harness.js';
import { message, responseBody } from '../support/openai-payloads.js';

type Body = Record<string, unknown>;

let harness: OpenAIHarness | undefined;
afterEach(async () => {
  if (harness === undefined) return;
  expect(harness.server.problems()).toEqual([]);
  await harness.server.close();
  harness = undefined;
});

describe('runtime.stream with media in the input', () => {
  it('streams an evaluation whose input holds an image: the part is sent and recorded by reference', async () => {
    harness = await startOpenAI();
    harness.server.reply({
      sse: messageStreamEvents(responseBody([message('A checkout page with a grey button.')])),
    });
    const screenshot = pngFile(40, 30);
    const image = Media.image(screenshot);
    const session = new Session();

    const parts: EvaluationStreamPart[] = [];
    for await (const part of harness.runtime.stream(mediaDesk(), {
      session,
      input: [Media.text('What is on this screen?'), image],
    })) {
      parts.push(part);
    }

    const request = harness.server.requests[0]?.body;
    expect(request?.['stream']).toBe(true);
    const content = (request?.['input'] as Body[])[0]?.['content'] as Body[];
    expect(content[0]).toEqual({ type: 'input_text', text: 'What is on this screen?' });
    expect(content[1]).toMatchObject({ type: 'input_image' });
    expect(bytesOfDataUrl(content[1]?.['image_url'])).toEqual(screenshot);

    const deltas = parts.flatMap((part) => (part.type === 'text-delta' ? [part.delta] : []));
    expect(deltas.join('')).toBe('A checkout page with a grey button.');
    expect(parts.at(-1)?.type).toBe('answer');

    const rendered = session.slice(PromptRendered).all()[0];
    expect(rendered?.media).toEqual([Media.ref(image)]);
    expect(JSON.stringify(rendered)).not.toContain('base64');
  });
});
