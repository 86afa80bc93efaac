import { IsInt, IsString, Min, MinLength } from 'class-validator';
import { inject, injectable } from 'inversify';

import {
  Deadline,
  DeadlineExceededError,
  type EvaluateOptions,
  Filesystem,
  InMemoryFilesystem,
  MarkdownSection,
  NativeTool,
  Prompt,
  PromptEvaluationError,
  Reducer,
  ResourceRegistry,
  type RuntimeOptions,
  Section,
  Session,
  Tool,
  type ToolContext,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
  ToolValidationError,
} from 'affordance';
import {
  createTestRuntime,
  ManualClock,
  ScriptedAdapter,
  type ScriptedToolCall,
  type ScriptedTurn,
} from 'affordance/testing';

import { ToolExecutor } from '../../src/runtime/tool-executor.js';
import { catchRejection } from '../support/catch-error.js';
import { settle, toolMessages } from '../support/conversation.js';
import { type Deferred, deferred } from '../support/deferred.js';

/** A STATE slice the tool writes through `context.session`. */
class NoteAdded {
  constructor(readonly text: string) {}
}

/** What write_note returns; a class instance, so a successful call also lands in its own slice. */
class NoteReceipt {
  path!: string;
  bytes!: number;

  static of(path: string, bytes: number): NoteReceipt {
    return Object.assign(new NoteReceipt(), { path, bytes });
  }

  render(): string {
    return `${this.path} (${this.bytes} bytes)`;
  }
}

/** A STATE slice reduced from every ToolInvoked: shows whether the event's own effects were rolled back. */
class CallTally {
  constructor(readonly calls = 0) {}

  @Reducer(ToolInvoked)
  count(_event: ToolInvoked): CallTally {
    return new CallTally(this.calls + 1);
  }
}

class WriteNoteParams {
  @IsString() @MinLength(1) text!: string;
  @IsInt() @Min(1) copies!: number;
}

type Finish = (
  params: WriteNoteParams,
  receipt: NoteReceipt,
  context: ToolContext,
) => ToolResult<NoteReceipt> | Promise<ToolResult<NoteReceipt>>;

/** An application service deciding how write_note ends once it has written its note. */
@injectable()
class NotePolicy {
  readonly handled: string[] = [];
  finish: Finish = (_params, receipt) => ToolResult.ok(receipt, 'Note saved.');
}

@Section({ key: 'notes', title: 'Notes', template: 'Write each finding down with write_note.' })
class NotesSection {
  constructor(@inject(NotePolicy) private readonly policy: NotePolicy) {}

  @Tool({
    name: 'write_note',
    description: 'Write a note to the notes folder.',
    result: NoteReceipt,
  })
  async writeNote(params: WriteNoteParams, context: ToolContext): Promise<ToolResult<NoteReceipt>> {
    this.policy.handled.push(params.text);
    context.session.dispatch(new NoteAdded(params.text));
    const written = await context.filesystem!.write(
      `notes/${params.text}.txt`,
      params.text.repeat(params.copies),
    );
    return this.policy.finish(params, NoteReceipt.of(written.path, written.size), context);
  }

  @Tool({ name: 'count_notes', description: 'Count the notes written so far.', readOnly: true })
  countNotes(_params: undefined, context: ToolContext): ToolResult<null> {
    const count = context.session.slice(NoteAdded).all().length;
    return new ToolResult({ message: `${count} note(s) so far.` });
  }
}

const notesPrompt = new Prompt({ ns: 'test', key: 'notes', sections: [NotesSection] });

function setUp(script: readonly ScriptedTurn[]) {
  const policy = new NotePolicy();
  const agent = createTestRuntime({
    script,
    configure: (container) => container.bind(NotePolicy).toConstantValue(policy),
  });
  const session = new Session();
  session.install(CallTally, { initial: () => new CallTally() });
  const fs = new InMemoryFilesystem();
  const resources = new ResourceRegistry().value(Filesystem, fs);
  return {
    adapter: agent.adapter,
    session,
    policy,
    evaluate: (options: EvaluateOptions = {}) =>
      agent.evaluate(notesPrompt, { session, resources, ...options }),
    notes: () =>
      session
        .slice(NoteAdded)
        .all()
        .map((note) => note.text),
    receipts: () =>
      session
        .slice(NoteReceipt)
        .all()
        .map((receipt) => receipt.path),
    files: () => fs.glob('**/*'),
    tally: () => session.slice(CallTally).latest()?.calls,
    invoked: () => session.slice(ToolInvoked).all(),
  };
}

const first: ScriptedToolCall = {
  callId: 'call_a',
  name: 'write_note',
  arguments: { text: 'first', copies: 1 },
};
const second: ScriptedToolCall = {
  callId: 'call_b',
  name: 'write_note',
  arguments: { text: 'second', copies: 1 },
};
const firstSaved = 'Note saved.\n\nnotes/first.txt (5 bytes)';

/** One turn calling write_note('first') and then `call` (as call_b), then a final answer. */
function firstThen(call: Omit<ScriptedToolCall, 'callId'>): ScriptedTurn[] {
  return [{ toolCalls: [first, { ...call, callId: 'call_b' }] }, { text: 'Done.' }];
}

/** write_note fails its second call in the given way after writing its note and file. */
function failSecond(h: ReturnType<typeof setUp>, fail: () => ToolResult<NoteReceipt>): void {
  h.policy.finish = (params, receipt) =>
    params.text === 'second' ? fail() : ToolResult.ok(receipt, 'Note saved.');
}

describe(ToolExecutor, () => {
  describe('failure table (docs/guide/tools.md)', () => {
    it('should answer an unknown tool with the available tools, leave state alone and continue', async () => {
      const h = setUp(firstThen({ name: 'erase_notes', arguments: { all: true } }));

      const response = await h.evaluate();

      expect(response.text).toBe('Done.');
      expect(toolMessages(h.adapter.requests[1])).toEqual([
        ['call_a', firstSaved],
        ['call_b', "Unknown tool 'erase_notes'. Available tools: write_note, count_notes."],
      ]);
      expect(h.notes()).toEqual(['first']);
      expect(await h.files()).toEqual(['notes/first.txt']);
      const events = h.invoked();
      expect(events.map((e) => [e.callId, e.name, e.outcome])).toEqual([
        ['call_a', 'write_note', 'success'],
        ['call_b', 'erase_notes', 'failure'],
      ]);
      expect(events[1]?.rawArguments).toBe('{"all":true}');
      expect(events[1]?.params).toBeUndefined();
    });

    it('should reject arguments that are not JSON without calling the handler, and continue', async () => {
      const raw = '{"text": "second", ';
      const h = setUp(firstThen({ name: 'write_note', arguments: raw }));

      await h.evaluate();

      const jsonProblem = jsonParseMessage(raw);
      expect(toolMessages(h.adapter.requests[1])).toEqual([
        ['call_a', firstSaved],
        ['call_b', `Tool validation failed: Arguments are not valid JSON: ${jsonProblem}`],
      ]);
      expect(h.policy.handled).toEqual(['first']);
      expect(h.notes()).toEqual(['first']);
      expect(await h.files()).toEqual(['notes/first.txt']);
      const rejected = h.invoked()[1];
      expect(rejected?.outcome).toBe('failure');
      expect(rejected?.rawArguments).toBe(raw);
      expect(rejected?.params).toBeUndefined();
    });

    it('should reject arguments that are a JSON array without calling the handler, and continue', async () => {
      const h = setUp(firstThen({ name: 'write_note', arguments: '["second", 1]' }));

      await h.evaluate();

      expect(toolMessages(h.adapter.requests[1])[1]).toEqual([
        'call_b',
        'Tool validation failed: Arguments must be a JSON object; got an array.',
      ]);
      expect(h.policy.handled).toEqual(['first']);
      expect(h.invoked().map((e) => e.rawArguments)).toEqual([
        '{"text":"first","copies":1}',
        '["second", 1]',
      ]);
    });

    it('should list every missing, extra and invalid argument with its path, without calling the handler', async () => {
      const h = setUp(firstThen({ name: 'write_note', arguments: { copies: 0, colour: 'red' } }));

      const response = await h.evaluate();

      expect(response.text).toBe('Done.');
      expect(toolMessages(h.adapter.requests[1])[1]).toEqual([
        'call_b',
        'Tool validation failed: colour: unknown field (accepted fields: text, copies); ' +
          'text: is required; copies: must not be less than 1',
      ]);
      expect(h.policy.handled).toEqual(['first']);
      expect(h.notes()).toEqual(['first']);
      const rejected = h.invoked()[1];
      expect(rejected?.rawArguments).toBe('{"copies":0,"colour":"red"}');
      expect(rejected?.params).toBeUndefined();
      expect(rejected?.outcome).toBe('failure');
    });

    it('should report a ToolValidationError thrown by the handler and roll back its changes', async () => {
      const h = setUp(firstThen(second));
      failSecond(h, () => {
        throw new ToolValidationError('text must not repeat an earlier note');
      });

      const response = await h.evaluate();

      expect(response.text).toBe('Done.');
      expect(toolMessages(h.adapter.requests[1])).toEqual([
        ['call_a', firstSaved],
        ['call_b', 'Tool validation failed: text must not repeat an earlier note'],
      ]);
      expect(h.policy.handled).toEqual(['first', 'second']);
      expect(h.notes()).toEqual(['first']);
      expect(await h.files()).toEqual(['notes/first.txt']);
      expect(h.invoked().map((e) => e.outcome)).toEqual(['success', 'failure']);
      expect(h.invoked()[1]?.params).toBeInstanceOf(WriteNoteParams);
    });

    it('should report any other error thrown by the handler and roll back its changes', async () => {
      const h = setUp(firstThen(second));
      failSecond(h, () => {
        throw new Error('the disk is full');
      });

      const response = await h.evaluate();

      expect(response.text).toBe('Done.');
      expect(toolMessages(h.adapter.requests[1])[1]).toEqual([
        'call_b',
        "Tool 'write_note' execution failed: the disk is full",
      ]);
      expect(h.notes()).toEqual(['first']);
      expect(h.receipts()).toEqual(['notes/first.txt']);
      expect(await h.files()).toEqual(['notes/first.txt']);
      expect(h.invoked().map((e) => e.outcome)).toEqual(['success', 'failure']);
    });

    it('should feed back a success:false result as returned and roll back its changes', async () => {
      const h = setUp(firstThen(second));
      failSecond(h, () => ToolResult.error('Quota reached: delete a note first.'));

      const response = await h.evaluate();

      expect(response.text).toBe('Done.');
      expect(toolMessages(h.adapter.requests[1])[1]).toEqual([
        'call_b',
        'Quota reached: delete a note first.',
      ]);
      expect(h.notes()).toEqual(['first']);
      expect(await h.files()).toEqual(['notes/first.txt']);
      expect(h.invoked()[1]?.result.message).toBe('Quota reached: delete a note first.');
    });

    it('should stop with a tool-phase error and no event when the deadline has already passed', async () => {
      const clock = new ManualClock();
      const deadline = Deadline.in(10_000, { clock });
      const h = setUp(firstThen(second));
      h.session.dispatcher.subscribe(ToolInvoked, (event) => {
        if (event.callId === 'call_a') clock.advance(10_000);
      });

      const error = await catchRejection(PromptEvaluationError, () => h.evaluate({ deadline }));

      expect(error.phase).toBe('tool');
      expect(error.message).toBe(
        "Prompt 'test/notes' (tool): Deadline expired before executing tool 'write_note'.",
      );
      expect(error.providerPayload).toEqual({ deadlineExpiresAt: '2026-01-01T00:00:10.000Z' });
      expect(h.policy.handled).toEqual(['first']);
      expect(h.invoked().map((e) => e.callId)).toEqual(['call_a']);
      expect(h.notes()).toEqual(['first']);
      expect(h.adapter.requests).toHaveLength(1);
    });

    it('should stop before the first call of a turn when the deadline passed during the request', async () => {
      const clock = new ManualClock();
      const deadline = Deadline.in(10_000, { clock });
      const h = setUp([
        {
          toolCalls: [first],
          expect: () => {
            clock.advance(10_000);
          },
        },
        { text: 'never requested' },
      ]);

      const error = await catchRejection(PromptEvaluationError, () => h.evaluate({ deadline }));

      expect(error.phase).toBe('tool');
      expect(h.policy.handled).toEqual([]);
      expect(h.invoked()).toEqual([]);
      expect(await h.files()).toEqual([]);
    });

    it('should stop rather than report bad arguments when the deadline has already passed', async () => {
      const clock = new ManualClock();
      const deadline = Deadline.in(10_000, { clock });
      const h = setUp([
        {
          toolCalls: [{ callId: 'call_a', name: 'write_note', arguments: { copies: 'two' } }],
          expect: () => {
            clock.advance(10_000);
          },
        },
        { text: 'never requested' },
      ]);

      const error = await catchRejection(PromptEvaluationError, () => h.evaluate({ deadline }));

      expect(error.phase).toBe('tool');
      expect(error.message).toBe(
        "Prompt 'test/notes' (tool): Deadline expired before executing tool 'write_note'.",
      );
      expect(h.invoked()).toEqual([]);
      expect(h.adapter.requests).toHaveLength(1);
    });

    it('should stop with a tool-phase error when the handler throws DeadlineExceededError, rolling back', async () => {
      const h = setUp(firstThen(second));
      const thrown = new DeadlineExceededError('The upstream search ran out of time.');
      failSecond(h, () => {
        throw thrown;
      });

      const error = await catchRejection(PromptEvaluationError, () => h.evaluate());

      expect(error.phase).toBe('tool');
      expect(error.cause).toBe(thrown);
      expect(error.message).toBe(
        "Prompt 'test/notes' (tool): Tool 'write_note' was interrupted because the deadline passed; " +
          'its outcome is unknown and its state changes were rolled back.',
      );
      expect(h.notes()).toEqual(['first']);
      expect(await h.files()).toEqual(['notes/first.txt']);
      // The call ran partly, so, like a call the deadline interrupts, it is logged with an unknown outcome.
      expect(h.invoked().map((e) => [e.callId, e.outcome])).toEqual([
        ['call_a', 'success'],
        ['call_b', 'unknown'],
      ]);
      expect(h.adapter.requests).toHaveLength(1);
    });

    it('should re-throw a PromptEvaluationError from the handler unchanged, rolling back', async () => {
      const h = setUp(firstThen(second));
      const thrown = new PromptEvaluationError('The sub-agent gave up.', { phase: 'response' });
      failSecond(h, () => {
        throw thrown;
      });

      await expect(h.evaluate()).rejects.toBe(thrown);

      expect(h.notes()).toEqual(['first']);
      expect(await h.files()).toEqual(['notes/first.txt']);
      expect(h.invoked().map((e) => e.callId)).toEqual(['call_a']);
      expect(h.adapter.requests).toHaveLength(1);
    });

    it('should replace the message and roll back a successful call when a ToolInvoked subscriber fails', async () => {
      const h = setUp(firstThen(second));
      h.session.dispatcher.subscribe(ToolInvoked, (event) => {
        if (event.callId === 'call_b') throw new Error('the audit log is full');
      });

      const response = await h.evaluate();

      expect(response.text).toBe('Done.');
      expect(toolMessages(h.adapter.requests[1])).toEqual([
        ['call_a', firstSaved],
        [
          'call_b',
          'Reducer errors prevented applying tool result: the audit log is full\n\n' +
            'notes/second.txt (6 bytes)',
        ],
      ]);
      expect(h.notes()).toEqual(['first']);
      expect(h.receipts()).toEqual(['notes/first.txt']);
      expect(await h.files()).toEqual(['notes/first.txt']);
      // The tally of call_b's ToolInvoked is state too, and is rolled back with the rest.
      expect(h.tally()).toBe(1);
      expect(h.invoked().map((e) => [e.callId, e.outcome])).toEqual([
        ['call_a', 'success'],
        ['call_b', 'success'],
      ]);
      expect(response.toolCalls[1]?.result.success).toBe(true);
    });

    it('should replace the message but not roll back again when the failing subscriber saw a failed call', async () => {
      const h = setUp(firstThen(second));
      failSecond(h, () => ToolResult.error('Quota reached.'));
      h.session.dispatcher.subscribe(ToolInvoked, (event) => {
        if (event.callId === 'call_b') throw new Error('the audit log is full');
      });

      await h.evaluate();

      expect(toolMessages(h.adapter.requests[1])[1]).toEqual([
        'call_b',
        'Reducer errors prevented applying tool result: the audit log is full',
      ]);
      expect(h.notes()).toEqual(['first']);
      expect(h.tally()).toBe(2);
      expect(h.invoked().map((e) => e.outcome)).toEqual(['success', 'failure']);
    });

    it('should also replace the message when a reducer of ToolInvoked fails', async () => {
      const h = setUp(firstThen(second));
      h.session.slice(NoteAdded).register(ToolInvoked, (_view, event) => {
        if (event.callId === 'call_b') throw new Error('no room for another note');
        return undefined;
      });

      await h.evaluate();

      expect(toolMessages(h.adapter.requests[1])[1]?.[1]).toMatch(
        /^Reducer errors prevented applying tool result: no room for another note\n\n/,
      );
      expect(h.notes()).toEqual(['first']);
    });
  });

  it('should refuse a call to a provider-executed tool and continue', async () => {
    /** An adapter that offers native tools, like the OpenAI Responses adapter. */
    class NativeScriptedAdapter extends ScriptedAdapter {
      override validate(): void {
        // Every tool is offered, provider-executed ones included.
      }
    }
    const prompt = new Prompt({
      ns: 'test',
      key: 'search',
      sections: [
        new MarkdownSection({
          key: 'search',
          title: 'Search',
          template: 'Search the web.',
          tools: [new NativeTool({ type: 'web_search' })],
        }),
      ],
    });
    const { runtime } = createTestRuntime();
    const adapter = new NativeScriptedAdapter([
      { toolCalls: [{ callId: 'w1', name: 'web_search', arguments: { query: 'x' } }] },
      { text: 'Done.' },
    ]);

    const response = await runtime.evaluate(prompt, { adapter });
    adapter.assertDone();

    expect(response.text).toBe('Done.');
    expect(toolMessages(adapter.requests[1])).toEqual([
      ['w1', "Tool 'web_search' is executed by the provider and cannot be called as a function."],
    ]);
  });

  describe('handlers', () => {
    it('should run synchronous and asynchronous handlers alike', async () => {
      const h = setUp([
        { toolCalls: [first, { callId: 'call_b', name: 'count_notes' }] },
        { text: 'Done.' },
      ]);

      await h.evaluate();

      expect(toolMessages(h.adapter.requests[1])).toEqual([
        ['call_a', firstSaved],
        ['call_b', '1 note(s) so far.'],
      ]);
    });

    it('should report a synchronous throw like a rejected promise', async () => {
      const explode = new ToolDefinition({
        name: 'explode',
        description: 'Throw before returning anything.',
        handler: (): ToolResult => {
          throw new TypeError('cannot read the fuse');
        },
      });
      const prompt = new Prompt({
        ns: 'test',
        key: 'sync',
        sections: [
          new MarkdownSection({
            key: 'sync',
            title: 'Sync',
            template: 'Explode.',
            tools: [explode],
          }),
        ],
      });
      const agent = createTestRuntime({
        script: [{ toolCalls: [{ callId: 'x1', name: 'explode' }] }, { text: 'Done.' }],
      });
      const { adapter } = agent;

      const response = await agent.evaluate(prompt);

      expect(response.text).toBe('Done.');
      expect(toolMessages(adapter.requests[1])).toEqual([
        ['x1', "Tool 'explode' execution failed: cannot read the fuse"],
      ]);
    });

    it('should call a tool without params with empty arguments in any form', async () => {
      const h = setUp([
        {
          toolCalls: [
            { callId: 'c1', name: 'count_notes', arguments: {} },
            { callId: 'c2', name: 'count_notes', arguments: '' },
            { callId: 'c3', name: 'count_notes', arguments: 'null' },
            { callId: 'c4', name: 'count_notes' },
          ],
        },
        { text: 'Done.' },
      ]);

      await h.evaluate();

      expect(toolMessages(h.adapter.requests[1])).toEqual([
        ['c1', '0 note(s) so far.'],
        ['c2', '0 note(s) so far.'],
        ['c3', '0 note(s) so far.'],
        ['c4', '0 note(s) so far.'],
      ]);
      expect(h.invoked().every((event) => event.params === undefined)).toBe(true);
    });

    it('should refuse non-empty arguments for a tool without params', async () => {
      const h = setUp([
        {
          toolCalls: [
            { callId: 'c1', name: 'count_notes', arguments: { verbose: true } },
            { callId: 'c2', name: 'count_notes', arguments: '[]' },
          ],
        },
        { text: 'Done.' },
      ]);

      await h.evaluate();

      expect(toolMessages(h.adapter.requests[1])).toEqual([
        ['c1', 'Tool validation failed: Tool does not accept any arguments.'],
        ['c2', 'Tool validation failed: Tool does not accept any arguments.'],
      ]);
      expect(h.invoked().map((e) => e.rawArguments)).toEqual(['{"verbose":true}', '[]']);
    });

    it('should take the first outcome of a thenable, even one given at once, and fail on a throwing then', async () => {
      const h = setUp(firstThen(second));
      h.policy.finish = (params, receipt) => {
        const thenable = {
          then(resolve: (value: unknown) => void, reject: (reason: unknown) => void): void {
            if (params.text === 'second') throw new Error('then exploded');
            // Called back at once, twice, then rejected: only the first outcome counts.
            resolve(ToolResult.ok(receipt, 'Note saved.'));
            resolve(ToolResult.error('a second outcome'));
            reject(new Error('a late rejection'));
          },
        };
        return thenable as unknown as Promise<ToolResult<NoteReceipt>>;
      };

      await h.evaluate();

      expect(toolMessages(h.adapter.requests[1])).toEqual([
        ['call_a', firstSaved],
        ['call_b', "Tool 'write_note' execution failed: then exploded"],
      ]);
      expect(h.notes()).toEqual(['first']);
    });

    it('should turn a handler result that is not a ToolResult into a failure and roll back', async () => {
      const h = setUp(firstThen(second));
      h.policy.finish = (params, receipt) =>
        params.text === 'second'
          ? ({ message: 'saved' } as unknown as ToolResult<NoteReceipt>)
          : ToolResult.ok(receipt, 'Note saved.');

      await h.evaluate();

      expect(toolMessages(h.adapter.requests[1])[1]).toEqual([
        'call_b',
        "Tool 'write_note' execution failed: the handler returned an instance of Object " +
          'instead of a ToolResult; return ToolResult.ok(value) or ToolResult.error(message)',
      ]);
      expect(h.notes()).toEqual(['first']);
      expect(await h.files()).toEqual(['notes/first.txt']);
    });
  });

  describe('deadline and cancellation during a call', () => {
    it('should abort the call at the deadline, stop, log an unknown outcome and roll back', async () => {
      const clock = new ManualClock();
      const deadline = Deadline.in(10_000, { clock });
      const h = setUp([{ toolCalls: [first] }, { text: 'never requested' }]);
      const started = deferred<AbortSignal>();
      const release = deferred();
      h.policy.finish = async (_params, receipt, context) => {
        started.resolve(context.signal);
        await release.promise;
        return ToolResult.ok(receipt, 'Note saved.');
      };

      const running = h.evaluate({ deadline });
      const signal = await started.promise;
      expect(signal.aborted).toBe(false);
      expect(h.notes()).toEqual(['first']);
      clock.advance(10_000);
      const error = await catchRejection(PromptEvaluationError, () => running);

      expect(signal.aborted).toBe(true);
      expect(DeadlineExceededError.is(signal.reason)).toBe(true);
      expect(error.phase).toBe('tool');
      expect(error.message).toBe(
        "Prompt 'test/notes' (tool): Tool 'write_note' was interrupted because the deadline passed; " +
          'its outcome is unknown and its state changes were rolled back.',
      );
      expect(h.notes()).toEqual([]);
      expect(await h.files()).toEqual([]);
      const [event] = h.invoked();
      expect(event?.outcome).toBe('unknown');
      expect(event?.renderedMessage).toBe('Interrupted: the deadline passed; outcome unknown.');

      // The handler finishing late changes nothing: no second event, no result.
      release.resolve();
      await settle();
      expect(h.invoked()).toHaveLength(1);
    });

    it('should abort the call when the caller cancels the evaluation', async () => {
      const h = setUp([{ toolCalls: [first] }, { text: 'never requested' }]);
      const controller = new AbortController();
      const started = deferred<AbortSignal>();
      h.policy.finish = async (_params, receipt, context) => {
        started.resolve(context.signal);
        await new Promise(() => undefined);
        return ToolResult.ok(receipt);
      };

      const running = h.evaluate({ signal: controller.signal });
      const signal = await started.promise;
      const reason = new Error('the user closed the tab');
      controller.abort(reason);
      const error = await catchRejection(PromptEvaluationError, () => running);

      expect(signal.aborted).toBe(true);
      expect(error.phase).toBe('tool');
      expect(error.cause).toBe(reason);
      expect(error.message).toBe(
        "Prompt 'test/notes' (tool): Tool 'write_note' was interrupted because the evaluation was cancelled; " +
          'its outcome is unknown and its state changes were rolled back.',
      );
      expect(h.notes()).toEqual([]);
      expect(await h.files()).toEqual([]);
      expect(h.invoked().map((e) => e.outcome)).toEqual(['unknown']);
    });

    it('should interrupt a synchronous handler that cancels the evaluation while it runs', async () => {
      const h = setUp([{ toolCalls: [first] }, { text: 'never requested' }]);
      const controller = new AbortController();
      h.policy.finish = (_params, receipt) => {
        controller.abort(new Error('cancelled from inside the call'));
        return ToolResult.ok(receipt, 'Note saved.');
      };

      const error = await catchRejection(PromptEvaluationError, () =>
        h.evaluate({ signal: controller.signal }),
      );

      expect(error.phase).toBe('tool');
      expect(error.message).toContain("Tool 'write_note' was interrupted");
      expect(h.notes()).toEqual([]);
      expect(await h.files()).toEqual([]);
      expect(h.invoked().map((e) => e.outcome)).toEqual(['unknown']);
    });

    it('should not start when the evaluation is cancelled before the first request', async () => {
      const h = setUp([{ text: 'never requested' }]);
      const controller = new AbortController();
      controller.abort(new Error('cancelled early'));

      const error = await catchRejection(PromptEvaluationError, () =>
        h.evaluate({ signal: controller.signal }),
      );

      expect(error.phase).toBe('request');
      expect(error.message).toBe(
        "Prompt 'test/notes' (request): Evaluation was cancelled before the provider request.",
      );
      expect(h.adapter.requests).toHaveLength(0);
    });
  });

  describe('ordering and concurrency', () => {
    it('should run the calls of one turn one after another, in call order, by default', async () => {
      const pace = new Pace();
      const { adapter, evaluate } = pacedRun(pace, [calls('step', 'a', 'b', 'c'), final]);

      const running = evaluate();
      await pace.started('a');
      await settle();
      expect(pace.log).toEqual(['start a']);
      pace.release('a');
      await pace.started('b');
      await settle();
      expect(pace.log).toEqual(['start a', 'end a', 'start b']);
      pace.release('b');
      pace.release('c');
      await running;

      expect(pace.log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
      expect(toolMessages(adapter.requests[1]).map(([id]) => id)).toEqual(['a', 'b', 'c']);
    });

    it('should run consecutive read-only calls concurrently, keeping results in call order', async () => {
      const pace = new Pace();
      const session = new Session();
      const { adapter, evaluate } = pacedRun(pace, [calls('peek', 'a', 'b', 'c'), final]);

      const running = evaluate({ session });
      await Promise.all([pace.started('a'), pace.started('b'), pace.started('c')]);
      expect(pace.log).toEqual(['start a', 'start b', 'start c']);
      pace.release('c');
      await settle();
      pace.release('b');
      await settle();
      pace.release('a');
      await running;

      expect(pace.log.slice(3)).toEqual(['end c', 'end b', 'end a']);
      expect(toolMessages(adapter.requests[1])).toEqual([
        ['a', 'peeked a'],
        ['b', 'peeked b'],
        ['c', 'peeked c'],
      ]);
      expect(
        session
          .slice(ToolInvoked)
          .all()
          .map((event) => event.callId),
      ).toEqual(['a', 'b', 'c']);
    });

    it('should cap how many read-only calls run at once with readOnlyConcurrency', async () => {
      const pace = new Pace();
      const { adapter, evaluate } = pacedRun(pace, [calls('peek', 'a', 'b', 'c'), final], {
        readOnlyConcurrency: 2,
      });

      const running = evaluate();
      await Promise.all([pace.started('a'), pace.started('b')]);
      await settle();
      expect(pace.log).toEqual(['start a', 'start b']);
      pace.release('b');
      await pace.started('c');
      pace.release('c');
      await settle();
      pace.release('a');
      await running;

      expect(pace.log).toEqual(['start a', 'start b', 'end b', 'start c', 'end c', 'end a']);
      expect(toolMessages(adapter.requests[1]).map(([id]) => id)).toEqual(['a', 'b', 'c']);
    });

    it('should not let a read-only call overtake a call that writes', async () => {
      const pace = new Pace();
      const { adapter, evaluate } = pacedRun(pace, [
        { toolCalls: [peek('a'), step('b'), peek('c'), peek('d')] },
        final,
      ]);

      const running = evaluate();
      await pace.started('a');
      await settle();
      expect(pace.log).toEqual(['start a']);
      pace.release('a');
      await pace.started('b');
      await settle();
      expect(pace.log).toEqual(['start a', 'end a', 'start b']);
      pace.release('b');
      await Promise.all([pace.started('c'), pace.started('d')]);
      pace.release('d');
      pace.release('c');
      await running;

      expect(pace.log).toEqual([
        'start a',
        'end a',
        'start b',
        'end b',
        'start c',
        'start d',
        'end d',
        'end c',
      ]);
      expect(toolMessages(adapter.requests[1]).map(([id]) => id)).toEqual(['a', 'b', 'c', 'd']);
    });

    it("should keep every sibling's result when one concurrent call fails", async () => {
      const pace = new Pace();
      const session = new Session();
      const { adapter, evaluate } = pacedRun(pace, [calls('peek', 'a', 'boom', 'c'), final]);

      const running = evaluate({ session });
      await Promise.all([pace.started('a'), pace.started('boom'), pace.started('c')]);
      pace.release('boom');
      await settle();
      pace.release('c');
      pace.release('a');
      const response = await running;

      expect(toolMessages(adapter.requests[1])).toEqual([
        ['a', 'peeked a'],
        ['boom', "Tool 'peek' execution failed: boom went off"],
        ['c', 'peeked c'],
      ]);
      expect(response.toolCalls.map((call) => call.result.success)).toEqual([true, false, true]);
      expect(
        session
          .slice(ToolInvoked)
          .all()
          .map((event) => event.outcome),
      ).toEqual(['success', 'failure', 'success']);
    });
  });
});

function jsonParseMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} is valid JSON`);
}

class LabelParams {
  @IsString() label!: string;
}

/** Lets a test decide when each labelled call finishes, and records when calls start and end. */
class Pace {
  readonly log: string[] = [];
  readonly #started = new Map<string, Deferred>();
  readonly #gates = new Map<string, Deferred>();

  started(label: string): Promise<void> {
    return this.#entry(this.#started, label).promise;
  }

  release(label: string): void {
    this.#entry(this.#gates, label).resolve();
  }

  async run(label: string): Promise<void> {
    this.log.push(`start ${label}`);
    this.#entry(this.#started, label).resolve();
    await this.#entry(this.#gates, label).promise;
    this.log.push(`end ${label}`);
  }

  #entry(map: Map<string, Deferred>, label: string): Deferred {
    let entry = map.get(label);
    if (entry === undefined) {
      entry = deferred();
      map.set(label, entry);
    }
    return entry;
  }
}

const final: ScriptedTurn = { text: 'Done.' };
const step = (label: string): ScriptedToolCall => ({
  callId: label,
  name: 'step',
  arguments: { label },
});
const peek = (label: string): ScriptedToolCall => ({
  callId: label,
  name: 'peek',
  arguments: { label },
});
const calls = (name: 'step' | 'peek', ...labels: string[]): ScriptedTurn => ({
  toolCalls: labels.map(name === 'step' ? step : peek),
});

/** A prompt with a writing tool `step` and a read-only tool `peek`, both paced by `pace`. */
function pacedRun(pace: Pace, script: readonly ScriptedTurn[], runtime: RuntimeOptions = {}) {
  const stepTool = new ToolDefinition({
    name: 'step',
    description: 'Take one step.',
    params: LabelParams,
    handler: async (params: LabelParams) => {
      await pace.run(params.label);
      return new ToolResult({ message: `stepped ${params.label}` });
    },
  });
  const peekTool = new ToolDefinition({
    name: 'peek',
    description: 'Look without touching anything.',
    params: LabelParams,
    readOnly: true,
    handler: async (params: LabelParams) => {
      await pace.run(params.label);
      if (params.label === 'boom') throw new Error('boom went off');
      return new ToolResult({ message: `peeked ${params.label}` });
    },
  });
  const prompt = new Prompt({
    ns: 'test',
    key: 'paced',
    sections: [
      new MarkdownSection({
        key: 'paced',
        title: 'Paced',
        template: 'Step and peek.',
        tools: [stepTool, peekTool],
      }),
    ],
  });
  const agent = createTestRuntime({ script, runtime });
  return {
    adapter: agent.adapter,
    evaluate: (options: EvaluateOptions = {}) => agent.evaluate(prompt, options),
  };
}
