/**
 * Media (issue 35): (1) memory: an evaluation that sends a 5 MB image and runs
 * 10 turns holds its bytes once (heap and array-buffer growth measured at the
 * last request, goal ≤ 1.1 × the image); (2) a session snapshot stays flat in
 * the number of media parts recorded; (3) the cost of one image part over a
 * text-only request when building an OpenAI Responses request. Needs
 * `--expose-gc`, which `npm run bench` passes.
 */
import 'reflect-metadata';

import { IsString } from 'class-validator';
import { Container } from 'inversify';

import {
  installAffordance,
  MarkdownSection,
  Media,
  type MediaPart,
  Prompt,
  Session,
  ToolDefinition,
  ToolResult,
} from '../../src/index.js';
import {
  type ConversationMessage,
  providerCapabilities,
  ProviderAdapter,
  type ProviderRequest,
  type ProviderTurn,
} from '../../src/provider/index.js';
import { systemClock } from '../../src/core/clock.js';
import { buildResponsesRequest } from '../../src/openai/request/build-responses-request.js';
import { pngFile } from '../support/media-files.js';
import { compare } from './measure.js';

const MB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;

/** Heap and array-buffer bytes in use after full collections (buffers are freed a tick after their wrappers). */
async function live(): Promise<number> {
  for (let pass = 0; pass < 4; pass += 1) {
    gc?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

class NoteParams {
  @IsString() note!: string;
}

const desk = new Prompt({
  ns: 'bench',
  key: 'media',
  sections: [
    new MarkdownSection({
      key: 'desk',
      title: 'Desk',
      template: 'Read the image.',
      tools: [
        new ToolDefinition({
          name: 'note',
          description: 'Note something.',
          params: NoteParams,
          handler: (params: NoteParams) => ToolResult.ok(null, `Noted ${params.note}.`),
        }),
      ],
    }),
  ],
});

/** Calls `note` for 9 turns, answers on the 10th; measures live memory at the last request. */
class TenTurnModel extends ProviderAdapter {
  override readonly name = 'ten-turns';
  override readonly capabilities = providerCapabilities();
  atLastRequest = 0;
  constructor(private readonly image: MediaPart) {
    super();
  }
  override async request(request: ProviderRequest): Promise<ProviderTurn> {
    const user = request.messages[1];
    // Every turn must still see the very same part: checked, not assumed.
    if (
      user?.role !== 'user' ||
      typeof user.content === 'string' ||
      user.content[1] !== this.image
    ) {
      throw new Error('the image is not in the conversation');
    }
    if (request.turn < 9) {
      return {
        toolCalls: [
          { callId: `c${request.turn}`, name: 'note', arguments: `{"note":"${request.turn}"}` },
        ],
      };
    }
    this.atLastRequest = await live();
    return { text: 'Read it.' };
  }
}

async function memoryOnce(): Promise<number> {
  const image = Media.image(pngFile(64, 64, 5 * 1000 * 1000));
  const container = new Container();
  const runtime = installAffordance(container);
  const model = new TenTurnModel(image);
  const before = await live();
  const response = await runtime.evaluate(desk, {
    adapter: model,
    input: [Media.text('What is this?'), image],
  });
  if (response.text !== 'Read it.' || response.toolCalls.length !== 9) {
    throw new Error('the evaluation did not run its 10 turns');
  }
  return (model.atLastRequest - before) / image.size;
}

async function snapshotBytes(parts: number): Promise<number> {
  const session = new Session();
  const shots = Array.from({ length: parts }, (_, index) =>
    Media.image(pngFile(16, 16, 20_000, index & 0xff)),
  );
  const show = new Prompt({
    ns: 'bench',
    key: 'shots',
    sections: [
      new MarkdownSection({
        key: 'shots',
        title: 'Shots',
        template: 'Show.',
        tools: [
          new ToolDefinition({
            name: 'show',
            description: 'Show a screenshot.',
            params: NoteParams,
            handler: (params: NoteParams) =>
              ToolResult.withMedia('Shown.', [shots[Number(params.note)] as MediaPart]),
          }),
        ],
      }),
    ],
  });
  const container = new Container();
  const runtime = installAffordance(container, {
    media: { maxBytesPerEvaluation: 1024 * MB },
    governor: { enabled: false },
  });
  let turn = 0;
  const model = new (class extends ProviderAdapter {
    override readonly name = 'shots';
    override readonly capabilities = providerCapabilities({ mediaInToolResults: true });
    override request(): Promise<ProviderTurn> {
      if (turn < parts) {
        const call = { callId: `s${turn}`, name: 'show', arguments: `{"note":"${turn}"}` };
        turn += 1;
        return Promise.resolve({ toolCalls: [call] });
      }
      return Promise.resolve({ text: 'Done.' });
    }
  })();
  await runtime.evaluate(show, { adapter: model, session, maxTurns: parts + 1 });
  const before = await live();
  const snapshots = Array.from({ length: 100 }, () => session.snapshot());
  const after = await live();
  if (snapshots.length !== 100) throw new Error('unreachable');
  return (after - before) / 100;
}

function requestOf(messages: readonly ConversationMessage[]): ProviderRequest {
  return {
    prompt: { name: 'bench/media', ns: 'bench', key: 'media', label: 'bench/media' },
    messages,
    tools: [],
    toolChoice: 'auto',
    output: undefined,
    turn: 0,
    evaluationId: 'ev-bench',
    signal: new AbortController().signal,
    deadline: undefined,
    clock: systemClock,
  };
}

export default async function run(): Promise<void> {
  console.log('\nMedia: memory of an evaluation sending a 5 MB image over 10 turns');
  const ratios: number[] = [];
  for (let round = 0; round < 3; round += 1) ratios.push(await memoryOnce());
  const median = ratios.sort((a, b) => a - b)[1] as number;
  console.log(
    `  growth at the last request / image size: ${ratios.map((r) => r.toFixed(3)).join(', ')}; ` +
      `median ×${median.toFixed(3)} (goal ≤ 1.1: ${median <= 1.1 ? 'met' : 'not met'})`,
  );

  console.log('\nMedia: bytes retained per session snapshot, by media parts recorded');
  const small = await snapshotBytes(10);
  const large = await snapshotBytes(200);
  console.log(
    `  10 parts: ${small.toFixed(0)} B/snapshot; 200 parts (20 KB each): ${large.toFixed(0)} B/snapshot; ` +
      `growth ${(large - small).toFixed(0)} B for 190 more parts (goal: flat, under 1 KB: ${large - small < 1024 ? 'met' : 'not met'})`,
  );

  const text: ConversationMessage[] = [
    { role: 'system', content: 'Read what the customer sends.' },
    { role: 'user', content: 'What is wrong with my checkout page?' },
  ];
  const imageBytes = pngFile(64, 64, MB);
  const image = Media.image(imageBytes);
  const withImage = (part: MediaPart): ConversationMessage[] => [
    text[0] as ConversationMessage,
    { role: 'user', content: [Media.text('What is wrong with my checkout page?'), part] },
  ];
  const options = { model: 'gpt-test' };
  const check = (body: object, parts: number): void => {
    const input = (body as { body: { input: { content: unknown }[] } }).body.input;
    const content = input[0]?.content;
    if ((parts === 0) !== (typeof content === 'string')) throw new Error('wrong request body');
  };
  await compare(
    'Media: building a Responses request (fresh conversation each time), one 1 MB image vs text only',
    [
      {
        name: 'text only',
        sync: true,
        run: () => {
          check(buildResponsesRequest(requestOf(text.map((m) => ({ ...m }))), options, ''), 0);
        },
      },
      {
        name: '1 MB image, encoded once per part',
        sync: true,
        goal: 3,
        run: () => {
          check(buildResponsesRequest(requestOf(withImage(image)), options, ''), 1);
        },
      },
      {
        name: '1 MB image, a new part each time (built, hashed and encoded)',
        sync: true,
        run: () => {
          check(
            buildResponsesRequest(requestOf(withImage(Media.image(imageBytes))), options, ''),
            1,
          );
        },
      },
    ],
    { baseline: 'text only', batch: 20, rounds: 7, warmup: 20 },
  );
}
