import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ConfigurationError, MarkdownSection, Prompt, PromptEvaluationError } from 'affordance';
import {
  type AdapterHarness,
  Cassette,
  CassetteMismatchError,
  RecordingAdapter,
  ReplayAdapter,
} from 'affordance/testing';

import { anthropicHarness } from '../../conformance/anthropic-harness.js';
import { openAIHarness } from '../../conformance/openai-harness.js';
import { catchRejection } from '../../support/catch-error.js';
import { orderDesk } from '../../support/order-desk.js';
import { cassetteFolder, freshRuntime, orderScript, runDesk } from './cassette-support.js';

/** The order desk with another instruction: the change a prompt author makes. */
function changedDesk(...args: Parameters<typeof orderDesk>): Prompt {
  const desk = orderDesk(...args);
  const [section] = desk.sections as readonly MarkdownSection[];
  return new Prompt({
    ns: desk.ns,
    key: desk.key,
    sections: [
      new MarkdownSection({
        key: 'orders',
        title: 'Orders',
        template: 'Answer questions about refunds. Look orders up before answering.',
        tools: section?.tools ?? [],
      }),
    ],
  });
}

const harnesses: [string, () => AdapterHarness][] = [
  ['OpenAIAdapter (responses)', () => openAIHarness('responses')],
  ['OpenAIAdapter (chat)', () => openAIHarness('chat')],
  ['AnthropicAdapter', () => anthropicHarness()],
];

describe.each(harnesses)('cassettes recorded from %s', (_name, harness) => {
  it('replays the evaluations with the server stopped: same answers, tool calls and deltas', async () => {
    const file = join(cassetteFolder(), 'desk.json');
    const opened = await harness().open(orderScript);
    const recording = new RecordingAdapter(opened.adapter, { cassette: file });
    const live = await runDesk(recording);
    const served = opened.requests().length;
    await opened.close();

    const replay = new ReplayAdapter({ cassette: file });
    const replayed = await runDesk(replay);

    expect(served).toBe(orderScript.length);
    expect(replayed).toEqual(live);
    expect(live.toolInvoked).toHaveLength(4);
    expect([replay.name, replay.model, replay.capabilities]).toEqual([
      opened.adapter.name,
      opened.adapter.model,
      opened.adapter.capabilities,
    ]);
    const cassette = Cassette.read(file);
    const interactions = cassette?.interactions ?? [];
    expect(interactions).toHaveLength(orderScript.length);
    // The streamed evaluation's first request is the evaluated one's again: one key, replayed in order.
    expect(interactions[3]?.key).toBe(interactions[0]?.key);
    expect(interactions.map((interaction) => interaction.parts !== undefined)).toEqual([
      false,
      false,
      false,
      true,
      true,
      false,
    ]);
  });

  it('names the changed message when the prompt changed, and record-missing fills the gap', async () => {
    const file = join(cassetteFolder(), 'desk.json');
    const first = await harness().open(orderScript);
    await runDesk(new RecordingAdapter(first.adapter, { cassette: file }));
    await first.close();

    const error = await catchRejection(PromptEvaluationError, () =>
      runDesk(new ReplayAdapter({ cassette: file }), changedDesk),
    );
    const mismatch = error.cause;
    expect(mismatch).toBeInstanceOf(CassetteMismatchError);
    expect(ConfigurationError.is(mismatch)).toBe(true);
    const { message, differences } = mismatch as CassetteMismatchError;
    expect(differences.map((difference) => difference.path)).toEqual([
      'messages[0] (system).content',
    ]);
    expect(message).toContain('messages[0] (system).content: differs at character');
    expect(message).toContain('recorded …"\\nAnswer questions about orders.');
    expect(message).toContain('sent …"\\nAnswer questions about refunds.');
    expect(message).toContain("mode 'record-missing'");

    // The changed prompt is recorded from the live provider; the rest is replayed from the cassette.
    const second = await harness().open(orderScript.slice(0, 5));
    const filling = new ReplayAdapter({
      cassette: file,
      mode: 'record-missing',
      live: second.adapter,
    });
    const filled = await runDesk(filling, changedDesk);
    expect(second.requests()).toHaveLength(5);
    await second.close();
    expect(Cassette.read(file)?.interactions).toHaveLength(orderScript.length + 5);

    expect(await runDesk(new ReplayAdapter({ cassette: file }), changedDesk)).toEqual(filled);
    expect(await runDesk(new ReplayAdapter({ cassette: file }))).toEqual(
      await runDesk(new ReplayAdapter({ cassette: file })),
    );
  });
});

describe('ReplayAdapter', () => {
  it('refuses a missing cassette in replay mode, naming the path and how to record it', () => {
    const file = join(cassetteFolder(), 'none.json');
    expect(() => new ReplayAdapter({ cassette: file })).toThrow(
      `ReplayAdapter (cassette '${file}'): There is no cassette file at this path`,
    );
    expect(() => new ReplayAdapter({ cassette: file, mode: 'record' })).toThrow(
      "Mode 'record' records from a live adapter, and none was given.",
    );
  });

  it('refuses to replay a request more often than it was recorded', async () => {
    const file = join(cassetteFolder(), 'desk.json');
    const opened = await openAIHarness('responses').open(orderScript.slice(0, 3));
    const recording = new RecordingAdapter(opened.adapter, { cassette: file });
    const runtime = freshRuntime();
    await runtime.evaluate(orderDesk([]), { adapter: recording });
    await opened.close();

    const replay = new ReplayAdapter({ cassette: file });
    await runtime.evaluate(orderDesk([]), { adapter: replay });
    const error = await catchRejection(PromptEvaluationError, () =>
      runtime.evaluate(orderDesk([]), { adapter: replay }),
    );
    expect(error.cause).toBeInstanceOf(CassetteMismatchError);
    expect((error.cause as Error).message).toContain(
      'was recorded 1 time(s) and every recording was replayed already',
    );
  });

  it('writes a versioned, two-space indented file', async () => {
    const file = join(cassetteFolder(), 'desk.json');
    const opened = await anthropicHarness().open(orderScript.slice(0, 3));
    const runtime = freshRuntime();
    await runtime.evaluate(orderDesk([]), {
      adapter: new RecordingAdapter(opened.adapter, { cassette: file }),
    });
    await opened.close();
    const text = readFileSync(file, 'utf8');
    const data = JSON.parse(text) as Record<string, unknown>;
    expect([data['format'], data['version'], Object.keys(data)]).toEqual([
      'affordance-cassette',
      1,
      ['format', 'version', 'adapter', 'interactions'],
    ]);
    expect(text).toBe(`${JSON.stringify(data, null, 2)}\n`);
  });
});
