import 'reflect-metadata';
import { IsString } from 'class-validator';
import {
  BlobStore,
  contentText,
  InMemoryBlobStore,
  isMediaPart,
  MarkdownSection,
  Media,
  type MediaPart,
  PromptRendered,
  Prompt,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { createTestRuntime } from 'affordance/testing';

class PageParams {
  @IsString() page!: string;
}

// #region tool
/** A support desk whose `screenshot` tool shows the model what the customer sees. */
export function supportDesk(takeScreenshot: (page: string) => Uint8Array): Prompt {
  const screenshot = new ToolDefinition({
    name: 'screenshot',
    description: 'Take a screenshot of a page of the shop.',
    params: PageParams,
    readOnly: true,
    handler: (params: PageParams) =>
      ToolResult.withMedia(`Screenshot of ${params.page}.`, [
        Media.image(takeScreenshot(params.page), { filename: `${params.page}.png` }),
      ]),
  });
  return new Prompt({
    ns: 'docs',
    key: 'support-desk',
    sections: [
      new MarkdownSection({
        key: 'support',
        title: 'Support',
        template: 'Look at the page the customer is on before answering.',
        tools: [screenshot],
      }),
    ],
  });
}
// #endregion tool

/** What the snippet shows: the input as recorded, the messages the model read, the blobs stored. */
export interface DeskRun {
  readonly answer: string | null;
  readonly inputMedia: readonly object[];
  readonly toolMedia: readonly object[];
  readonly secondRequest: readonly string[];
  readonly blobs: number;
}

// #region evaluate
export async function askAboutScreenshot(
  customerScreenshot: Uint8Array,
  takeScreenshot: (page: string) => Uint8Array,
): Promise<DeskRun> {
  const blobs = new InMemoryBlobStore();
  const agent = createTestRuntime({
    script: [
      { toolCalls: [{ name: 'screenshot', arguments: { page: 'checkout' } }] },
      { text: 'The pay button is disabled until you accept the terms.' },
    ],
    configure: (container) => container.bind(BlobStore).toConstantValue(blobs),
  });
  const session = new Session();
  const response = await agent.evaluate(supportDesk(takeScreenshot), {
    session,
    input: [Media.text('Why can I not pay?'), Media.image(customerScreenshot)],
  });
  // #endregion evaluate
  const [rendered] = session.slice(PromptRendered).all();
  const [call] = session.slice(ToolInvoked).all();
  const second = agent.adapter.requests[1]?.messages ?? [];
  return {
    answer: response.text,
    inputMedia: rendered?.media ?? [],
    toolMedia: call?.media ?? [],
    secondRequest: second.map((message) => {
      if (message.role !== 'user' || typeof message.content === 'string') return message.role;
      const media: MediaPart[] = message.content.filter(isMediaPart);
      return `user: ${contentText(message.content)} + ${media.map((part) => part.mediaType).join(', ')}`;
    }),
    blobs: blobs.count,
  };
}
