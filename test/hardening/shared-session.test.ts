import fc from 'fast-check';

import { Session, type ToolContext, ToolDefinition, ToolInvoked, ToolResult } from 'affordance';
import { createTestRuntime, type ScriptedTurn } from 'affordance/testing';

import { settle } from '../support/conversation.js';
import { deferred } from '../support/deferred.js';
import { Note, workPrompt } from './work-prompt.js';

const notes = (session: Session): string[] =>
  session
    .slice(Note)
    .all()
    .map((note) => note.text)
    .sort();

/**
 * A state-changing tool that writes `text`, waits until the test lets it go,
 * then succeeds or fails as told.
 */
function gatedWriter(name: string, gates: Map<string, Promise<boolean>>): ToolDefinition {
  return new ToolDefinition({
    name,
    description: 'Write a note, then finish when allowed.',
    handler: async (_params: undefined, context: ToolContext) => {
      context.session.slice(Note).append(new Note(`${name}:${context.callId}`));
      const succeed = await (gates.get(context.callId) ?? Promise.resolve(true));
      return succeed ? ToolResult.ok(null, 'written') : ToolResult.error('gave up');
    },
  });
}

describe('Two evaluations sharing one session never erase each other’s committed work', () => {
  it('keeps the work another evaluation committed while a failing call was running', async () => {
    const session = new Session();
    const failGate = deferred<boolean>();
    const gates = new Map([['fail_1', failGate.promise]]);
    const writer = gatedWriter('write_note', gates);
    const { adapter, runtime } = createTestRuntime({
      script: [
        { toolCalls: [{ name: 'write_note', callId: 'fail_1' }] },
        { toolCalls: [{ name: 'write_note', callId: 'ok_1' }] },
        { text: 'done' },
        { text: 'done' },
      ],
    });
    const prompt = workPrompt('shared', [writer]);
    const first = runtime.evaluate(prompt, { session, adapter });
    await settle();
    // The second evaluation's call commits while the first one's call is still open...
    const second = runtime.evaluate(prompt, { session, adapter });
    await settle();
    failGate.resolve(false);
    await Promise.all([first, second]);
    adapter.assertDone();
    // ...and the first call's rollback removes only its own note.
    expect(notes(session)).toEqual(['write_note:ok_1']);
  });

  it('keeps both sub-agents’ work when read-only tools delegate to them side by side', async () => {
    const session = new Session();
    const failGate = deferred<boolean>();
    const writer = gatedWriter('write_note', new Map([['child_fail', failGate.promise]]));
    const child = workPrompt('child', [writer]);
    const delegate = new ToolDefinition({
      name: 'delegate',
      description: 'Ask a sub-agent.',
      readOnly: true,
      handler: async (_params: undefined, context: ToolContext) => {
        const answer = await context.evaluate(child, { session: context.session });
        return ToolResult.ok(null, answer.text ?? '');
      },
    });
    const { evaluate } = createTestRuntime({
      script: [
        { toolCalls: [{ name: 'delegate' }, { name: 'delegate' }] },
        // The two sub-agents' first turns, in the order they start.
        { toolCalls: [{ name: 'write_note', callId: 'child_fail' }] },
        { toolCalls: [{ name: 'write_note', callId: 'child_ok' }] },
        { text: 'child done' },
        { text: 'child done' },
        { text: 'lead done' },
      ],
    });
    const running = evaluate(workPrompt('lead', [delegate]), { session });
    await settle();
    failGate.resolve(false);
    await running;
    expect(notes(session)).toEqual(['write_note:child_ok']);
  });

  it('lets a call run a nested evaluation on its own session (the lock is re-entrant)', async () => {
    const session = new Session();
    const writer = gatedWriter('write_note', new Map());
    const child = workPrompt('child', [writer]);
    const delegate = new ToolDefinition({
      name: 'delegate_and_write',
      description: 'Write through a sub-agent.',
      handler: async (_params: undefined, context: ToolContext) => {
        const answer = await context.evaluate(child, { session: context.session });
        return ToolResult.ok(null, answer.text ?? '');
      },
    });
    const { evaluate } = createTestRuntime({
      script: [
        { toolCalls: [{ name: 'delegate_and_write' }] },
        { toolCalls: [{ name: 'write_note', callId: 'nested' }] },
        { text: 'child done' },
        { text: 'lead done' },
      ],
    });
    const response = await evaluate(workPrompt('lead', [delegate]), { session });
    expect(response.text).toBe('lead done');
    expect(notes(session)).toEqual(['write_note:nested']);
  });

  it('matches a model of the expected state for any interleaving of concurrent evaluations', async () => {
    // Each evaluation makes one state-changing call that writes a note and then succeeds or fails;
    // the calls finish in an order fast-check picks. Expected: exactly the successful calls' notes.
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.boolean(), { minLength: 2, maxLength: 6 }),
        fc.scheduler(),
        async (outcomes, scheduler) => {
          const session = new Session();
          const gates = new Map(
            outcomes.map((succeed, index) => [
              `call_${index}`,
              scheduler.schedule(Promise.resolve(succeed), `call_${index} finishes`),
            ]),
          );
          const writer = gatedWriter('write_note', gates);
          const script: ScriptedTurn[] = [
            ...outcomes.map((_, index) => ({
              toolCalls: [{ name: 'write_note', callId: `call_${index}` }],
            })),
            ...outcomes.map(() => ({ text: 'done' })),
          ];
          const { adapter, runtime } = createTestRuntime({ script });
          const prompt = workPrompt('interleaved', [writer]);
          const runs = outcomes.map(() => runtime.evaluate(prompt, { session, adapter }));
          await scheduler.waitFor(Promise.all(runs));
          adapter.assertDone();
          const expected = outcomes
            .map((succeed, index) => (succeed ? `write_note:call_${index}` : undefined))
            .filter((text) => text !== undefined)
            .sort();
          expect(notes(session)).toEqual(expected);
          expect(session.slice(ToolInvoked).all()).toHaveLength(outcomes.length);
        },
      ),
      { numRuns: 200 },
    );
  });
});
