import {
  ConfigurationError,
  Prompt,
  PromptEvaluationError,
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

import { catchError, catchRejection } from '../support/catch-error.js';
import { deferred } from '../support/deferred.js';
import { Note, workPrompt } from './work-prompt.js';

@Section({ key: 'kinds', title: 'Kinds', template: 'Tools of every kind.' })
class HandlerKinds {
  @Tool({ name: 'declared_result', description: 'Declared to return a ToolResult.' })
  declaredResult(_params: undefined, _context: ToolContext): ToolResult<string> {
    return ToolResult.ok('now');
  }

  @Tool({ name: 'declared_async', description: 'An async method.' })
  async declaredAsync(_params: undefined, _context: ToolContext): Promise<ToolResult<string>> {
    await Promise.resolve();
    return ToolResult.ok('later');
  }

  @Tool({ name: 'declared_promise', description: 'Declared to return a promise.' })
  declaredPromise(_params: undefined, _context: ToolContext): Promise<ToolResult<string>> {
    return Promise.resolve(ToolResult.ok('later'));
  }

  @Tool({ name: 'undeclared', description: 'No declared return type.' })
  undeclared(_params: undefined, _context: ToolContext) {
    return ToolResult.ok('now');
  }
}

/** What each recorded call of `session` ended as, with the text the model read. */
function recorded(session: Session): [string, string, string][] {
  return session
    .slice(ToolInvoked)
    .all()
    .map((call) => [call.name, call.outcome, call.renderedMessage]);
}

describe('Synchronous handlers', () => {
  it('are the @Tool methods declared to return a ToolResult (not async, not a promise), and ToolDefinitions that say so', () => {
    const rendered = new Prompt({ ns: 'sync', key: 'kinds', sections: [HandlerKinds] }).render();
    expect(rendered.tools.map((tool) => [tool.name, tool.synchronous])).toEqual([
      ['declared_result', true],
      ['declared_async', false],
      ['declared_promise', false],
      ['undeclared', false],
    ]);
    const handler = (): ToolResult => ToolResult.ok(null);
    expect(new ToolDefinition({ name: 'plain', description: 'Plain.', handler }).synchronous).toBe(
      false,
    );
    expect(
      new ToolDefinition({ name: 'plain', description: 'Plain.', handler, synchronous: true })
        .synchronous,
    ).toBe(true);
  });

  it('can be named in @Tool options, for a compiler without decorator metadata or to opt out', () => {
    @Section({ key: 'said', title: 'Said', template: 'Tools that say what they are.' })
    class Said {
      @Tool({ name: 'said_sync', description: 'Says it is synchronous.', synchronous: true })
      saidSync(_params: undefined, _context: ToolContext) {
        return ToolResult.ok('now');
      }

      @Tool({ name: 'opted_out', description: 'Declared, but opts out.', synchronous: false })
      optedOut(_params: undefined, _context: ToolContext): ToolResult<string> {
        return ToolResult.ok('now');
      }
    }
    const rendered = new Prompt({ ns: 'sync', key: 'said', sections: [Said] }).render();
    expect(rendered.tools.map((tool) => [tool.name, tool.synchronous])).toEqual([
      ['said_sync', true],
      ['opted_out', false],
    ]);
  });

  it('refuses `synchronous: true` on an async method, and a value that is not a boolean', () => {
    @Section({ key: 'contradicts', title: 'Contradicts', template: 'Wrong.' })
    class Contradicts {
      @Tool({ name: 'late', description: 'Async, said synchronous.', synchronous: true })
      async late(_params: undefined, _context: ToolContext): Promise<ToolResult<string>> {
        await Promise.resolve();
        return ToolResult.ok('later');
      }
    }
    const contradiction = catchError(ConfigurationError, () =>
      new Prompt({ ns: 'sync', key: 'contradicts', sections: [Contradicts] }).render(),
    );
    expect(contradiction.message).toBe(
      '@Tool Contradicts.late: the method is async, so it returns a promise, but synchronous: true says it returns its ToolResult directly. ' +
        'Fix: Remove `synchronous: true`, or make the method return its ToolResult directly.',
    );

    @Section({ key: 'unclear', title: 'Unclear', template: 'Wrong.' })
    class Unclear {
      @Tool({
        name: 'unclear',
        description: 'Not a boolean.',
        synchronous: 'yes' as unknown as boolean,
      })
      unclear(_params: undefined, _context: ToolContext): ToolResult<string> {
        return ToolResult.ok('now');
      }
    }
    const unclear = catchError(ConfigurationError, () =>
      new Prompt({ ns: 'sync', key: 'unclear', sections: [Unclear] }).render(),
    );
    expect(unclear.message).toContain(
      '@Tool Unclear.unclear: synchronous must be true or false, got string.',
    );
  });

  it('refuses `synchronous: true` on a ToolDefinition with an async handler, and a value that is not a boolean', () => {
    const asyncHandler = catchError(
      ConfigurationError,
      () =>
        new ToolDefinition({
          name: 'late',
          description: 'Async, said synchronous.',
          synchronous: true,
          handler: async () => {
            await Promise.resolve();
            return ToolResult.ok('later');
          },
        }),
    );
    expect(asyncHandler.message).toBe(
      "Tool 'late': the handler is async, so it returns a promise, but synchronous: true says it returns its ToolResult directly. " +
        'Fix: Remove `synchronous: true`, or make the handler return its ToolResult directly.',
    );
    const unclear = catchError(
      ConfigurationError,
      () =>
        new ToolDefinition({
          name: 'unclear',
          description: 'Not a boolean.',
          synchronous: 1 as unknown as boolean,
          handler: () => ToolResult.ok('now'),
        }),
    );
    expect(unclear.message).toContain(
      "Tool 'unclear': synchronous must be true or false, got number.",
    );
  });

  it('run and record their calls like any other, their failures rolled back', async () => {
    const session = new Session();
    const write = new ToolDefinition({
      name: 'write',
      description: 'Writes a note.',
      synchronous: true,
      handler: () => {
        session.slice(Note).append(new Note('kept'));
        return ToolResult.ok(null, 'Written.');
      },
    });
    const refuse = new ToolDefinition({
      name: 'refuse',
      description: 'Writes a note, then fails.',
      synchronous: true,
      handler: () => {
        session.slice(Note).append(new Note('undone'));
        return ToolResult.error('Refused.');
      },
    });
    const { evaluate } = createTestRuntime({
      script: [{ toolCalls: [{ name: 'write' }, { name: 'refuse' }] }, { text: 'Done.' }],
    });
    const response = await evaluate(workPrompt('sync-writes', [write, refuse]), { session });

    expect(response.text).toBe('Done.');
    expect(recorded(session)).toEqual([
      ['write', 'success', 'Written.'],
      ['refuse', 'failure', 'Refused.'],
    ]);
    expect(session.slice(Note).all()).toEqual([new Note('kept')]);
  });

  it('fail the call when they return a promise anyway, naming the fix; its writes are undone and its rejection handled', async () => {
    const session = new Session();
    const handled: string[] = [];
    const liar = new ToolDefinition({
      name: 'liar',
      description: 'Says it is synchronous.',
      synchronous: true,
      handler: (() => {
        session.slice(Note).append(new Note('undone'));
        // A thenable that reports how it is used: the runtime must attach a rejection handler.
        return {
          then(onFulfilled: unknown, onRejected: unknown) {
            handled.push(`${typeof onFulfilled}/${typeof onRejected}`);
          },
        };
      }) as unknown as () => ToolResult,
    });
    const { evaluate } = createTestRuntime({
      script: [{ toolCalls: [{ name: 'liar' }] }, { text: 'Done.' }],
    });
    await evaluate(workPrompt('sync-liar', [liar]), { session });

    const [call] = session.slice(ToolInvoked).all();
    expect(call?.outcome).toBe('failure');
    expect(call?.renderedMessage).toBe(
      "Tool 'liar' execution failed: the handler is declared synchronous but returned a promise; " +
        "declare a @Tool method's return type as Promise<ToolResult<...>> (or make it async), " +
        'or leave out `synchronous: true` from a ToolDefinition whose handler may return a promise',
    );
    expect(session.slice(Note).all()).toEqual([]);
    expect(handled).toEqual(['undefined/function']);
  });

  it('keep the call guarantees when the resolved instance replaces the method with one that returns a promise', async () => {
    const controller = new AbortController();
    const resume = deferred();
    const lateWrite = deferred<unknown>();
    const session = new Session();

    @Section({ key: 'notes', title: 'Notes', template: 'Write notes.' })
    class NoteSection {
      @Tool({ name: 'note', description: 'Writes a note.' })
      note(_params: undefined, _context: ToolContext): ToolResult<string> {
        session.slice(Note).append(new Note('sync'));
        return ToolResult.ok('noted');
      }
    }
    // What an application (or a test double) binds in its place: the same tool, asynchronous.
    class SlowNoteSection extends NoteSection {
      override note(_params: undefined, _context: ToolContext): ToolResult<string> {
        return (async () => {
          session.slice(Note).append(new Note('before'));
          controller.abort();
          await resume.promise;
          try {
            session.slice(Note).append(new Note('late'));
            lateWrite.resolve('accepted');
          } catch (error) {
            lateWrite.resolve(error);
          }
          return ToolResult.ok('noted late');
        })() as unknown as ToolResult<string>;
      }
    }

    const { evaluate } = createTestRuntime({
      script: [{ toolCalls: [{ name: 'note', callId: 'n1' }] }, { text: 'Done.' }],
      configure: (container) => {
        container.bind(NoteSection).to(SlowNoteSection);
      },
    });
    const prompt = new Prompt({ ns: 'sync', key: 'replaced', sections: [NoteSection] });
    expect(prompt.render().tools[0]?.synchronous).toBe(true);
    const error = await catchRejection(PromptEvaluationError, () =>
      evaluate(prompt, { session, signal: controller.signal }),
    );
    expect(error.message).toContain('rolled back');
    resume.resolve();

    const refused = await lateWrite.promise;
    expect(ToolCallClosedError.is(refused)).toBe(true);
    expect((refused as Error).message).toMatch(/^Tool 'note' \(call n1\): refused a write to/);
    expect(session.slice(Note).all()).toEqual([]);
  });
});
