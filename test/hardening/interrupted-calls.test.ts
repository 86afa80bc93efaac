import { inject } from 'inversify';

import {
  Filesystem,
  InMemoryFilesystem,
  Prompt,
  PromptEvaluationError,
  ResourceRegistry,
  Section,
  Session,
  Tool,
  ToolCallClosedError,
  type ToolContext,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { createTestRuntime } from 'affordance/testing';

import { catchRejection } from '../support/catch-error.js';
import { settle } from '../support/conversation.js';
import { deferred, latch } from '../support/deferred.js';
import { Note, workPrompt } from './work-prompt.js';

describe('A call that was interrupted cannot write after its rollback', () => {
  it('refuses its late writes to the session and to the filesystem, so rolled-back changes never reappear', async () => {
    const session = new Session();
    const fs = new InMemoryFilesystem();
    const controller = new AbortController();
    const resume = deferred();
    const lateWrites: unknown[] = [];
    const stubborn = new ToolDefinition({
      name: 'stubborn_writer',
      description: 'Writes, ignores its signal, then writes again.',
      handler: async (_params: undefined, context: ToolContext) => {
        context.session.slice(Note).append(new Note('before'));
        await context.filesystem?.write('before.txt', 'x');
        controller.abort();
        await resume.promise;
        const writes: (() => unknown)[] = [
          () => context.session.slice(Note).append(new Note('after')),
          () => {
            context.session.slice(Note).seed(new Note('seeded'));
          },
          () => {
            context.session.slice(Note).clear();
          },
          () => context.filesystem?.write('after.txt', 'x'),
        ];
        for (const write of writes) {
          try {
            await Promise.resolve(write());
            lateWrites.push('accepted');
          } catch (error) {
            lateWrites.push(error);
          }
        }
        return ToolResult.ok(null, 'too late');
      },
    });
    const { evaluate } = createTestRuntime({
      script: [{ toolCalls: [{ name: 'stubborn_writer', callId: 'c1' }] }],
    });
    const error = await catchRejection(PromptEvaluationError, () =>
      evaluate(workPrompt('interrupted', [stubborn]), {
        session,
        signal: controller.signal,
        resources: new ResourceRegistry().value(Filesystem, fs),
      }),
    );
    expect(error.message).toContain('rolled back');
    resume.resolve();
    await settle();
    await settle();

    expect(lateWrites).toHaveLength(4);
    for (const refused of lateWrites) {
      expect(ToolCallClosedError.is(refused)).toBe(true);
      expect((refused as Error).message).toMatch(
        /^Tool 'stubborn_writer' \(call c1\): refused a write to .+: the call was interrupted and its changes were rolled back\. Fix: stop work when context\.signal aborts/,
      );
    }
    expect(session.slice(Note).all()).toEqual([]);
    expect(await fs.glob('**/*')).toEqual([]);
  });

  it('refuses them while calls of other evaluations start and finish in the meantime', async () => {
    // Call frames are tracked only while some handler runs: the other evaluations' calls must not
    // switch tracking off under a handler that still runs.
    const session = new Session();
    const controller = new AbortController();
    const resume = deferred();
    const outcome = deferred<unknown>();
    const stubborn = new ToolDefinition({
      name: 'stubborn_writer',
      description: 'Writes to the session it closes over after its call was interrupted.',
      handler: async () => {
        controller.abort();
        await resume.promise;
        await settle();
        try {
          session.slice(Note).append(new Note('late'));
          outcome.resolve('accepted');
        } catch (error) {
          outcome.resolve(error);
        }
        return ToolResult.ok(null);
      },
    });
    const quick = new ToolDefinition({
      name: 'quick',
      description: 'Answers at once.',
      handler: () => ToolResult.ok('done'),
    });
    const { evaluate } = createTestRuntime({
      script: [{ toolCalls: [{ name: 'stubborn_writer', callId: 'c1' }] }],
    });
    await catchRejection(PromptEvaluationError, () =>
      evaluate(workPrompt('interrupted-busy', [stubborn]), { session, signal: controller.signal }),
    );
    for (let round = 0; round < 3; round += 1) {
      const other = createTestRuntime({
        script: [{ toolCalls: [{ name: 'quick' }, { name: 'quick' }] }, { text: 'Done.' }],
      });
      const response = await other.evaluate(workPrompt('busy', [quick]), {
        session: new Session(),
      });
      expect(response.text).toBe('Done.');
      await settle();
    }
    resume.resolve();

    expect(ToolCallClosedError.is(await outcome.promise)).toBe(true);
    expect(session.slice(Note).all()).toEqual([]);
  });

  it('refuses late writes of a section that injected the Session directly', async () => {
    const controller = new AbortController();
    const resume = deferred();
    const outcome = deferred<unknown>();

    @Section({ key: 'injected', title: 'Injected', template: 'Write notes.' })
    class InjectedSessionSection {
      constructor(@inject(Session) private readonly session: Session) {}

      @Tool({ name: 'late_note', description: 'Writes a note after its deadline.' })
      async lateNote(_params: undefined, _context: ToolContext): Promise<ToolResult> {
        controller.abort();
        await resume.promise;
        try {
          this.session.slice(Note).append(new Note('late'));
          outcome.resolve('accepted');
        } catch (error) {
          outcome.resolve(error);
        }
        return ToolResult.ok(null);
      }
    }

    const session = new Session();
    const { evaluate } = createTestRuntime({ script: [{ toolCalls: [{ name: 'late_note' }] }] });
    const prompt = new Prompt({
      ns: 'hardening',
      key: 'injected',
      sections: [InjectedSessionSection],
    });
    await catchRejection(PromptEvaluationError, () =>
      evaluate(prompt, { session, signal: controller.signal }),
    );
    resume.resolve();
    expect(ToolCallClosedError.is(await outcome.promise)).toBe(true);
    expect(session.slice(Note).all()).toEqual([]);
  });
});

describe('A nested evaluation inside a call that was interrupted stops', () => {
  it('asks the model nothing more once its enclosing call was rolled back', async () => {
    const controller = new AbortController();
    const release = deferred();
    const childOutcome = deferred<unknown>();
    const wait = new ToolDefinition({
      name: 'wait_for_gate',
      description: 'Waits for the test.',
      readOnly: true,
      handler: async () => {
        controller.abort();
        await release.promise;
        // A failure: its record is history and still lands; the next request is what must not happen.
        return ToolResult.error('gate closed');
      },
    });
    const child = workPrompt('interrupted', [wait]);
    const delegate = new ToolDefinition({
      name: 'delegate',
      description: 'Runs a sub-agent without passing its signal on.',
      handler: async (_params: undefined, context: ToolContext) => {
        try {
          await context.evaluate(child, { session: context.session });
          childOutcome.resolve('completed');
        } catch (error) {
          childOutcome.resolve(error);
        }
        return ToolResult.ok(null, 'delegated');
      },
    });
    const session = new Session();
    const { adapter, evaluate } = createTestRuntime({
      script: [
        { toolCalls: [{ name: 'delegate', callId: 'outer' }] },
        { toolCalls: [{ name: 'wait_for_gate', callId: 'inner' }] },
        // Never requested: the sub-agent stops once the delegate call was rolled back.
        { text: 'child answer' },
      ],
    });
    await catchRejection(PromptEvaluationError, () =>
      evaluate(workPrompt('interrupted', [delegate]), {
        session,
        signal: controller.signal,
      }),
    );
    release.resolve();
    const outcome = await childOutcome.promise;
    expect(ToolCallClosedError.is(outcome)).toBe(true);
    expect((outcome as Error).message).toMatch(
      /^Tool 'delegate' \(call outer\): refused request 2 to the provider for hardening\/interrupted: the call was interrupted/,
    );
    expect(adapter.requests).toHaveLength(2);
  });
});

describe('Every interrupted call of a read-only batch gets its own record', () => {
  it('records outcome unknown for each of the calls that were running', async () => {
    const controller = new AbortController();
    const allStarted = latch(3);
    const search = new ToolDefinition({
      name: 'slow_search',
      description: 'Searches until cancelled.',
      readOnly: true,
      handler: async (_params: undefined, context: ToolContext) => {
        await allStarted.arrive();
        if (context.callId === 's3') controller.abort();
        await new Promise((resolve) => {
          context.signal.addEventListener('abort', resolve);
        });
        return ToolResult.ok(null, 'never read');
      },
    });
    const session = new Session();
    const { evaluate } = createTestRuntime({
      script: [
        {
          toolCalls: [
            { name: 'slow_search', callId: 's1' },
            { name: 'slow_search', callId: 's2' },
            { name: 'slow_search', callId: 's3' },
          ],
        },
      ],
    });
    await catchRejection(PromptEvaluationError, () =>
      evaluate(workPrompt('interrupted', [search]), { session, signal: controller.signal }),
    );
    const records = session
      .slice(ToolInvoked)
      .all()
      .map((event) => `${event.callId} ${event.outcome}`);
    expect(records).toEqual(['s1 unknown', 's2 unknown', 's3 unknown']);
  });
});
