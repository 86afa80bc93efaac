import {
  type EvaluationStreamPart,
  Session,
  type ToolContext,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { createTestRuntime, ScriptedAdapter, type ScriptedTurn } from 'affordance/testing';

import { settle } from '../support/conversation.js';
import { Note, workPrompt } from './work-prompt.js';

/** How many parts a stream buffers ahead of its reader (docs/guide/guarantees.md). */
const BUFFERED_PARTS = 16;
const CALLS = 40;

/** A model turn of `CALLS` calls of `note`, then a final answer. */
function script(): ScriptedTurn[] {
  return [
    {
      toolCalls: Array.from({ length: CALLS }, (_, index) => ({
        callId: `call_${index}`,
        name: 'note',
        arguments: {},
      })),
    },
    { text: 'All noted.' },
  ];
}

/** A state-changing tool that writes one note per call and counts the calls that ran. */
function noteTool(ran: { count: number }): ToolDefinition {
  return new ToolDefinition({
    name: 'note',
    description: 'Write a note.',
    handler: (_params: undefined, context: ToolContext) => {
      ran.count += 1;
      context.session.slice(Note).append(new Note(context.callId));
      return ToolResult.ok(null, 'noted');
    },
  });
}

/** Turns of the event loop until `read()` stops changing (the evaluation is waiting), at most 200. */
async function untilStill(read: () => number): Promise<number> {
  let last = read();
  for (let still = 0, round = 0; still < 5 && round < 200; round += 1) {
    await settle();
    const now = read();
    still = now === last ? still + 1 : 0;
    last = now;
  }
  return last;
}

describe('A stream whose reader stops reading (without return() or cancel())', () => {
  it('starts no tool call once 16 parts are unread, and a later cancel leaves every call recorded once', async () => {
    const ran = { count: 0 };
    const session = new Session();
    const { runtime, adapter } = createTestRuntime({ script: script() });
    const stream = runtime.stream(workPrompt('abandoned', [noteTool(ran)]), {
      adapter,
      session,
    });
    const parts = stream[Symbol.asyncIterator]();
    // The reader reads up to the end of the turn that asks for the calls, then stops reading.
    let part: IteratorResult<EvaluationStreamPart>;
    do part = await parts.next();
    while (part.done !== true && part.value.type !== 'turn-end');

    // The evaluation runs ahead of the reader until the buffer is full: each call sends one part, so
    // 16 calls run (the reader has read every part before them); before, all 40 ran for nobody.
    expect(await untilStill(() => ran.count)).toBe(BUFFERED_PARTS);

    await stream.cancel();
    const recorded = session.slice(ToolInvoked).all();
    expect(recorded.map((event) => event.outcome)).toEqual(
      Array.from({ length: BUFFERED_PARTS }, () => 'success'),
    );
    // No half-recorded call: each call that ran has its note and its record, and nothing else ran.
    expect(
      session
        .slice(Note)
        .all()
        .map((note) => note.text),
    ).toEqual(recorded.map((event) => event.callId));
    expect(ran.count).toBe(BUFFERED_PARTS);
  });

  it("runs none of a turn's calls for 100 readers that left before reading the turn", async () => {
    const ran = { count: 0 };
    const { runtime } = createTestRuntime();
    const prompt = workPrompt('abandoned-early', [noteTool(ran)]);
    for (let reader = 0; reader < 100; reader += 1) {
      const adapter = new ScriptedAdapter([
        { toolCalls: [1, 2, 3].map(() => ({ name: 'note', arguments: {} })) },
        { text: 'Noted.' },
      ]);
      // Each reader reads the first part (turn-start) and goes away without return() or cancel().
      await runtime.stream(prompt, { adapter })[Symbol.asyncIterator]().next();
    }
    // Before: 300 calls ran, 3 per stream, for nobody.
    expect(await untilStill(() => ran.count)).toBe(0);
  });

  it('runs every call for a reader that reads on, however slowly', async () => {
    const ran = { count: 0 };
    const { runtime, adapter } = createTestRuntime({ script: script() });
    const types: string[] = [];
    for await (const part of runtime.stream(workPrompt('slow-reader', [noteTool(ran)]), {
      adapter,
    })) {
      types.push(part.type);
      await settle();
    }
    expect(ran.count).toBe(CALLS);
    expect(types.filter((type) => type === 'tool-call-end')).toHaveLength(CALLS);
    expect(types.at(-1)).toBe('answer');
  });
});
