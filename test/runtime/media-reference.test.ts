import { IsOptional, IsString } from 'class-validator';

import {
  MarkdownSection,
  Media,
  type MediaPart,
  MediaReference,
  Prompt,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { createTestRuntime } from 'affordance/testing';

import { pdfFile, pngFile } from '../support/media-files.js';

class ReadDocumentParams {
  @MediaReference() @IsString() document!: string;
  @MediaReference() @IsOptional() @IsString() attachment?: string;
}

class PageParams {
  @IsString() page!: string;
}

/** A desk whose `read_document` tool takes a reference to a part; `screenshot` returns an image. */
function desk(seen: MediaPart[]): Prompt {
  return new Prompt({
    ns: 'test/media-reference',
    key: 'desk',
    sections: [
      new MarkdownSection({
        key: 'desk',
        title: 'Desk',
        template: 'Read the documents the user sends.',
        tools: [
          new ToolDefinition({
            name: 'read_document',
            description: 'Reads a document or image of the conversation.',
            params: ReadDocumentParams,
            handler: (params: ReadDocumentParams, context) => {
              const part = context.media(params.document);
              seen.push(part);
              return ToolResult.ok(null, `${part.mediaType}, ${part.size} bytes.`);
            },
          }),
          new ToolDefinition({
            name: 'screenshot',
            description: 'A screenshot of a page.',
            params: PageParams,
            handler: () => ToolResult.withMedia('The page.', [Media.image(pngFile(12, 8, 0, 9))]),
          }),
        ],
      }),
    ],
  });
}

describe('@MediaReference tool params', () => {
  it('resolves a file name or a short hash of the input to the part, with its bytes', async () => {
    const invoiceBytes = pdfFile();
    const invoice = Media.file(invoiceBytes, { filename: 'invoice.pdf' });
    const photo = Media.image(pngFile(20, 10));
    const short = photo.hash.slice(0, 'sha256:'.length + 12);
    const agent = createTestRuntime({
      script: [
        {
          toolCalls: [
            { name: 'read_document', arguments: { document: 'invoice.pdf' } },
            { name: 'read_document', arguments: { document: short } },
          ],
        },
        { text: 'Read both.' },
      ],
    });
    const seen: MediaPart[] = [];
    const session = new Session();
    const response = await agent.runtime.evaluate(desk(seen), {
      session,
      input: [Media.text('Here are the invoice and the photo.'), invoice, photo],
    });

    expect(response.status).toBe('completed');
    expect(seen.map((part) => part.hash)).toEqual([invoice.hash, photo.hash]);
    expect(seen[0]?.bytes).toEqual(invoiceBytes);
    expect(seen[0]?.filename).toBe('invoice.pdf');
    expect(seen[1]?.bytes).toEqual(photo.bytes);
    const messages = session
      .slice(ToolInvoked)
      .all()
      .map((event) => event.result.message);
    expect(messages).toEqual([
      `application/pdf, ${invoice.size} bytes.`,
      `image/png, ${photo.size} bytes.`,
    ]);
  });

  it('resolves the hash of an image an earlier tool returned', async () => {
    const shot = Media.image(pngFile(12, 8, 0, 9));
    const agent = createTestRuntime({
      script: [
        { toolCalls: [{ name: 'screenshot', arguments: { page: 'checkout' } }] },
        { toolCalls: [{ name: 'read_document', arguments: { document: shot.hash } }] },
        { text: 'Done.' },
      ],
    });
    const seen: MediaPart[] = [];
    await agent.runtime.evaluate(desk(seen), { input: 'Look at the checkout page.' });

    expect(seen).toHaveLength(1);
    expect(seen[0]?.bytes).toEqual(shot.bytes);
  });

  it('fails the call with a validation message naming the known references when one names no part', async () => {
    const invoice = Media.file(pdfFile(), { filename: 'invoice.pdf' });
    const agent = createTestRuntime({
      script: [
        {
          toolCalls: [
            {
              name: 'read_document',
              arguments: { document: 'invoice.pdf', attachment: 'receipt.pdf' },
            },
          ],
        },
        { text: 'Sorry.' },
      ],
    });
    const seen: MediaPart[] = [];
    const session = new Session();
    await agent.runtime.evaluate(desk(seen), { session, input: [invoice] });

    expect(seen).toEqual([]);
    const [event] = session.slice(ToolInvoked).all();
    expect(event?.outcome).toBe('failure');
    const short = invoice.hash.slice(0, 'sha256:'.length + 12);
    expect(event?.result.message).toBe(
      `Tool validation failed: attachment: 'receipt.pdf' names no media part of this evaluation. Known references: ${short} (file application/pdf, invoice.pdf). Pass one of them (the hash or the file name).`,
    );
    // The model read the failure in the next request.
    expect(JSON.stringify(agent.adapter.requests[1]?.messages)).toContain('receipt.pdf');
  });

  it('context.media of a value no @MediaReference field resolved fails the call with the fix', async () => {
    const agent = createTestRuntime({
      script: [
        { toolCalls: [{ name: 'screenshot', arguments: { page: 'checkout' } }] },
        { text: 'Ok.' },
      ],
    });
    const session = new Session();
    const guessing = new Prompt({
      ns: 'test/media-reference',
      key: 'guessing',
      sections: [
        new MarkdownSection({
          key: 'guess',
          title: 'Guess',
          template: 'Guess.',
          tools: [
            new ToolDefinition({
              name: 'screenshot',
              description: 'Reads a page by its name as if it were a media reference.',
              params: PageParams,
              handler: (params: PageParams, context) =>
                ToolResult.ok(null, context.media(params.page).mediaType),
            }),
          ],
        }),
      ],
    });
    await agent.runtime.evaluate(guessing, { session, input: 'Look.' });

    const [event] = session.slice(ToolInvoked).all();
    expect(event?.outcome).toBe('failure');
    expect(event?.result.message).toContain(
      "context.media('checkout') names no media part resolved for this evaluation. Fix: read only a field marked @MediaReference()",
    );
  });
});
