import { IsInt, IsString, Min } from 'class-validator';
import { getEventListeners } from 'node:events';

import { Container } from 'inversify';

import {
  Deadline,
  installAffordance,
  MarkdownSection,
  PolicyDecision,
  Prompt,
  PromptEvaluationError,
  type RenderedPrompt,
  SectionVisibilityOverride,
  Session,
  ToolDefinition,
  ToolInvoked,
  type ToolProgress,
  ToolResult,
} from 'affordance';
import { ScriptedAdapter } from 'affordance/testing';

class NoteParams {
  @IsString() text!: string;
  @IsInt() @Min(1) copies!: number;
}

/** A STATE slice `write_note` fills through `context.session`. */
class Note {
  constructor(readonly text: string) {}
}

function desk(extra: ToolDefinition[] = [], policies: Prompt['policies'] = []): Prompt {
  const writeNote = new ToolDefinition({
    name: 'write_note',
    description: 'Write a note.',
    params: NoteParams,
    handler: (params, context) => {
      context.session.dispatch(new Note(params.text));
      if (params.text === 'boom') throw new Error('the disk is full');
      context.reportProgress({ progress: 1, total: 2, message: 'written' });
      context.reportProgress({ progress: 2, total: 2 });
      return ToolResult.ok(null, `Wrote ${params.copies} × ${params.text}.`);
    },
  });
  return new Prompt({
    ns: 'test',
    key: 'desk',
    policies,
    sections: [
      new MarkdownSection({
        key: 'desk',
        title: 'Desk',
        template: 'Write notes.',
        tools: [writeNote, ...extra],
      }),
    ],
  });
}

describe('AffordanceRuntime.callTool', () => {
  it('runs one call as a model call runs: validated, recorded once in the session, result returned', async () => {
    const runtime = installAffordance(new Container());
    const session = new Session();

    const outcome = await runtime.callTool(
      desk(),
      { name: 'write_note', arguments: '{"text":"hello","copies":2}', callId: 'mcp-1' },
      { session },
    );

    expect(outcome.result.success).toBe(true);
    expect(outcome.message).toBe('Wrote 2 × hello.');
    const [event] = session.slice(ToolInvoked).all();
    expect(event).toMatchObject({ name: 'write_note', callId: 'mcp-1', outcome: 'success' });
    expect(session.slice(ToolInvoked).all()).toHaveLength(1);
    expect(session.slice(Note).all()).toEqual([new Note('hello')]);
  });

  it('returns invalid arguments, a throwing handler and an unknown tool as failed results, rolling back state', async () => {
    const runtime = installAffordance(new Container());
    const session = new Session();
    const prompt = desk();

    const invalid = await runtime.callTool(
      prompt,
      { name: 'write_note', arguments: { text: 'x', copies: 0 } },
      { session },
    );
    const thrown = await runtime.callTool(
      prompt,
      { name: 'write_note', arguments: { text: 'boom', copies: 1 } },
      { session },
    );
    const unknown = await runtime.callTool(prompt, { name: 'erase_all' }, { session });

    expect(invalid.result.success).toBe(false);
    expect(invalid.message).toContain('copies');
    expect(thrown.result.success).toBe(false);
    expect(thrown.message).toContain('the disk is full');
    expect(unknown.result.success).toBe(false);
    expect(unknown.message).toContain('erase_all');
    expect(session.slice(Note).all()).toEqual([]);
    expect(
      session
        .slice(ToolInvoked)
        .all()
        .map((event) => event.outcome),
    ).toEqual(['failure', 'failure', 'failure']);
  });

  it("applies the prompt's policies", async () => {
    const runtime = installAffordance(new Container());
    const noCopies = {
      name: 'NoCopies',
      check: () => PolicyDecision.deny('Copies are off today.', 'Ask tomorrow.'),
    };

    const outcome = await runtime.callTool(
      desk([], [noCopies]),
      { name: 'write_note', arguments: { text: 'a', copies: 1 } },
      {},
    );

    expect(outcome.result.success).toBe(false);
    expect(outcome.event.outcome).toBe('denied');
    expect(outcome.message).toContain('Copies are off today.');
  });

  describe('a call that needs approval', () => {
    const approved = new ToolDefinition({
      name: 'refund',
      description: 'Refund an order.',
      approval: true,
      handler: () => ToolResult.ok(null, 'Refunded.'),
    });

    it('is denied when the caller gives no approve', async () => {
      const runtime = installAffordance(new Container());
      const outcome = await runtime.callTool(desk([approved]), { name: 'refund' });

      expect(outcome.event.outcome).toBe('denied');
      expect(outcome.message).toContain('cannot give it');
    });

    it('runs when approve says yes, and is denied with the message of a no', async () => {
      const runtime = installAffordance(new Container());
      const asked: string[] = [];
      const yes = await runtime.callTool(
        desk([approved]),
        { name: 'refund', callId: 'r1' },
        {
          approve: (pending) => {
            asked.push(`${pending.callId} ${pending.name}`);
            return true;
          },
        },
      );
      const no = await runtime.callTool(
        desk([approved]),
        { name: 'refund' },
        { approve: () => ({ callId: 'ignored', approved: false, message: 'Not this one.' }) },
      );

      expect(asked).toEqual(['r1 refund']);
      expect(yes.message).toBe('Refunded.');
      expect(no.event.outcome).toBe('denied');
      expect(no.message).toContain('Not this one.');
    });
  });

  it("passes the tool's progress reports to onProgress, and a listener's failure never fails the call", async () => {
    const runtime = installAffordance(new Container());
    const reports: ToolProgress[] = [];

    const outcome = await runtime.callTool(
      desk(),
      { name: 'write_note', arguments: { text: 'a', copies: 1 } },
      {
        onProgress: (progress) => {
          reports.push(progress);
          throw new Error('listener is broken');
        },
      },
    );

    expect(outcome.result.success).toBe(true);
    expect(reports).toEqual([
      { progress: 1, total: 2, message: 'written' },
      { progress: 2, total: 2 },
    ]);
  });

  it('stops a nested evaluation with a Fix when no adapter is given or bound, and uses the given one', async () => {
    const runtime = installAffordance(new Container());
    const child = new Prompt({
      ns: 'test',
      key: 'child',
      sections: [new MarkdownSection({ key: 'c', title: 'C', template: 'Answer.' })],
    });
    const nest = new ToolDefinition({
      name: 'ask_child',
      description: 'Ask a child prompt.',
      handler: async (_params, context) => {
        const response = await context.evaluate(child);
        return ToolResult.ok(null, `child said: ${response.text}`);
      },
    });

    const without = runtime.callTool(desk([nest]), { name: 'ask_child' });
    const withAdapter = await runtime.callTool(
      desk([nest]),
      { name: 'ask_child' },
      { adapter: new ScriptedAdapter([{ text: 'hi' }]) },
    );

    // As in an evaluation, a nested evaluation's failure stops the call rather than reaching a model.
    await expect(without).rejects.toBeInstanceOf(PromptEvaluationError);
    await expect(without).rejects.toThrow(
      'Fix: Pass one: runtime.callTool(prompt, request, { adapter })',
    );
    expect(withAdapter.message).toBe('child said: hi');
  });

  it('stops with a PromptEvaluationError when the signal aborts during the call', async () => {
    const runtime = installAffordance(new Container());
    const controller = new AbortController();
    const wait = new ToolDefinition({
      name: 'wait',
      description: 'Wait until cancelled.',
      handler: (_params, context) =>
        new Promise<ToolResult>((_resolve, reject) => {
          context.signal.addEventListener('abort', () => {
            reject(new Error('cancelled'));
          });
          controller.abort();
        }),
    });

    await expect(
      runtime.callTool(desk([wait]), { name: 'wait' }, { signal: controller.signal }),
    ).rejects.toBeInstanceOf(PromptEvaluationError);
  });

  it("leaves no listener on the caller's signal once calls and evaluations end", async () => {
    const runtime = installAffordance(new Container());
    const shutdown = new AbortController().signal;
    const deadline = Deadline.in(60_000);

    for (let i = 0; i < 5; i += 1) {
      await runtime.callTool(
        desk(),
        { name: 'write_note', arguments: { text: 'a', copies: 1 } },
        { signal: shutdown, deadline },
      );
      await runtime.evaluate(desk(), {
        adapter: new ScriptedAdapter([{ text: 'done' }]),
        signal: shutdown,
        deadline,
      });
    }

    expect(getEventListeners(shutdown, 'abort')).toHaveLength(0);
    expect(getEventListeners(deadline.signal, 'abort')).toHaveLength(0);
  });

  it("makes the call's signal only when the handler reads it, and that signal still follows the caller's", async () => {
    const runtime = installAffordance(new Container());
    const caller = new AbortController();
    const seen: { listenersBefore: number; listenersAfter: number; aborted: boolean[] }[] = [];
    const watch = new ToolDefinition({
      name: 'watch',
      description: 'Look at the signal, then let the caller cancel.',
      handler: (_params, context) => {
        const listenersBefore = getEventListeners(caller.signal, 'abort').length;
        const { signal } = context;
        const listenersAfter = getEventListeners(caller.signal, 'abort').length;
        const aborted = [signal.aborted, context.signal === signal && Object.isFrozen(context)];
        caller.abort(new Error('shutting down'));
        aborted.push(signal.aborted);
        seen.push({ listenersBefore, listenersAfter, aborted });
        return ToolResult.ok(null, 'watched');
      },
    });

    await expect(
      runtime.callTool(desk([watch]), { name: 'watch' }, { signal: caller.signal }),
    ).rejects.toThrow('the evaluation was cancelled');

    // Before the handler read it, the call cost the caller's signal no listener; reading it adds one.
    expect(seen).toEqual([{ listenersBefore: 0, listenersAfter: 1, aborted: [false, true, true] }]);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  describe('the prompt rendered for a call', () => {
    class DeskParams {
      @IsString() owner!: string;
    }

    /** A prompt whose text names the owner, a tool that notes what it was rendered with, and a summarized section. */
    function ownedDesk(enabled?: (params: DeskParams | undefined) => boolean) {
      const renders: RenderedPrompt[] = [];
      const look = new ToolDefinition({
        name: 'look',
        description: 'Note the rendered prompt.',
        handler: (_params, context) => {
          renders.push(context.renderedPrompt);
          return ToolResult.ok(null, 'looked');
        },
      });
      const shelf = new ToolDefinition({
        name: 'shelf',
        description: 'A tool of the summarized section.',
        handler: () => ToolResult.ok(null, 'shelved'),
      });
      const prompt = new Prompt({
        ns: 'test',
        key: 'owned-desk',
        sections: [
          new MarkdownSection<DeskParams>({
            key: 'desk',
            title: 'Desk',
            params: DeskParams,
            template: 'The desk of ${owner}.',
            tools: [look],
            ...(enabled === undefined ? {} : { enabled }),
          }),
          new MarkdownSection({
            key: 'shelf',
            title: 'Shelf',
            summary: 'A shelf.',
            visibility: 'summary',
            template: 'Things on the shelf.',
            tools: [shelf],
          }),
        ],
      });
      return { prompt, renders };
    }

    function owner(name: string): DeskParams[] {
      return [Object.assign(new DeskParams(), { owner: name })];
    }

    const look = { name: 'look' };

    it('is reused by the next call on the session while nothing it was rendered from changed', async () => {
      const runtime = installAffordance(new Container());
      const session = new Session();
      const { prompt, renders } = ownedDesk();
      const ada = owner('Ada');

      await runtime.callTool(prompt, look, { session, params: ada });
      await runtime.callTool(prompt, look, { session, params: ada });
      await runtime.callTool(prompt, look, { session, params: owner('Grace') });
      session.dispatch(new SectionVisibilityOverride({ sectionPath: 'shelf', visibility: 'full' }));
      await runtime.callTool(prompt, look, { session, params: ada });
      await runtime.callTool(prompt, look, { session: new Session(), params: ada });

      expect(renders.map((rendered) => rendered.text.split('\n\n')[1])).toEqual([
        'The desk of Ada.',
        'The desk of Ada.',
        'The desk of Grace.',
        'The desk of Ada.',
        'The desk of Ada.',
      ]);
      expect(renders.map((rendered) => rendered.tools.map((tool) => tool.name))).toEqual([
        ['look', 'open_sections'],
        ['look', 'open_sections'],
        ['look', 'open_sections'],
        ['look', 'shelf'],
        ['look', 'open_sections'],
      ]);
      // The second call found the first one's render; every other call rendered anew.
      expect(new Set(renders).size).toBe(4);
      expect(renders[1]).toBe(renders[0]);
    });

    it('is rendered for every call when a section has an enabled predicate', async () => {
      const runtime = installAffordance(new Container());
      const session = new Session();
      let open = true;
      const { prompt, renders } = ownedDesk(() => open);
      const ada = owner('Ada');

      await runtime.callTool(prompt, look, { session, params: ada });
      open = false;
      const refused = await runtime.callTool(prompt, look, { session, params: ada });

      expect(renders).toHaveLength(1);
      expect(refused.result.success).toBe(false);
      expect(refused.message).toContain('look');
    });
  });
});
