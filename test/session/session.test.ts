import { Reducer } from '../../src/decorators/reducer.js';
import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { InProcessDispatcher } from '../../src/session/in-process-dispatcher.js';
import { PromptExecuted } from '../../src/runtime/events/prompt-executed.js';
import { PromptRendered } from '../../src/runtime/events/prompt-rendered.js';
import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';
import { Session } from '../../src/session/session.js';
import { SliceOp } from '../../src/session/slice-op.js';
import { SlicePolicy } from '../../src/session/slice-policy.js';
import { upsertBy } from '../../src/session/upsert-by.js';
import { ToolResult } from '../../src/tools/tool-result.js';

class Note {
  constructor(readonly text: string) {}
}
class Task {
  constructor(
    readonly id: string,
    readonly done = false,
  ) {}
}
class TaskAdded {
  constructor(readonly id: string) {}
}
class TaskCompleted {
  constructor(readonly id: string) {}
}
class Counter {
  constructor(readonly count = 0) {}
}
class Counted {
  constructor(readonly items: string[]) {}
}

const promptContext = { promptName: 'ns/key', promptNs: 'ns', promptKey: 'key', adapter: 'test' };

function toolInvoked(result: ToolResult, extra: { outcome?: 'unknown' } = {}): ToolInvoked {
  return new ToolInvoked({ ...promptContext, name: 'tool', result, ...extra });
}

describe(Session, () => {
  describe('constructor', () => {
    it('should get a random id and tag itself with it', () => {
      const session = new Session({ tags: { agent: 'planner' } });
      expect(session.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(session.tags).toEqual({ agent: 'planner', sessionId: session.sessionId });
      expect(Object.isFrozen(session.tags)).toBe(true);
    });

    it('should record its parent in the tags', () => {
      const parent = new Session({ sessionId: 'parent' });
      const child = new Session({ parent, sessionId: 'child' });
      expect(child.parent).toBe(parent);
      expect(child.tags).toEqual({ sessionId: 'child', parentSessionId: 'parent' });
    });

    it('should refuse to be its own parent', () => {
      const parent = new Session({ sessionId: 'same' });
      expect(() => new Session({ parent, sessionId: 'same' })).toThrow(/cannot be its own parent/);
    });

    it('should reject non-string tags and the tags it sets itself', () => {
      expect(() => new Session({ tags: { n: 1 as unknown as string } })).toThrow(
        /Session.tags.n: must be a string/,
      );
      expect(() => new Session({ tags: { sessionId: 'x' } })).toThrow(/set by the session itself/);
    });

    it('should reject an empty id and an invalid createdAt', () => {
      expect(() => new Session({ sessionId: '' })).toThrow(ConfigurationError);
      expect(() => new Session({ createdAt: new Date(Number.NaN) })).toThrow(ConfigurationError);
    });
  });

  describe('.dispatch', () => {
    it('should append an event with no reducers to its own slice (ledger)', () => {
      const session = new Session();
      session.dispatch(new Note('a'));
      session.dispatch(new Note('a'));
      expect(session.slice(Note).all()).toEqual([new Note('a'), new Note('a')]);
    });

    it('should reject plain objects and primitives', () => {
      const session = new Session();
      expect(() => session.dispatch({ text: 'a' })).toThrow(/got a plain object/);
      expect(() => session.dispatch(3 as never)).toThrow(ConfigurationError);
    });

    it('should run the reducers registered for the event class, in registration order, across slices', () => {
      const session = new Session();
      const order: string[] = [];
      session.slice(Task).register(TaskAdded, (_view, event) => {
        order.push('task');
        return SliceOp.append(new Task(event.id));
      });
      session.slice(Note).register(TaskAdded, (view, event) => {
        order.push('note');
        return SliceOp.append(new Note(`${event.id} after ${view.size} notes`));
      });

      const result = session.dispatch(new TaskAdded('t1'));

      expect(order).toEqual(['task', 'note']);
      expect(session.slice(Task).all()).toEqual([new Task('t1')]);
      expect(session.slice(Note).latest()?.text).toBe('t1 after 0 notes');
      expect(session.slice(TaskAdded).size).toBe(0);
      expect(result.reducersInvoked).toHaveLength(2);
      expect(result.ok).toBe(true);
    });

    it('should give reducers a read-only view of the rest of the session', () => {
      const session = new Session();
      session.slice(Task).seed([new Task('a'), new Task('b', true)]);
      session
        .slice(Counter)
        .register(TaskCompleted, (_view, _event, { session: view }) =>
          SliceOp.replace([new Counter(view.slice(Task).where((task) => task.done).length)]),
        );
      session.dispatch(new TaskCompleted('b'));
      expect(session.slice(Counter).latest()).toEqual(new Counter(1));
    });

    it('should record a failing reducer, leave its slice unchanged and still run the others', () => {
      const session = new Session();
      session.slice(Task).seed(new Task('before'));
      const boom = new Error('boom');
      function failingReducer(): never {
        throw boom;
      }
      session.slice(Task).register(TaskAdded, failingReducer);
      session.slice(Note).register(TaskAdded, (_view, event) => SliceOp.append(new Note(event.id)));

      const result = session.dispatch(new TaskAdded('t1'));

      expect(result.ok).toBe(false);
      expect(result.errors).toEqual([
        { source: 'reducer', handler: failingReducer, error: boom, slice: Task },
      ]);
      expect(session.slice(Task).all()).toEqual([new Task('before')]);
      expect(session.slice(Note).all()).toEqual([new Note('t1')]);
      expect(() => {
        result.raiseIfErrors();
      }).toThrow(/reducer failingReducer on slice Task failed with Error: boom/);
    });

    it('should record a TypeError when a reducer tries to mutate what it was given', () => {
      const session = new Session();
      session.slice(Counted).seed(new Counted(['a']));
      session.slice(Counted).register(TaskAdded, (view, event) => {
        const current = view.latest()!;
        current.items.push(event.id);
        return SliceOp.replace([current]);
      });
      session.slice(Task).register(TaskAdded, (view, event) => {
        (view.all() as Task[]).push(new Task(event.id));
        return undefined;
      });

      const result = session.dispatch(new TaskAdded('t1'));

      expect(result.errors.map((failure) => failure.slice)).toEqual([Counted, Task]);
      for (const failure of result.errors) expect(failure.error).toBeInstanceOf(TypeError);
      expect(session.slice(Counted).latest()?.items).toEqual(['a']);
      expect(session.slice(Task).size).toBe(0);
    });

    it('should not let a reducer mutate the event it receives', () => {
      const session = new Session();
      session.slice(Note).register(Counted, (_view, event) => {
        event.items.push('sneaky');
        return undefined;
      });
      const event = new Counted(['a']);
      const result = session.dispatch(event);
      expect(result.errors[0]?.error).toBeInstanceOf(TypeError);
      expect(event.items).toEqual(['a']);
    });

    it('should freeze what it stores, so outside code cannot change state either', () => {
      const session = new Session();
      const value = new Counted(['a']);
      session.slice(Counted).append(value);
      expect(() => value.items.push('b')).toThrow(TypeError);
      expect(session.slice(Counted).latest()?.items).toEqual(['a']);
    });

    it('should record a reducer that returns something other than a SliceOp', () => {
      const session = new Session();
      session.slice(Task).register(TaskAdded, (() => [new Task('x')]) as never);
      const result = session.dispatch(new TaskAdded('t1'));
      expect(ConfigurationError.is(result.errors[0]?.error)).toBe(true);
      expect(String(result.errors[0]?.error)).toContain('is not a slice operation');
    });

    it('should record an async reducer as a failure and apply nothing', async () => {
      const session = new Session();
      session.slice(Task).register(TaskAdded, (async () => {
        await Promise.resolve();
        return SliceOp.append(new Task('x'));
      }) as never);
      const result = session.dispatch(new TaskAdded('t1'));
      await Promise.resolve();
      expect(String(result.errors[0]?.error)).toContain('reducers must be synchronous');
      expect(session.slice(Task).size).toBe(0);
    });

    it('should record a reducer that puts a value of the wrong class into its slice', () => {
      const session = new Session();
      session.slice(Task).register(TaskAdded, (() => SliceOp.append(new Note('x'))) as never);
      const result = session.dispatch(new TaskAdded('t1'));
      expect(String(result.errors[0]?.error)).toContain(
        'tried to put an instance of Note into slice Task',
      );
      expect(session.slice(Task).size).toBe(0);
    });

    it('should apply an extend op whole or not at all', () => {
      const session = new Session();
      session
        .slice(Task)
        .register(TaskAdded, (() => SliceOp.extend([new Task('ok'), new Note('bad')])) as never);
      session.dispatch(new TaskAdded('t1'));
      expect(session.slice(Task).size).toBe(0);
    });

    it('should deliver the event to subscribers after the reducers, and record their failures', () => {
      const dispatcher = new InProcessDispatcher();
      const session = new Session({ dispatcher });
      const seen: number[] = [];
      dispatcher.subscribe(Note, () => seen.push(session.slice(Note).size));
      function brokenSubscriber(): void {
        throw new Error('subscriber down');
      }
      dispatcher.subscribe(Note, brokenSubscriber);

      const result = session.dispatch(new Note('a'));

      expect(seen).toEqual([1]);
      expect(result.handlersInvoked).toHaveLength(2);
      expect(result.errors).toMatchObject([{ source: 'subscriber', handler: brokenSubscriber }]);
      expect(session.slice(Note).all()).toEqual([new Note('a')]);
    });

    it('should freeze the dispatched event', () => {
      const session = new Session();
      const event = new Counted(['x']);
      session.dispatch(event);
      expect(Object.isFrozen(event)).toBe(true);
      expect(Object.isFrozen(event.items)).toBe(true);
    });
  });

  describe('telemetry events', () => {
    it('should log every ToolInvoked in its LOG slice, even when it has other reducers', () => {
      const session = new Session();
      session
        .slice(Counter)
        .register(ToolInvoked, (view) =>
          SliceOp.replace([new Counter((view.latest()?.count ?? 0) + 1)]),
        );
      session.dispatch(toolInvoked(ToolResult.ok(null)));
      session.dispatch(toolInvoked(ToolResult.error('nope')));
      expect(session.slice(ToolInvoked).size).toBe(2);
      expect(session.slice(ToolInvoked).policy).toBe(SlicePolicy.Log);
      expect(session.slice(Counter).latest()?.count).toBe(2);
    });

    it('should fan a successful ToolInvoked class-instance value out to its own slice', () => {
      const session = new Session();
      session.slice(Task).register(
        Task,
        upsertBy((task) => task.id),
      );
      session.dispatch(toolInvoked(ToolResult.ok(new Task('a'))));
      session.dispatch(toolInvoked(ToolResult.ok(new Task('a', true))));
      expect(session.slice(Task).all()).toEqual([new Task('a', true)]);
    });

    it('should not fan out failed, interrupted, plain-object or array values', () => {
      const session = new Session();
      session.dispatch(
        toolInvoked(new ToolResult({ message: 'x', value: new Task('f'), success: false })),
      );
      session.dispatch(
        toolInvoked(new ToolResult({ message: 'x', value: new Task('u'), success: false }), {
          outcome: 'unknown',
        }),
      );
      session.dispatch(toolInvoked(ToolResult.ok({ id: 'plain' })));
      session.dispatch(toolInvoked(ToolResult.ok([new Task('in-array')])));
      expect(session.slice(Task).size).toBe(0);
      expect(session.slice(ToolInvoked).size).toBe(4);
    });

    it('should fan a PromptExecuted output, or each class instance of an array output, out to its slice', () => {
      const session = new Session();
      session.dispatch(
        new PromptExecuted({ ...promptContext, result: { text: null, output: new Task('one') } }),
      );
      session.dispatch(
        new PromptExecuted({
          ...promptContext,
          result: { text: null, output: [new Task('two'), 'skip', new Task('three')] },
        }),
      );
      expect(
        session
          .slice(Task)
          .all()
          .map((task) => task.id),
      ).toEqual(['one', 'two', 'three']);
      expect(session.slice(PromptExecuted).size).toBe(2);
    });

    it('should log PromptRendered', () => {
      const session = new Session();
      session.dispatch(new PromptRendered({ ...promptContext, renderedPrompt: 'text' }));
      expect(session.slice(PromptRendered).latest()?.renderedPrompt).toBe('text');
    });
  });

  describe('.install', () => {
    class TodoList {
      constructor(readonly open: readonly string[] = []) {}

      @Reducer(TaskAdded)
      add(event: TaskAdded): TodoList {
        return new TodoList([...this.open, event.id]);
      }

      @Reducer(TaskCompleted)
      complete(event: TaskCompleted): TodoList {
        return new TodoList(this.open.filter((id) => id !== event.id));
      }
    }

    it('should reduce events with the @Reducer methods of the state class', () => {
      const session = new Session();
      const slice = session.install(TodoList, { initial: () => new TodoList() });
      session.dispatch(new TaskAdded('a'));
      session.dispatch(new TaskAdded('b'));
      session.dispatch(new TaskCompleted('a'));
      expect(slice.latest()).toEqual(new TodoList(['b']));
      expect(slice.size).toBe(1);
    });

    it('should not seed the slice with the initial state', () => {
      const session = new Session();
      session.install(TodoList, { initial: () => new TodoList() });
      expect(session.slice(TodoList).latest()).toBeUndefined();
    });

    it('should ignore events while the slice is empty and there is no initial state', () => {
      const session = new Session();
      session.install(TodoList);
      const result = session.dispatch(new TaskAdded('a'));
      expect(result.ok).toBe(true);
      expect(session.slice(TodoList).latest()).toBeUndefined();
      session.slice(TodoList).seed(new TodoList(['x']));
      session.dispatch(new TaskAdded('y'));
      expect(session.slice(TodoList).latest()).toEqual(new TodoList(['x', 'y']));
    });

    it('should record a method that mutates the state instead of returning a new one', () => {
      class MutableCounter {
        count = 0;
        @Reducer(TaskAdded)
        bump(): this {
          this.count++;
          return this;
        }
      }
      const session = new Session();
      session.install(MutableCounter, { initial: () => new MutableCounter() });
      const result = session.dispatch(new TaskAdded('a'));
      expect(result.errors[0]?.error).toBeInstanceOf(TypeError);
      expect(result.errors[0]?.handler.name).toBe('MutableCounter.bump');
      expect(session.slice(MutableCounter).size).toBe(0);
    });

    it('should record a method that returns something other than the next state', () => {
      class Forgetful {
        @Reducer(TaskAdded)
        add(): Forgetful {
          return undefined as unknown as Forgetful;
        }
      }
      const session = new Session();
      session.install(Forgetful, { initial: () => new Forgetful() });
      const result = session.dispatch(new TaskAdded('a'));
      expect(String(result.errors[0]?.error)).toContain(
        'Forgetful.add: returned undefined instead of the next Forgetful.',
      );
    });

    it('should refuse a class without reducers and a second install', () => {
      const session = new Session();
      expect(() => session.install(Note)).toThrow(/Note has no @Reducer methods/);
      session.install(TodoList);
      expect(() => session.install(TodoList)).toThrow(/already installed/);
    });
  });

  describe('.clone', () => {
    it('should copy slices, reducers and policies, then evolve independently', () => {
      const session = new Session({ tags: { agent: 'a' } });
      session.slice(Task).register(
        Task,
        upsertBy((task) => task.id),
      );
      session.slice(Note).setPolicy(SlicePolicy.Log);
      session.slice(Task).append(new Task('a'));

      const copy = session.clone();
      copy.slice(Task).append(new Task('a', true));
      session.slice(Task).append(new Task('b'));

      expect(copy.sessionId).not.toBe(session.sessionId);
      expect(copy.tags).toEqual({ agent: 'a', sessionId: copy.sessionId });
      expect(copy.slice(Task).all()).toEqual([new Task('a', true)]);
      expect(session.slice(Task).all()).toEqual([new Task('a'), new Task('b')]);
      expect(copy.slice(Note).policy).toBe(SlicePolicy.Log);
      expect(copy.dispatcher).toBe(session.dispatcher);
    });

    it('should take a new dispatcher, id and parent when given', () => {
      const session = new Session();
      const dispatcher = new InProcessDispatcher();
      const copy = session.clone({ dispatcher, sessionId: 'fork', parent: session });
      expect(copy.dispatcher).toBe(dispatcher);
      expect(copy.tags).toEqual({ sessionId: 'fork', parentSessionId: session.sessionId });
    });
  });

  describe('.reset', () => {
    it('should empty every slice, logs included, and keep the reducers', () => {
      const session = new Session();
      session.slice(Task).register(
        Task,
        upsertBy((task) => task.id),
      );
      session.slice(Task).append(new Task('a'));
      session.dispatch(toolInvoked(ToolResult.ok(null)));

      session.reset();

      expect(session.sliceTypes).toEqual([]);
      session.slice(Task).append(new Task('b'));
      session.slice(Task).append(new Task('b', true));
      expect(session.slice(Task).all()).toEqual([new Task('b', true)]);
    });
  });

  describe('concurrency', () => {
    it('should lose no event and keep every slice consistent when many async tasks dispatch at once', async () => {
      const session = new Session();
      session.slice(Task).register(TaskAdded, (_view, event) => SliceOp.append(new Task(event.id)));
      session
        .slice(Task)
        .register(TaskCompleted, (view, event) =>
          SliceOp.replace(
            view.all().map((task) => (task.id === event.id ? new Task(task.id, true) : task)),
          ),
        );
      session
        .slice(Counter)
        .register(TaskAdded, (view) =>
          SliceOp.replace([new Counter((view.latest()?.count ?? 0) + 1)]),
        );
      const workers = 50;
      const perWorker = 40;
      const tick = (): Promise<void> =>
        new Promise((resolve) => {
          setImmediate(resolve);
        });

      await Promise.all(
        Array.from({ length: workers }, async (_, worker) => {
          for (let i = 0; i < perWorker; i++) {
            const id = `${worker}-${i}`;
            await tick();
            session.dispatch(new TaskAdded(id));
            await Promise.resolve();
            session.dispatch(toolInvoked(ToolResult.ok(null)));
            await tick();
            if (i % 2 === 0) session.dispatch(new TaskCompleted(id));
          }
        }),
      );

      const tasks = session.slice(Task).all();
      expect(tasks).toHaveLength(workers * perWorker);
      expect(new Set(tasks.map((task) => task.id)).size).toBe(workers * perWorker);
      expect(tasks.filter((task) => task.done)).toHaveLength((workers * perWorker) / 2);
      for (const task of tasks) {
        const index = Number(task.id.split('-')[1]);
        expect(task.done).toBe(index % 2 === 0);
      }
      expect(session.slice(Counter).all()).toEqual([new Counter(workers * perWorker)]);
      expect(session.slice(ToolInvoked).size).toBe(workers * perWorker);
      expect(
        new Set(
          session
            .slice(ToolInvoked)
            .all()
            .map((e) => e.eventId),
        ).size,
      ).toBe(workers * perWorker);
    });
  });
});

describe('Session.isInstalled', () => {
  it('should say whether a state class was installed, also in a clone', () => {
    class Bump {}
    class Counter {
      constructor(readonly value = 0) {}

      @Reducer(Bump)
      bump(): Counter {
        return new Counter(this.value + 1);
      }
    }
    const session = new Session();
    expect(session.isInstalled(Counter)).toBe(false);
    session.install(Counter, { initial: () => new Counter() });
    expect(session.isInstalled(Counter)).toBe(true);
    expect(session.clone().isInstalled(Counter)).toBe(true);
  });
});
