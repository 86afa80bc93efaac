import { IsString } from 'class-validator';

import {
  ConfigurationError,
  MarkdownSection,
  Prompt,
  Section,
  Session,
  Tool,
  type ToolContext,
  ToolDefinition,
  type ToolDefinitionInit,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { createTestRuntime, ManualClock, type ScriptedTurn } from 'affordance/testing';

import { deferred } from '../support/deferred.js';
import { catchError } from '../support/catch-error.js';

class Params {
  @IsString() id!: string;
}

/** What a state-changing tool adds to the session. */
class Note {
  text!: string;
}

const note = (text: string): Note => Object.assign(new Note(), { text });

/** An error the application marks transient. */
class Flaky extends Error {}

function promptWith(tools: ToolDefinition[], toolTimeoutMs?: number): Prompt {
  return new Prompt({
    ns: 'test',
    key: 'limits',
    toolTimeoutMs,
    sections: [
      new MarkdownSection({ key: 'tools', title: 'Tools', template: 'Use the tools.', tools }),
    ],
  });
}

const callThenAnswer = (name: string): ScriptedTurn[] => [
  { toolCalls: [{ name, arguments: { id: 'a' } }] },
  { text: 'Done.' },
];

function tool(
  init: Partial<ToolDefinitionInit<Params>> & Pick<ToolDefinitionInit<Params>, 'handler'>,
) {
  return new ToolDefinition<Params>({
    name: 'work',
    description: 'Do the work.',
    params: Params,
    ...init,
  });
}

describe('per-tool timeouts', () => {
  async function timedOutCall(limits: { own?: number; prompt?: number }, advance: number) {
    const clock = new ManualClock();
    const started = deferred();
    const late = deferred();
    let signal: AbortSignal | undefined;
    let lateWrite: unknown;
    const slow = tool({
      timeoutMs: limits.own,
      handler: async (params: Params, context: ToolContext) => {
        signal = context.signal;
        context.session.dispatch(note(`before ${params.id}`));
        started.resolve();
        await late.promise;
        try {
          context.session.dispatch(note('late'));
        } catch (error) {
          lateWrite = error;
        }
        return ToolResult.ok(null, 'Worked.');
      },
    });
    const agent = createTestRuntime({ script: callThenAnswer('work'), runtime: { clock } });
    const session = new Session();
    const running = agent.evaluate(promptWith([slow], limits.prompt), { session });
    await started.promise;
    clock.advance(advance);
    late.resolve();
    const response = await running;
    // Let the abandoned handler finish its late write.
    await new Promise((resolve) => setImmediate(resolve));
    return { response, session, signal, lateWrite, clock, agent };
  }

  it('aborts the call at its limit, rolls it back, and lets the model read that it timed out', async () => {
    const { response, session, signal, lateWrite, clock, agent } = await timedOutCall(
      { own: 1_000 },
      1_000,
    );
    expect(response.status).toBe('completed');
    const [event] = session.slice(ToolInvoked).all();
    expect(event?.outcome).toBe('timeout');
    expect(event?.result.success).toBe(false);
    expect(signal?.aborted).toBe(true);
    expect(session.slice(Note).all()).toEqual([]);
    expect(lateWrite).toBeInstanceOf(Error);
    const toolMessage = agent.adapter.requests[1]?.messages.find(
      (message) => message.role === 'tool',
    );
    expect(toolMessage?.role === 'tool' && toolMessage.content).toContain(
      'timed out after 1000 ms',
    );
    expect(clock.pendingTimers).toBe(0);
  });

  it("applies the prompt's toolTimeoutMs to a tool without its own", async () => {
    const { session } = await timedOutCall({ prompt: 500 }, 500);
    expect(session.slice(ToolInvoked).all()[0]?.outcome).toBe('timeout');
  });

  it("prefers the tool's own timeoutMs over the prompt's, and cancels the timer of a call that finishes", async () => {
    const { session, clock } = await timedOutCall({ own: 5_000, prompt: 500 }, 500);
    const [event] = session.slice(ToolInvoked).all();
    expect(event?.outcome).toBe('success');
    expect(
      session
        .slice(Note)
        .all()
        .map((n) => n.text),
    ).toEqual(['before a', 'late']);
    expect(clock.pendingTimers).toBe(0);
  });

  it('refuses a timeout that is not a positive whole number of milliseconds', () => {
    const handler = (): ToolResult => ToolResult.ok(null, 'ok');
    expect(() => tool({ handler, timeoutMs: 0 })).toThrow(ConfigurationError);
    expect(() => tool({ handler, timeoutMs: 1.5 })).toThrow(/timeoutMs must be a whole number/);
    expect(() => promptWith([], -1)).toThrow(/toolTimeoutMs/);
  });
});

describe('retries', () => {
  const transient = (error: unknown): boolean => error instanceof Flaky;

  it('retries a read-only tool on transient errors and records each attempt', async () => {
    let calls = 0;
    const flaky = tool({
      readOnly: true,
      retry: { attempts: 3, transient, backoffMs: 1 },
      handler: () => {
        calls += 1;
        if (calls < 3) throw new Flaky(`connection reset ${calls}`);
        return ToolResult.ok({ calls }, 'Fetched.');
      },
    });
    const agent = createTestRuntime({ script: callThenAnswer('work') });
    const session = new Session();
    await agent.evaluate(promptWith([flaky]), { session });
    const [event] = session.slice(ToolInvoked).all();
    expect(event?.outcome).toBe('success');
    expect(
      event?.attempts.map(({ attempt, ended, error, delayMs }) => ({
        attempt,
        ended,
        error,
        delayMs,
      })),
    ).toEqual([
      {
        attempt: 1,
        ended: 'threw',
        error: expect.stringContaining('connection reset 1') as unknown,
        delayMs: 1,
      },
      {
        attempt: 2,
        ended: 'threw',
        error: expect.stringContaining('connection reset 2') as unknown,
        delayMs: 2,
      },
      { attempt: 3, ended: 'returned', error: undefined, delayMs: 0 },
    ]);
    // The model reads one result, the last attempt's.
    expect(
      agent.adapter.requests[1]?.messages.filter((message) => message.role === 'tool'),
    ).toHaveLength(1);
  });

  it('fails at once on an error the application does not mark transient', async () => {
    let calls = 0;
    const broken = tool({
      readOnly: true,
      retry: { attempts: 5, transient, backoffMs: 1 },
      handler: () => {
        calls += 1;
        throw new Error('bad input');
      },
    });
    const session = new Session();
    await createTestRuntime({ script: callThenAnswer('work') }).evaluate(promptWith([broken]), {
      session,
    });
    expect(calls).toBe(1);
    const [event] = session.slice(ToolInvoked).all();
    expect(event?.outcome).toBe('failure');
    expect(event?.attempts).toHaveLength(1);
  });

  it('gives up after the last attempt with the last error', async () => {
    const down = tool({
      readOnly: true,
      retry: { attempts: 2, transient, backoffMs: 0 },
      handler: () => {
        throw new Flaky('still down');
      },
    });
    const session = new Session();
    await createTestRuntime({ script: callThenAnswer('work') }).evaluate(promptWith([down]), {
      session,
    });
    const [event] = session.slice(ToolInvoked).all();
    expect(event?.result.message).toContain('still down');
    expect(event?.attempts.map((attempt) => attempt.ended)).toEqual(['threw', 'threw']);
  });

  it('rolls an idempotent tool back between attempts', async () => {
    let calls = 0;
    const save = tool({
      idempotent: true,
      retry: { attempts: 3, transient, backoffMs: 0 },
      handler: (params: Params, context: ToolContext) => {
        calls += 1;
        context.session.dispatch(note(`${params.id} attempt ${calls}`));
        if (calls === 1) throw new Flaky('timeout from the store');
        return ToolResult.ok(null, 'Saved.');
      },
    });
    const session = new Session();
    await createTestRuntime({ script: callThenAnswer('work') }).evaluate(promptWith([save]), {
      session,
    });
    expect(
      session
        .slice(Note)
        .all()
        .map((n) => n.text),
    ).toEqual(['a attempt 2']);
  });

  it('refuses retry on a state-changing tool not declared idempotent, as a ToolDefinition and as @Tool', () => {
    const handler = (): ToolResult => ToolResult.ok(null, 'ok');
    const error = catchError(ConfigurationError, () =>
      tool({ handler, retry: { attempts: 2, transient } }),
    );
    expect(error.message).toContain("Tool 'work'");
    expect(error.message).toContain('idempotent: true');

    @Section({ key: 'store', title: 'Store', template: 'Store things.' })
    class StoreSection {
      @Tool({ description: 'Save a thing.', retry: { attempts: 2, transient } })
      save(_params: Params, _context: ToolContext): ToolResult {
        return ToolResult.ok(null, 'Saved.');
      }
    }
    expect(() => new Prompt({ ns: 'test', key: 'store', sections: [StoreSection] })).toThrow(
      /not declared idempotent/,
    );
  });

  it('refuses attempts outside 2..10 and a missing transient predicate', () => {
    const handler = (): ToolResult => ToolResult.ok(null, 'ok');
    expect(() => tool({ handler, readOnly: true, retry: { attempts: 1, transient } })).toThrow(
      /attempts/,
    );
    expect(() =>
      tool({
        handler,
        readOnly: true,
        retry: { attempts: 3 } as unknown as { attempts: number; transient: () => boolean },
      }),
    ).toThrow(/transient/);
  });
});
