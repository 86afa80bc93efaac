/**
 * Media over MCP, both ways. A third-party server (the SDK's `McpServer`)
 * answers with image, audio and embedded resource content: through
 * `McpToolsSection` it reaches the model as media parts of the tool result,
 * checked like any part. A prompt's tool answering with media, served by
 * `McpToolServer`, reaches the SDK's own `Client` over Streamable HTTP as MCP
 * image, audio and resource content; and affordance's client on affordance's
 * server gets back the very parts (same hashes).
 */
import { createHash } from 'node:crypto';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Container } from 'inversify';

import {
  installAffordance,
  MarkdownSection,
  Media,
  Prompt,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { McpHttpHandler, McpToolServer, McpToolsSection } from 'affordance/mcp';
import { ScriptedAdapter } from 'affordance/testing';

import { pdfFile, pngFile, wavFile } from '../support/media-files.js';
import { listen } from './mcp-desk.js';

const png = pngFile(3, 2);
const wav = wavFile();
const pdf = pdfFile('Claim 7: water damage');
const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');
const sha256 = (bytes: Uint8Array): string =>
  `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** A browser-like MCP server written with the SDK, as a third party would. */
function browserServer(): McpServer {
  const server = new McpServer({ name: 'browser', version: '1.0.0' });
  server.registerTool('capture', { description: 'Capture the page.' }, () => ({
    content: [
      { type: 'text', text: 'Captured /checkout.' },
      { type: 'image', data: base64(png), mimeType: 'image/png' },
      { type: 'audio', data: base64(wav), mimeType: 'audio/wav' },
      {
        type: 'resource',
        resource: {
          uri: 'file:///claims/claim-7.pdf',
          mimeType: 'application/pdf',
          blob: base64(pdf),
        },
      },
      {
        type: 'resource',
        resource: { uri: 'file:///claims/notes.txt', text: 'Notes: call back.' },
      },
    ],
  }));
  server.registerTool('lying_capture', { description: 'Capture, mislabelled.' }, () => ({
    content: [
      { type: 'text', text: 'Captured.' },
      { type: 'image', data: base64(pdf), mimeType: 'image/png' },
    ],
  }));
  return server;
}

const sections: McpToolsSection[] = [];
afterEach(async () => {
  for (const section of sections.splice(0)) await section.close();
});

async function browserSection(): Promise<McpToolsSection> {
  const section = await McpToolsSection.connect({
    key: 'browser',
    server: {
      transport: () => {
        const [client, serverSide] = InMemoryTransport.createLinkedPair();
        void browserServer().connect(serverSide);
        return client;
      },
    },
  });
  sections.push(section);
  return section;
}

describe('media from a remote MCP tool', () => {
  it('reaches the model as media parts of the tool result, checked and named in the message', async () => {
    const section = await browserSection();
    const prompt = new Prompt({ ns: 'test', key: 'browser-agent', sections: [section] });
    const adapter = new ScriptedAdapter([
      { toolCalls: [{ name: 'capture', arguments: {} }] },
      { text: 'The checkout page shows the claim.' },
    ]);
    const session = new Session();

    await installAffordance(new Container()).evaluate(prompt, {
      adapter,
      input: 'Look at the checkout.',
      session,
    });

    const [call] = session.slice(ToolInvoked).all();
    const parts = call!.result.parts;
    expect(parts.map((part) => [part.type, part.mediaType, part.filename])).toEqual([
      ['image', 'image/png', undefined],
      ['audio', 'audio/wav', undefined],
      ['file', 'application/pdf', 'claim-7.pdf'],
    ]);
    expect(parts.map((part) => part.hash)).toEqual([png, wav, pdf].map(sha256));
    expect(parts[2]!.bytes).toEqual(pdf);
    expect(call!.renderedMessage).toBe(
      [
        'Captured /checkout.',
        `[image: image/png, ${png.byteLength} bytes, attached]`,
        `[audio: audio/wav, ${wav.byteLength} bytes, attached]`,
        `[resource file:///claims/claim-7.pdf: application/pdf, ${pdf.byteLength} bytes, attached]`,
        'Notes: call back.',
      ].join('\n'),
    );
    // Recorded by reference: the event's media are the parts' refs, without bytes.
    expect(call!.media).toEqual(parts.map((part) => Media.ref(part)));
    // The second request carries the parts to the model.
    const second = JSON.stringify(adapter.requests[1]?.messages, (_key, value: unknown) =>
      value instanceof Uint8Array ? `<${value.byteLength} bytes>` : value,
    );
    for (const part of parts) expect(second).toContain(part.hash);
  });

  it('keeps a part the Media factories refuse out, saying why in the message, and the rest of the result', async () => {
    const section = await browserSection();
    const prompt = new Prompt({ ns: 'test', key: 'browser-agent', sections: [section] });
    const runtime = installAffordance(new Container());

    const outcome = await runtime.callTool(prompt, { name: 'lying_capture', arguments: {} });

    expect(outcome.result.success).toBe(true);
    expect(outcome.result.parts).toEqual([]);
    expect(outcome.message).toContain(
      'Captured.\n[image not attached: Media.image: the declared media type image/png contradicts the bytes, which are application/pdf.',
    );
  });
});

describe('media from a tool served over MCP', () => {
  const chart = Media.image(png);
  const report = Media.file(pdf, { filename: 'claim 7.pdf' });
  const voice = Media.audio(wav);
  const prompt = new Prompt({
    ns: 'test',
    key: 'media-desk',
    sections: [
      new MarkdownSection({
        key: 'desk',
        title: 'Desk',
        template: 'Show things.',
        tools: [
          new ToolDefinition({
            name: 'show_claim',
            description: 'Show the claim.',
            handler: () =>
              ToolResult.withMedia('Claim 7, with its chart, report and call.', [
                chart,
                report,
                voice,
              ]),
          }),
        ],
      }),
    ],
  });
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of opened.splice(0).reverse()) await item.close();
  });

  async function serve(): Promise<URL> {
    const runtime = installAffordance(new Container());
    const handler = new McpHttpHandler(new McpToolServer({ runtime, prompt, name: 'desk' }));
    const { url, server } = await listen(handler);
    opened.push({
      close: async () => {
        await handler.close();
        await new Promise((resolve) => server.close(resolve));
      },
    });
    return url;
  }

  it('reaches the SDK client as image, audio and embedded resource content', async () => {
    const url = await serve();
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    opened.push(client);

    const result = await client.callTool({ name: 'show_claim', arguments: {} });

    expect(result.isError).toBe(false);
    const hex = report.hash.slice('sha256:'.length);
    expect(result.content).toEqual([
      { type: 'text', text: 'Claim 7, with its chart, report and call.' },
      { type: 'image', data: base64(png), mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: `affordance://media/${hex}/claim%207.pdf`,
          mimeType: 'application/pdf',
          blob: base64(pdf),
        },
      },
      { type: 'audio', data: base64(wav), mimeType: 'audio/wav' },
    ]);
  });

  it("reaches affordance's own client as the same parts, file name included", async () => {
    const url = await serve();
    const section = await McpToolsSection.connect({ key: 'desk', server: { url: url.href } });
    sections.push(section);
    const runtime = installAffordance(new Container());
    const client = new Prompt({ ns: 'test', key: 'host', sections: [section] });

    const outcome = await runtime.callTool(client, { name: 'show_claim', arguments: {} });

    expect(outcome.result.parts.map((part) => [part.hash, part.mediaType, part.filename])).toEqual([
      [chart.hash, 'image/png', undefined],
      [report.hash, 'application/pdf', 'claim 7.pdf'],
      [voice.hash, 'audio/wav', undefined],
    ]);
  });
});
