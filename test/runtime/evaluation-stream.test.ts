import { IsInt, IsString, Max, Min } from 'class-validator';

import {
  Deadline,
  type EvaluationStreamPart,
  MarkdownSection,
  Prompt,
  PromptEvaluationError,
  PromptExecuted,
  PromptRendered,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import {
  ProviderAdapter,
  type ProviderRequest,
  type ProviderStreamPart,
  type ProviderTurn,
} from 'affordance/provider';
import { createTestRuntime, ScriptedAdapter, type ScriptedTurn } from 'affordance/testing';

import { deferred } from '../support/deferred.js';

class EchoParams {
  @IsString() text!: string;
  @IsInt() @Min(1) @Max(3) count!: number;
}

class WaitParams {
  @IsString() label!: string;
}

/** Tools: `echo` repeats text; `wait` blocks until its call is aborted (or `release` resolves). */
function tools(release = deferred()) {
  const started = deferred();
  const section = new MarkdownSection({
    key: 'tools',
    title: 'Tools',
    template: 'Use the tools.',
    tools: [
      new ToolDefinition({
        name: 'echo',
        description: 'Repeat text.',
        params: EchoParams,
        handler: (params: EchoParams) => ToolResult.ok(params.text.repeat(params.count), 'Echoed.'),
      }),
      new ToolDefinition({
        name: 'wait',
        description: 'Wait until released.',
        params: WaitParams,
        handler: async (params: WaitParams, context) => {
          started.resolve();
          await Promise.race([
            release.promise,
            new Promise((resolve) => {
              context.signal.addEventListener('abort', resolve);
            }),
          ]);
          return ToolResult.ok(params.label, 'Waited.');
        },
      }),
    ],
  });
  return {
    prompt: new Prompt({ ns: 'test', key: 'stream', sections: [section] }),
    started,
    release,
  };
}

const script: ScriptedTurn[] = [
  {
    text: 'Let me echo twice.',
    toolCalls: [
      { callId: 'a', name: 'echo', arguments: { text: 'hi', count: 2 } },
      { callId: 'b', name: 'echo', arguments: { text: 'no', count: 9 } },
    ],
    usage: { inputTokens: 10, outputTokens: 4 },
  },
  {
    text: 'The echo says hihi, and the second call was refused.',
    usage: { inputTokens: 20, outputTokens: 9 },
  },
];

/** Every event the session recorded, without the fields that differ between two runs (ids, times). */
function recorded(session: Session): unknown[] {
  const events: object[] = [];
  for (const type of [PromptRendered, ToolInvoked, PromptExecuted]) {
    session.dispatcher.subscribe(type, (event: object) => {
      events.push(event);
    });
  }
  return events;
}

function comparable(events: unknown[]): unknown[] {
  const varying = new Set(['eventId', 'createdAt', 'evaluationId', 'sessionId', 'durationMs']);
  return events.map((event) => {
    const fields = Object.entries(event as object).filter(([field]) => !varying.has(field));
    const copy = Object.fromEntries([['type', (event as object).constructor.name], ...fields]);
    return JSON.parse(JSON.stringify(copy)) as unknown;
  });
}

/** The phase of a `PromptEvaluationError`, `undefined` for any other error. */
function phaseOf(error: Error): string | undefined {
  return PromptEvaluationError.is(error) ? error.phase : undefined;
}

async function collect<O>(
  stream: AsyncIterable<EvaluationStreamPart<O>>,
): Promise<EvaluationStreamPart<O>[]> {
  const parts: EvaluationStreamPart<O>[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe('runtime.stream', () => {
  it('should record exactly the events evaluate records, in the same order', async () => {
    const { prompt } = tools();
    const evaluated = new Session();
    const evaluatedEvents = recorded(evaluated);
    const response = await createTestRuntime({ script }).evaluate(prompt, {
      session: evaluated,
      input: 'Go.',
    });

    const streamed = new Session();
    const streamedEvents = recorded(streamed);
    const parts = await collect(
      createTestRuntime({ script }).runtime.stream(prompt, { session: streamed, input: 'Go.' }),
    );

    expect(streamedEvents).toHaveLength(4);
    expect(comparable(streamedEvents)).toEqual(comparable(evaluatedEvents));
    const answer = parts.at(-1);
    expect(answer?.type).toBe('answer');
    if (answer?.type !== 'answer') return;
    expect(answer.response.text).toBe(response.text);
    expect(answer.response.turns).toBe(2);
    expect(answer.response.usage?.outputTokens).toBe(13);
    expect(answer.response.toolCalls.map((call) => call.message)).toEqual(
      response.toolCalls.map((call) => call.message),
    );
  });

  it('should stream text word by word, tool calls as they start and as they are recorded, usage and turn ends', async () => {
    const { prompt } = tools();
    const session = new Session();
    const parts = await collect(createTestRuntime({ script }).runtime.stream(prompt, { session }));

    expect(parts.map((part) => part.type)).toEqual([
      'turn-start',
      ...Array<string>(4).fill('text-delta'),
      'tool-call-start',
      'tool-arguments-delta',
      'tool-arguments-delta',
      'tool-call-start',
      'tool-arguments-delta',
      'tool-arguments-delta',
      'usage',
      'turn-end',
      'tool-call-end',
      'tool-call-end',
      'turn-start',
      ...Array<string>(10).fill('text-delta'),
      'usage',
      'turn-end',
      'answer',
    ]);
    const text = (turn: number) =>
      parts
        .map((part) => (part.type === 'text-delta' && part.turn === turn ? part.delta : ''))
        .join('');
    expect(text(0)).toBe('Let me echo twice.');
    expect(text(1)).toBe('The echo says hihi, and the second call was refused.');
    const argumentsOf = (callId: string) =>
      parts
        .map((part) =>
          part.type === 'tool-arguments-delta' && part.callId === callId ? part.delta : '',
        )
        .join('');
    expect(JSON.parse(argumentsOf('a'))).toEqual({ text: 'hi', count: 2 });
    expect(JSON.parse(argumentsOf('b'))).toEqual({ text: 'no', count: 9 });

    const ends = parts.filter((part) => part.type === 'tool-call-end');
    const invoked = session.slice(ToolInvoked).all();
    expect(ends.map((part) => part.event)).toEqual(invoked);
    expect(ends[0]?.event).toBe(invoked[0]);
    expect(ends.map((part) => [part.event.callId, part.event.outcome])).toEqual([
      ['a', 'success'],
      ['b', 'failure'],
    ]);
    expect(ends[1]?.message).toContain('count');
    const turnEnds = parts.filter((part) => part.type === 'turn-end');
    expect(turnEnds.map((part) => [part.finishReason, part.toolCalls])).toEqual([
      ['tool_calls', 2],
      ['stop', 0],
    ]);
    const usage = parts.filter((part) => part.type === 'usage');
    expect(usage.map((part) => [part.usage.inputTokens, part.total.inputTokens])).toEqual([
      [10, 10],
      [20, 30],
    ]);
  });

  it('should not read ahead of a slow consumer by more than a small buffer', async () => {
    const { prompt } = tools();
    const words = Array.from({ length: 400 }, (_, index) => `w${index}`).join(' ');
    let yielded = 0;
    class CountingAdapter extends ScriptedAdapter {
      override async *stream(
        request: ProviderRequest,
      ): AsyncGenerator<ProviderStreamPart, void, undefined> {
        for await (const part of super.stream(request)) {
          yielded += 1;
          yield part;
        }
      }
    }
    const adapter = new CountingAdapter([{ text: words }]);
    const { runtime } = createTestRuntime();
    const iterator = runtime.stream(prompt, { adapter })[Symbol.asyncIterator]();

    await iterator.next();
    for (let tick = 0; tick < 50; tick++) await new Promise((resolve) => setImmediate(resolve));
    const aheadWhilePaused = yielded;
    let read = 1;
    while (!(await iterator.next()).done) read += 1;

    expect(aheadWhilePaused).toBeGreaterThan(0);
    expect(aheadWhilePaused).toBeLessThanOrEqual(20);
    expect(yielded).toBe(401);
    expect(read).toBe(1 + 400 + 1 + 1);
  });

  it('should cancel the evaluation when the consumer breaks out, recording the running call as unknown, and resolve after cleanup', async () => {
    const { prompt, started } = tools();
    const session = new Session();
    const { runtime, adapter } = createTestRuntime({
      script: [{ toolCalls: [{ callId: 'w', name: 'wait', arguments: { label: 'x' } }] }],
    });

    const seen: string[] = [];
    for await (const part of runtime.stream(prompt, { session })) {
      seen.push(part.type);
      if (part.type === 'turn-end') {
        await started.promise;
        break;
      }
    }

    expect(seen.at(-1)).toBe('turn-end');
    const [call] = session.slice(ToolInvoked).all();
    expect(call?.callId).toBe('w');
    expect(call?.outcome).toBe('unknown');
    expect(session.slice(PromptExecuted).all()).toHaveLength(0);
    expect(adapter.remaining).toBe(0);
  });

  it("should stop with an error part when the caller's signal aborts mid-stream", async () => {
    const { prompt } = tools();
    const controller = new AbortController();
    const adapter = new ScriptedAdapter([{ text: 'one two three four five six seven eight' }], {
      deltaDelayMs: 5,
    });
    const { runtime } = createTestRuntime();

    const parts: EvaluationStreamPart[] = [];
    for await (const part of runtime.stream(prompt, { adapter, signal: controller.signal })) {
      parts.push(part);
      if (part.type === 'text-delta' && part.delta.startsWith('two'))
        controller.abort(new Error('user left'));
    }

    const last = parts.at(-1);
    expect(last?.type).toBe('error');
    if (last?.type !== 'error') return;
    expect(PromptEvaluationError.is(last.error)).toBe(true);
    expect(phaseOf(last.error)).toBe('request');
    expect(last.error.message).toMatch(/cancelled/);
    expect(parts.filter((part) => part.type === 'text-delta').length).toBeLessThan(8);
    expect(parts.some((part) => part.type === 'answer')).toBe(false);
  });

  it('should end with an error part naming the deadline when it passes mid-stream', async () => {
    const { prompt } = tools();
    const words = Array.from({ length: 200 }, (_, index) => `w${index}`).join(' ');
    const adapter = new ScriptedAdapter([{ text: words }], { deltaDelayMs: 20 });
    const { runtime } = createTestRuntime();

    const parts = await collect(
      runtime.stream(prompt, { adapter, deadline: Deadline.in(Deadline.minLeadMs) }),
    );

    const last = parts.at(-1);
    expect(last?.type).toBe('error');
    if (last?.type !== 'error') return;
    expect(last.error.message).toMatch(/deadline/i);
    expect(parts.filter((part) => part.type === 'text-delta').length).toBeLessThan(200);
  });

  it('should let an exception thrown by the consumer propagate after the evaluation wound down', async () => {
    const { prompt, started } = tools();
    const session = new Session();
    const { runtime } = createTestRuntime({
      script: [{ toolCalls: [{ callId: 'w', name: 'wait', arguments: { label: 'x' } }] }],
    });

    const consume = async () => {
      for await (const part of runtime.stream(prompt, { session })) {
        if (part.type === 'turn-end') {
          await started.promise;
          throw new Error('consumer failed');
        }
      }
    };

    await expect(consume()).rejects.toThrow('consumer failed');
    expect(
      session
        .slice(ToolInvoked)
        .all()
        .map((event) => event.outcome),
    ).toEqual(['unknown']);
  });

  it('should report a failed evaluation as one error part, never as a thrown exception', async () => {
    const { prompt } = tools();
    const { runtime } = createTestRuntime({
      script: [{ toolCalls: [{ name: 'echo', arguments: { text: 'a', count: 1 } }] }],
    });

    const parts = await collect(runtime.stream(prompt, { maxTurns: 1 }));

    const last = parts.at(-1);
    expect(parts.filter((part) => part.type === 'error')).toHaveLength(1);
    expect(last?.type === 'error' && phaseOf(last.error)).toBe('response');
    expect(last?.type === 'error' && last.error.message).toContain('maxTurns');
  });

  it('should stream whole turns from an adapter that cannot stream', async () => {
    const { prompt } = tools();
    class WholeTurnAdapter extends ProviderAdapter {
      readonly name = 'whole';
      readonly capabilities = new ScriptedAdapter([]).capabilities;
      request(): Promise<ProviderTurn> {
        return Promise.resolve({ text: 'All at once.', finishReason: 'stop' });
      }
    }
    const { runtime } = createTestRuntime();

    const parts = await collect(runtime.stream(prompt, { adapter: new WholeTurnAdapter() }));

    expect(parts.map((part) => part.type)).toEqual([
      'turn-start',
      'text-delta',
      'turn-end',
      'answer',
    ]);
    expect(parts[1]?.type === 'text-delta' && parts[1].delta).toBe('All at once.');
  });

  it("should fail the request when an adapter's stream ends without its turn", async () => {
    const { prompt } = tools();
    class BrokenStream extends ScriptedAdapter {
      override async *stream(): AsyncGenerator<ProviderStreamPart, void, undefined> {
        yield { type: 'text-delta', delta: 'partial' };
        await Promise.resolve();
      }
    }
    const { runtime } = createTestRuntime();

    const parts = await collect(runtime.stream(prompt, { adapter: new BrokenStream([]) }));

    const last = parts.at(-1);
    expect(last?.type === 'error' && last.error.message).toContain("ended without a 'turn' part");
    expect(last?.type === 'error' && phaseOf(last.error)).toBe('request');
  });

  it('should never start an evaluation cancelled before its first read', async () => {
    const { prompt } = tools();
    const session = new Session();
    const { runtime, adapter } = createTestRuntime({ script: [{ text: 'unused' }] });
    const stream = runtime.stream(prompt, { session });

    await stream.cancel();
    const parts = await collect(stream);

    expect(parts).toEqual([]);
    expect(session.slice(PromptRendered).all()).toHaveLength(0);
    expect(adapter.requests).toHaveLength(0);
  });

  it('should refuse to be iterated twice', () => {
    const { prompt } = tools();
    const stream = createTestRuntime().runtime.stream(prompt);
    stream[Symbol.asyncIterator]();

    expect(() => stream[Symbol.asyncIterator]()).toThrow(/iterated once/);
  });
});
