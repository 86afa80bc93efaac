import { IsString } from 'class-validator';
import { Container } from 'inversify';

import {
  installAffordance,
  MarkdownSection,
  PolicyDecision,
  Prompt,
  type PromptResponse,
  Session,
  type ToolApproval,
  ToolDefinition,
  ToolInvoked,
  type ToolPolicy,
  ToolResult,
} from 'affordance';
import { ScriptedAdapter, TEST_STATE_SECRET } from 'affordance/testing';

class NoteParams {
  @IsString() text!: string;
}

/** A STATE slice the tool (and some policies) write. */
class Written {
  constructor(readonly by: string) {}
}

/** Resolves on a later turn of the event loop: an asynchronous check. */
const later = <T>(value: T): Promise<T> =>
  new Promise((resolve) => {
    setImmediate(() => {
      resolve(value);
    });
  });

/** Runs one call of `write_note` behind `policies` (and `approval`), then an answer. */
async function callOnce(
  policies: ToolPolicy[],
  approval?: ToolApproval<NoteParams>,
): Promise<{ response: PromptResponse; session: Session; ran: string[] }> {
  const ran: string[] = [];
  const tool = new ToolDefinition({
    name: 'write_note',
    description: 'Write a note.',
    params: NoteParams,
    policies,
    approval,
    handler: (params, context) => {
      ran.push(params.text);
      context.session.dispatch(new Written('handler'));
      return ToolResult.ok(null, 'Written.');
    },
  });
  const prompt = new Prompt({
    ns: 'test',
    key: 'gate',
    sections: [
      new MarkdownSection({ key: 'notes', title: 'Notes', template: 'Notes.', tools: [tool] }),
    ],
  });
  const session = new Session();
  const adapter = new ScriptedAdapter([
    { toolCalls: [{ callId: 'w1', name: 'write_note', arguments: { text: 'hello' } }] },
    { text: 'Done.' },
  ]);
  const response = await installAffordance(new Container(), {
    stateSecret: TEST_STATE_SECRET,
  }).evaluate(prompt, { adapter, session });
  return { response, session, ran };
}

const allow = (name: string, async: boolean): ToolPolicy => ({
  name,
  check: () => (async ? later(PolicyDecision.allow()) : PolicyDecision.allow()),
});
const refuse = (name: string, async: boolean): ToolPolicy => ({
  name,
  check: ({ context }) => {
    context.session.dispatch(new Written(name));
    const decision = PolicyDecision.deny(`${name} says no.`, 'Ask nicely.');
    return async ? later(decision) : decision;
  },
});

describe('the policy gate, with synchronous and asynchronous checks alike', () => {
  it.each([
    ['synchronous', false],
    ['asynchronous', true],
  ])(
    '%s: the first denial wins, later policies are not asked, state is restored',
    async (_kind, async) => {
      const asked: string[] = [];
      const spy = (name: string): ToolPolicy => ({
        name,
        check: () => {
          asked.push(name);
          return PolicyDecision.allow();
        },
      });
      const { response, session, ran } = await callOnce([
        allow('first', async),
        refuse('second', async),
        spy('third'),
      ]);
      expect(ran).toEqual([]);
      expect(asked).toEqual([]);
      expect(response.toolCalls[0]?.message).toBe(
        "Policy 'second' denied this call of 'write_note': second says no. To proceed: Ask nicely.",
      );
      expect(response.toolCalls[0]?.event.outcome).toBe('denied');
      expect(session.view.slice(Written).all()).toEqual([]);
      expect(session.view.slice(ToolInvoked).all()).toHaveLength(1);
    },
  );

  it.each([
    [
      'throws',
      (): never => {
        throw new Error('database down');
      },
    ],
    ['rejects', (): Promise<never> => Promise.reject(new Error('database down'))],
    ['returns something else', () => 'yes' as unknown as PolicyDecision],
  ])('a check that %s denies the call (fail closed)', async (_kind, check) => {
    const { response, ran } = await callOnce([{ name: 'flaky', check }]);
    expect(ran).toEqual([]);
    expect(response.toolCalls[0]?.event.outcome).toBe('denied');
    expect(response.toolCalls[0]?.message).toMatch(
      /^Policy 'flaky' could not check this call of 'write_note', so it was refused: /,
    );
  });

  it('an asynchronous approval predicate pauses the call; one that rejects denies it', async () => {
    const paused = await callOnce([allow('first', true)], (params) =>
      later(params.text === 'hello'),
    );
    expect(paused.response.status).toBe('interrupted');
    expect(paused.ran).toEqual([]);
    const failing = await callOnce([], () => Promise.reject(new Error('rules unavailable')));
    expect(failing.response.toolCalls[0]?.message).toBe(
      "The approval rule of 'write_note' failed, so the call was refused: rules unavailable",
    );
  });

  it.each([
    ['synchronously', false],
    ['asynchronously', true],
  ])('an afterResult hook failing %s undoes the successful call', async (_kind, async) => {
    const { response, session, ran } = await callOnce([
      {
        name: 'auditor',
        afterResult: () => {
          if (async) return Promise.reject(new Error('audit log full'));
          throw new Error('audit log full');
        },
      },
    ]);
    expect(ran).toEqual(['hello']);
    expect(response.toolCalls[0]?.event.outcome).toBe('failure');
    expect(response.toolCalls[0]?.message).toMatch(
      /^Tool 'write_note' ran, but policy 'auditor' failed after it, so the call was undone: audit log full/,
    );
    expect(session.view.slice(Written).all()).toEqual([]);
  });

  it('runs every afterResult hook, awaiting the asynchronous ones, after a successful call', async () => {
    const seen: string[] = [];
    const { response } = await callOnce([
      { name: 'one', afterResult: async () => later(seen.push('one')).then(() => undefined) },
      { name: 'two', afterResult: () => void seen.push('two') },
    ]);
    expect(response.toolCalls[0]?.event.outcome).toBe('success');
    expect(seen).toEqual(['one', 'two']);
  });

  it('tells a policy when the runtime only probes a later call of a pausing turn', async () => {
    const seen: [string, boolean][] = [];
    const recorder: ToolPolicy = {
      name: 'recorder',
      check: ({ context, probing }) => {
        seen.push([context.callId, probing]);
        return PolicyDecision.allow();
      },
    };
    const tool = (name: string, approval: boolean): ToolDefinition =>
      new ToolDefinition({
        name,
        description: `The ${name} tool.`,
        approval,
        policies: [recorder],
        handler: () => ToolResult.ok(null, 'ok'),
      });
    const prompt = new Prompt({
      ns: 'test',
      key: 'probing',
      sections: [
        new MarkdownSection({
          key: 'tools',
          title: 'Tools',
          template: 'Tools.',
          tools: [tool('plain', false), tool('guarded', true)],
        }),
      ],
    });
    const session = new Session();
    const runtime = installAffordance(new Container(), { stateSecret: TEST_STATE_SECRET });
    const paused = await runtime.evaluate(prompt, {
      session,
      adapter: new ScriptedAdapter([
        {
          toolCalls: [
            { callId: 'a', name: 'plain', arguments: {} },
            { callId: 'b', name: 'guarded', arguments: {} },
            { callId: 'c', name: 'plain', arguments: {} },
          ],
        },
      ]),
    });
    if (paused.status !== 'interrupted') throw new Error('expected a pause');
    expect(seen).toEqual([
      ['a', false],
      ['b', false],
      ['c', true],
    ]);
    seen.length = 0;
    await runtime.resume(prompt, paused.interruption.state, [{ callId: 'b', approved: true }], {
      session,
      adapter: new ScriptedAdapter([{ text: 'Done.' }]),
    });
    expect(seen).toEqual([
      ['b', false],
      ['c', false],
    ]);
  });
});
