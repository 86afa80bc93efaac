import { Reducer } from '../../src/decorators/reducer.js';
import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';
import type { DispatchResult } from '../../src/session/dispatch-result.js';
import { InProcessDispatcher } from '../../src/session/in-process-dispatcher.js';
import { Session } from '../../src/session/session.js';
import { SliceOp } from '../../src/session/slice-op.js';
import { ToolResult } from '../../src/tools/tool-result.js';

/*
 * `Session.record` is the runtime's dispatch of a tool call's record: the same
 * steps as `dispatch`, answering only what failed. These tests hold the two to
 * the same effects.
 */

const promptContext = { promptName: 'ns/key', promptNs: 'ns', promptKey: 'key', adapter: 'test' };

class Receipt {
  constructor(readonly id: string) {}
}

class CallCount {
  constructor(readonly calls = 0) {
    Object.freeze(this);
  }

  @Reducer(ToolInvoked)
  counted(_event: ToolInvoked): CallCount {
    return new CallCount(this.calls + 1);
  }
}

function invoked(value: unknown): ToolInvoked {
  return new ToolInvoked({ ...promptContext, name: 'tool', result: ToolResult.ok(value) });
}

/** A session with a state reducer and a subscriber on ToolInvoked, and what the subscriber saw. */
function watched(): { session: Session; delivered: ToolInvoked[] } {
  const session = new Session();
  session.install(CallCount, { initial: () => new CallCount() });
  const delivered: ToolInvoked[] = [];
  session.dispatcher.subscribe(ToolInvoked, (event) => {
    delivered.push(event);
  });
  return { session, delivered };
}

describe('Session.record', () => {
  it('has the effects of dispatch: the event frozen, logged, reduced, fanned out and delivered', () => {
    const viaRecord = watched();
    const viaDispatch = watched();
    const receipt = new Receipt('r1');
    const recorded = invoked(receipt);
    const dispatched = invoked(new Receipt('r1'));

    expect(viaRecord.session.record(recorded)).toEqual([]);
    expect(viaDispatch.session.dispatch(dispatched).ok).toBe(true);

    for (const [{ session, delivered }, event] of [
      [viaRecord, recorded],
      [viaDispatch, dispatched],
    ] as const) {
      expect(Object.isFrozen(event)).toBe(true);
      expect(session.slice(ToolInvoked).all()).toEqual([event]);
      expect(session.slice(CallCount).latest()?.calls).toBe(1);
      expect(session.slice(Receipt).all()).toEqual([new Receipt('r1')]);
      expect(delivered).toEqual([event]);
    }
    expect(viaRecord.session.version).toBe(viaDispatch.session.version);
  });

  it('answers every failure, reducers and subscribers alike, as dispatch reports them', () => {
    const failing = (): Session => {
      const session = new Session();
      session.slice(Receipt).register(ToolInvoked, function refuses(): SliceOp<Receipt> {
        throw new Error('reducer broke');
      });
      session.dispatcher.subscribe(ToolInvoked, function listens(): void {
        throw new Error('subscriber broke');
      });
      return session;
    };
    const failures = failing().record(invoked('x'));
    const reported = failing().dispatch(invoked('x')).errors;
    const described = (list: typeof failures): [string, string][] =>
      list.map((failure) => [failure.source, (failure.error as Error).message]);
    expect(described(failures)).toEqual([
      ['reducer', 'reducer broke'],
      ['subscriber', 'subscriber broke'],
    ]);
    expect(described(failures)).toEqual(described(reported));
  });

  it('goes through a dispatcher subclass that dispatches its own way, as dispatch does', () => {
    const seen: string[] = [];
    class CountingDispatcher extends InProcessDispatcher {
      override dispatch<E extends object>(event: E): DispatchResult<E> {
        seen.push(event.constructor.name);
        return super.dispatch(event);
      }
    }
    const session = new Session({ dispatcher: new CountingDispatcher() });
    const delivered: ToolInvoked[] = [];
    session.dispatcher.subscribe(ToolInvoked, (event) => {
      delivered.push(event);
    });
    const recorded = invoked('a');
    expect(session.record(recorded)).toEqual([]);
    session.dispatch(new Receipt('r2'));
    expect(seen).toEqual(['ToolInvoked', 'Receipt']);
    expect(delivered).toEqual([recorded]);
  });
});
