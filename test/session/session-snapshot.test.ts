import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { Session } from '../../src/session/session.js';
import { SessionSnapshot } from '../../src/session/session-snapshot.js';
import { SlicePolicy } from '../../src/session/slice-policy.js';
import { ToolResult } from '../../src/tools/tool-result.js';

class Task {
  constructor(readonly id: string) {}
}
class Audit {
  constructor(readonly what: string) {}
}

function toolInvoked(name: string): ToolInvoked {
  return new ToolInvoked({
    promptName: 'p',
    promptNs: 'ns',
    promptKey: 'k',
    adapter: 'test',
    name,
    result: ToolResult.ok(null),
  });
}

describe(SessionSnapshot, () => {
  it('should expose what it captured, frozen', () => {
    const clock = new ManualClock();
    const session = new Session({ clock, sessionId: 's' });
    session.slice(Task).append(new Task('a'));
    session.dispatch(toolInvoked('x'));

    const snapshot = session.snapshot({ tag: 'before-call' });

    expect(snapshot.sessionId).toBe('s');
    expect(snapshot.tag).toBe('before-call');
    expect(snapshot.createdAt).toEqual(new Date(clock.now()));
    expect(snapshot.sliceTypes).toEqual([Task, ToolInvoked]);
    expect(snapshot.policyOf(Task)).toBe(SlicePolicy.State);
    expect(snapshot.policyOf(ToolInvoked)).toBe(SlicePolicy.Log);
    expect(snapshot.slice(Task)).toEqual([new Task('a')]);
    expect(snapshot.slice(Audit)).toEqual([]);
    expect(Object.isFrozen(snapshot)).toBe(true);
  });

  it('should not change when the session changes afterwards', () => {
    const session = new Session();
    for (let i = 0; i < 600; i++) session.slice(Task).append(new Task(String(i)));
    const snapshot = session.snapshot();
    session.slice(Task).append(new Task('late'));
    session.slice(Task).clear((task) => task.id === '0');
    expect(snapshot.slice(Task)).toHaveLength(600);
    expect(snapshot.slice(Task)[0]).toEqual(new Task('0'));
  });
});

describe(Session, () => {
  describe('.restore', () => {
    it('should roll STATE slices back and leave LOG slices intact', () => {
      const session = new Session();
      session.slice(Task).append(new Task('kept'));
      session.dispatch(toolInvoked('first'));
      const snapshot = session.snapshot();

      session.slice(Task).append(new Task('rolled back'));
      session.dispatch(toolInvoked('second'));
      session.restore(snapshot);

      expect(session.slice(Task).all()).toEqual([new Task('kept')]);
      expect(
        session
          .slice(ToolInvoked)
          .all()
          .map((event) => event.name),
      ).toEqual(['first', 'second']);
    });

    it('should empty STATE slices that were empty when captured', () => {
      const session = new Session();
      const snapshot = session.snapshot();
      session.slice(Audit).append(new Audit('later'));
      session.restore(snapshot);
      expect(session.slice(Audit).size).toBe(0);
    });

    it('should refill STATE slices cleared since the snapshot', () => {
      const session = new Session();
      session.slice(Task).seed([new Task('a'), new Task('b')]);
      const snapshot = session.snapshot();
      session.reset();
      session.restore(snapshot);
      expect(session.slice(Task).all()).toEqual([new Task('a'), new Task('b')]);
    });

    it('should roll LOG slices back too when preserveLogs is false', () => {
      const session = new Session();
      const snapshot = session.snapshot();
      session.dispatch(toolInvoked('x'));
      session.restore(snapshot, { preserveLogs: false });
      expect(session.slice(ToolInvoked).size).toBe(0);
    });

    it('should follow a slice policy set by the user', () => {
      const session = new Session();
      session.slice(Audit).setPolicy(SlicePolicy.Log);
      const snapshot = session.snapshot();
      session.slice(Audit).append(new Audit('kept'));
      session.slice(Task).append(new Task('dropped'));
      session.restore(snapshot);
      expect(session.slice(Audit).all()).toEqual([new Audit('kept')]);
      expect(session.slice(Task).size).toBe(0);
    });

    it('should let a restored slice grow again without disturbing the snapshot or later versions', () => {
      const session = new Session();
      for (let i = 0; i < 1_030; i++) session.slice(Task).append(new Task(String(i)));
      const snapshot = session.snapshot();
      session.slice(Task).append(new Task('branch-1'));
      const branchOne = session.snapshot();

      session.restore(snapshot);
      session.slice(Task).append(new Task('branch-2'));

      expect(session.slice(Task).latest()).toEqual(new Task('branch-2'));
      expect(session.slice(Task).size).toBe(1_031);
      expect(snapshot.slice(Task)).toHaveLength(1_030);
      expect(branchOne.slice(Task).at(-1)).toEqual(new Task('branch-1'));
    });

    it('should restore a snapshot into a clone', () => {
      const session = new Session();
      session.slice(Task).append(new Task('a'));
      const snapshot = session.snapshot();
      const copy = session.clone();
      copy.slice(Task).append(new Task('b'));
      copy.restore(snapshot);
      expect(copy.slice(Task).all()).toEqual([new Task('a')]);
    });

    it('should reject something that is not a snapshot', () => {
      expect(() => {
        new Session().restore(Object.create(SessionSnapshot.prototype) as SessionSnapshot);
      }).toThrow(ConfigurationError);
    });
  });

  describe('.transaction', () => {
    it('should keep the changes of a function that succeeds', () => {
      const session = new Session();
      const result = session.transaction(() => {
        session.slice(Task).append(new Task('a'));
        return 42;
      });
      expect(result).toBe(42);
      expect(session.slice(Task).size).toBe(1);
    });

    it('should restore STATE slices when a sync function throws, and rethrow', () => {
      const session = new Session();
      session.slice(Task).append(new Task('before'));
      expect(() =>
        session.transaction(() => {
          session.slice(Task).append(new Task('inside'));
          session.dispatch(toolInvoked('logged'));
          throw new Error('tool failed');
        }),
      ).toThrow('tool failed');
      expect(session.slice(Task).all()).toEqual([new Task('before')]);
      expect(session.slice(ToolInvoked).size).toBe(1);
    });

    it('should restore when an async function rejects', async () => {
      const session = new Session();
      await expect(
        session.transaction(async () => {
          session.slice(Task).append(new Task('inside'));
          await Promise.resolve();
          session.slice(Task).append(new Task('after await'));
          throw new Error('async failure');
        }),
      ).rejects.toThrow('async failure');
      expect(session.slice(Task).size).toBe(0);
    });

    it('should restore when rollbackIf says so, and still return the result', async () => {
      const session = new Session();
      const result = await session.transaction(
        async () => {
          session.slice(Task).append(new Task('inside'));
          await Promise.resolve();
          return ToolResult.error('handler reported failure');
        },
        { rollbackIf: (r) => !r.success },
      );
      expect(result.success).toBe(false);
      expect(session.slice(Task).size).toBe(0);
    });

    it('should nest: an inner failure rolls back only the inner changes', () => {
      const session = new Session();
      session.transaction(() => {
        session.slice(Task).append(new Task('outer'));
        try {
          session.transaction(() => {
            session.slice(Task).append(new Task('inner'));
            throw new Error('inner');
          });
        } catch {
          // the outer transaction continues
        }
      });
      expect(session.slice(Task).all()).toEqual([new Task('outer')]);
    });
  });
});
