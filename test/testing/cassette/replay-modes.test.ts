import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';

import {
  ConfigurationError,
  MarkdownSection,
  Prompt,
  PromptEvaluationError,
  type ToolDefinition,
} from 'affordance';
import { type ToolSpec, toolSpecOf } from 'affordance/provider';
import {
  Cassette,
  CassetteMismatchError,
  RecordingAdapter,
  ReplayAdapter,
  ScriptedAdapter,
} from 'affordance/testing';

import { catchRejection } from '../../support/catch-error.js';
import { orderDesk } from '../../support/order-desk.js';
import { cassetteFolder, freshRuntime } from './cassette-support.js';

const answer = [
  { toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'A-1' } }] },
  { text: 'A-1 has shipped.' },
];

/** The order desk without its `annotate` tool, `lookup_order` described anew. */
function fewerTools(): Prompt {
  const [section] = orderDesk([]).sections as readonly MarkdownSection[];
  const lookup = section?.tools[0];
  if (lookup === undefined) throw new Error('the order desk has no tools');
  return new Prompt({
    ns: 'test/openai',
    key: 'order-desk',
    sections: [
      new MarkdownSection({
        key: 'orders',
        title: 'Orders',
        template: 'Answer questions about orders. Look orders up before answering.',
        tools: [lookup.withDescription('Find an order by its id.')],
      }),
    ],
  });
}

async function recorded(): Promise<string> {
  const file = join(cassetteFolder(), 'desk.json');
  const recording = new RecordingAdapter(new ScriptedAdapter(answer), { cassette: file });
  await freshRuntime().evaluate(orderDesk([]), { adapter: recording });
  return file;
}

describe('ReplayAdapter modes and errors', () => {
  it('names the tool that was removed and the description that changed', async () => {
    const file = await recorded();
    const error = await catchRejection(PromptEvaluationError, () =>
      freshRuntime().evaluate(fewerTools(), { adapter: new ReplayAdapter({ cassette: file }) }),
    );
    const mismatch = error.cause as CassetteMismatchError;
    expect(mismatch).toBeInstanceOf(CassetteMismatchError);
    expect(CassetteMismatchError.is(mismatch)).toBe(true);
    expect(mismatch.differences.map((difference) => difference.path)).toEqual([
      "tools['lookup_order'].description",
      "tools['annotate']",
    ]);
    expect(mismatch.message).toContain("- tools['annotate']: recorded, not sent");
    expect(mismatch.message).toContain(
      `- tools['lookup_order'].description: differs at character 0: recorded "Look an order up by id.", sent "Find an order by its id."`,
    );
  });

  it("records everything anew in mode 'record', replacing the file", async () => {
    const file = await recorded();
    const live = new ScriptedAdapter([{ text: 'Nothing to look up.' }]);
    const adapter = new ReplayAdapter({ cassette: file, mode: 'record', live });
    const response = await freshRuntime().evaluate(orderDesk([]), { adapter });
    expect(response.text).toBe('Nothing to look up.');
    expect(live.remaining).toBe(0);
    expect(Cassette.read(file)?.interactions.map((interaction) => interaction.turn.text)).toEqual([
      'Nothing to look up.',
    ]);
  });

  it("replays matches in mode 'record-missing' without calling the live adapter", async () => {
    const file = await recorded();
    const live = new ScriptedAdapter([]);
    const adapter = new ReplayAdapter({ cassette: file, mode: 'record-missing', live });
    const response = await freshRuntime().evaluate(orderDesk([]), { adapter });
    expect([response.text, live.requests.length]).toEqual(['A-1 has shipped.', 0]);
  });

  it("refuses in mode 'record-missing' to add another model's answers", async () => {
    const file = await recorded();
    class OtherModel extends ScriptedAdapter {
      override readonly model = 'gpt-other';
    }
    expect(
      () => new ReplayAdapter({ cassette: file, mode: 'record-missing', live: new OtherModel([]) }),
    ).toThrow(
      "The cassette was recorded from 'scripted', and mode 'record-missing' would add answers of 'scripted' (model 'gpt-other') to it.",
    );
  });

  it('refuses a cassette of another format version, naming the file', async () => {
    const file = await recorded();
    const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...data, version: 99 }));
    const error = (() => {
      try {
        return new ReplayAdapter({ cassette: file });
      } catch (thrown) {
        return thrown;
      }
    })();
    expect([ConfigurationError.is(error), CassetteMismatchError.is(error)]).toEqual([true, false]);
    expect((error as Error).message).toBe(
      `Cassette '${file}': It cannot be replayed: it is format version 99; this build reads version 1. ` +
        "Fix: Record it again: a ReplayAdapter with mode 'record' and a live adapter (or a RecordingAdapter) writes a new one.",
    );
  });

  it('offers each tool with the schema choice of the recording when no live adapter is given', async () => {
    /** Strict tools, but `lookup_order` sent non-strict (as OpenAI sends its shell tool). */
    class LooseLookup extends ScriptedAdapter {
      override readonly capabilities = {
        ...new ScriptedAdapter([]).capabilities,
        strictTools: true,
      };
      override toolSpec(
        tool: ToolDefinition,
        descriptions?: ReadonlyMap<string, string>,
      ): ToolSpec {
        return toolSpecOf(tool, tool.name !== 'lookup_order', descriptions);
      }
    }
    const file = join(cassetteFolder(), 'desk.json');
    const recording = new RecordingAdapter(new LooseLookup(answer), { cassette: file });
    await freshRuntime().evaluate(orderDesk([]), { adapter: recording });
    const replay = new ReplayAdapter({ cassette: file });
    const response = await freshRuntime().evaluate(orderDesk([]), { adapter: replay });
    expect(response.text).toBe('A-1 has shipped.');
    expect(Cassette.read(file)?.interactions[0]?.request.tools.map((tool) => tool.strict)).toEqual([
      false,
      false,
    ]);
  });

  it('carries the recorded name, model and capabilities', () => {
    class Described extends ScriptedAdapter {
      override readonly name = 'acme-llm';
      override readonly model = 'acme-1';
    }
    const cassette = Cassette.of(new Described([]));
    const replay = new ReplayAdapter({ cassette: Cassette.parse(cassette.toString()) });
    expect([replay.name, replay.model, replay.capabilities]).toEqual([
      'acme-llm',
      'acme-1',
      new ScriptedAdapter([]).capabilities,
    ]);
  });
});
