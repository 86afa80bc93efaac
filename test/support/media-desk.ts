import { IsString } from 'class-validator';

import {
  MarkdownSection,
  Media,
  type MediaPart,
  Prompt,
  ToolDefinition,
  ToolResult,
} from 'affordance';

import { pdfFile, pngFile } from './media-files.js';

/** Takes a screenshot of a page. */
export class ScreenshotParams {
  @IsString() page!: string;
}

/** What the media desk's tools returned, for assertions. */
export interface MediaDeskLog {
  readonly returned: MediaPart[];
}

/**
 * A prompt whose `screenshot` tool answers with a PNG of the page and whose
 * `fetch_invoice` tool answers with a PDF: tools that show the model media.
 */
export function mediaDesk(log: MediaDeskLog = { returned: [] }): Prompt {
  const section = new MarkdownSection({
    key: 'support',
    title: 'Support',
    template: 'Look at what the customer sees before answering.',
    tools: [
      new ToolDefinition({
        name: 'screenshot',
        description: 'Take a screenshot of a page.',
        params: ScreenshotParams,
        handler: (params: ScreenshotParams) => {
          const image = Media.image(pngFile(64, 48, 0, params.page.length), {
            filename: `${params.page}.png`,
          });
          log.returned.push(image);
          return ToolResult.withMedia(`Screenshot of ${params.page}.`, [image]);
        },
      }),
      new ToolDefinition({
        name: 'fetch_invoice',
        description: 'Fetch the invoice PDF.',
        params: ScreenshotParams,
        handler: (params: ScreenshotParams) => {
          const pdf = Media.file(pdfFile(`Invoice for ${params.page}`), {
            filename: 'invoice.pdf',
          });
          log.returned.push(pdf);
          return ToolResult.withMedia('The invoice.', [pdf], { pages: 1 });
        },
      }),
    ],
  });
  return new Prompt({ ns: 'test/media', key: 'media-desk', sections: [section] });
}

/** The bytes a `data:` URL carries. */
export function bytesOfDataUrl(url: unknown): Uint8Array {
  const text = String(url);
  const comma = text.indexOf(',');
  return new Uint8Array(Buffer.from(text.slice(comma + 1), 'base64'));
}
