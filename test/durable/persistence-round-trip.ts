/**
 * The round trip every store must pass with `SessionPersistence`: sessions
 * written by real evaluations (planning tools, a call that fails and is rolled
 * back, a validation failure) are loaded back the same by a fresh persistence,
 * keep working, and commit only what is new. Run on the in-memory store
 * (test/durable) and on real PostgreSQL and Redis (test/durable-servers).
 */
import { IsString } from 'class-validator';

import {
  MarkdownSection,
  Prompt,
  PromptExecuted,
  PromptRendered,
  type Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import {
  InMemorySessionStore,
  SessionCodec,
  type SessionChange,
  SessionPersistence,
  SessionStore,
  type StoredSession,
} from 'affordance/durable';
import {
  AddStepParams,
  Plan,
  PlanningToolsSection,
  PlanSetUp,
  PlanStep,
  SetupPlanParams,
  StepsAdded,
  StepUpdated,
  UpdateStepParams,
} from 'affordance/planning';

import { runToolCalls } from '../support/run-tool-calls.js';

/** A store that keeps every change it was asked to commit. */
export class RecordingStore extends SessionStore {
  readonly changes: SessionChange[] = [];

  constructor(private readonly inner: SessionStore = new InMemorySessionStore()) {
    super();
  }

  load(sessionId: string): Promise<StoredSession | undefined> {
    return this.inner.load(sessionId);
  }

  async commit(change: SessionChange): Promise<number> {
    this.changes.push(change);
    return await this.inner.commit(change);
  }

  delete(sessionId: string): Promise<void> {
    return this.inner.delete(sessionId);
  }
}

class NoteParams {
  @IsString() text!: string;
}

export class Note {
  constructor(readonly text: string) {}
}

/** The classes the round trip's sessions hold besides the runtime's own. */
export const roundTripClasses = [
  Plan,
  PlanStep,
  PlanSetUp,
  StepsAdded,
  StepUpdated,
  SetupPlanParams,
  AddStepParams,
  UpdateStepParams,
  NoteParams,
  Note,
];

const notes = new MarkdownSection({
  key: 'notes',
  title: 'Notes',
  template: 'Take notes.',
  tools: [
    new ToolDefinition({
      name: 'note',
      description: 'Note something.',
      params: NoteParams,
      handler: (params, context) => {
        context.session.dispatch(new Note(params.text));
        if (params.text === 'fail') throw new Error('the notebook is full');
        return ToolResult.ok(new Note(params.text), `Noted ${params.text}.`);
      },
    }),
  ],
});
const prompt = new Prompt({ ns: 'tests', key: 'durable', sections: [PlanningToolsSection, notes] });

function persistenceOn(store: SessionStore): SessionPersistence {
  return new SessionPersistence({ store, codec: new SessionCodec({ classes: roundTripClasses }) });
}

/** Every slice of `session`, as plain data with class names, for comparison. */
function contents(session: Session): unknown[] {
  const snapshot = session.snapshot();
  return snapshot.sliceTypes.map((type) => [
    type.name,
    snapshot.policyOf(type),
    snapshot.slice(type).map((value) => [Object.getPrototypeOf(value) === type.prototype, value]),
  ]);
}

/** Declares the round trip on the store `open` gives (a fresh one per call). */
export function persistenceRoundTrip(
  label: string,
  open: () => Promise<{ store: SessionStore; close(): Promise<void> }>,
): void {
  it(`${label}: stores what real evaluations recorded, and a fresh persistence loads it back the same`, async () => {
    const opened = await open();
    const store = new RecordingStore(opened.store);
    try {
      const durable = await persistenceOn(store).open('s-1');
      await runToolCalls(
        prompt,
        [
          [
            {
              name: 'planning_setup_plan',
              arguments: { objective: 'Ship', initialSteps: ['Build'] },
            },
          ],
          [
            { name: 'note', arguments: { text: 'kept' } },
            { name: 'note', arguments: { text: 'fail' } },
          ],
          [{ name: 'note', arguments: { text: 42 } }],
        ],
        { session: durable.session },
      );
      expect(await durable.commit()).toBe(1);

      const loaded = await persistenceOn(store).open('unused');
      expect(loaded.version).toBe(0);
      const again = await persistenceOn(store).open('s-1');
      expect(again.version).toBe(1);
      expect(contents(again.session)).toEqual(contents(durable.session));
      expect(again.session.createdAt).toEqual(durable.session.createdAt);
      // Classes come back as classes, frozen like everything a session holds.
      const invoked = again.session.view.slice(ToolInvoked).all();
      expect(invoked.map((event) => [event.name, event.outcome])).toEqual([
        ['planning_setup_plan', 'success'],
        ['note', 'success'],
        ['note', 'failure'],
        ['note', 'failure'],
      ]);
      expect(invoked[1]?.params).toBeInstanceOf(NoteParams);
      expect(invoked[1]?.result).toBeInstanceOf(ToolResult);
      expect(invoked[1]?.createdAt).toBeInstanceOf(Date);
      expect(Object.isFrozen(invoked[1])).toBe(true);
      expect(again.session.view.slice(Plan).latest()).toBeInstanceOf(Plan);
      expect(again.session.view.slice(PromptRendered).all()).toHaveLength(1);
      expect(again.session.view.slice(PromptExecuted).all()).toHaveLength(1);
      // The failed call's note was rolled back; the successful call's is there twice: the one it
      // dispatched, and its result value, which the session fans out into the value's own slice.
      const kept = again.session.view.slice(Note).all();
      expect(kept.map((note) => note.text)).toEqual(['kept', 'kept']);
      expect(again.hasChanges()).toBe(false);

      // The loaded session keeps working; its next commit appends the new log values only.
      await runToolCalls(prompt, [[{ name: 'note', arguments: { text: 'later' } }]], {
        session: again.session,
      });
      expect(await again.commit()).toBe(2);
      const second = store.changes.at(-1);
      const appended = Object.fromEntries(
        (second?.append ?? []).map((slice) => [slice.name, slice.values.length]),
      );
      expect(appended).toEqual({ PromptRendered: 1, ToolInvoked: 1, PromptExecuted: 1, Note: 2 });
      expect(second?.replace).toEqual([]);
    } finally {
      await opened.close();
    }
  });
}
