import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { InMemoryFilesystem } from '../../src/resources/in-memory-filesystem.js';
import { Filesystem } from '../../src/resources/filesystem.js';
import { ResourceContext } from '../../src/resources/resource-context.js';
import { ResourceRegistry } from '../../src/resources/resource-registry.js';
import { Session } from '../../src/session/session.js';

class Log {
  readonly lines: string[] = [];
}

class Connection {
  static opened = 0;
  readonly id = ++Connection.opened;
  constructor(readonly log: Log) {}
  close(): Promise<void> {
    this.log.lines.push(`close connection ${this.id}`);
    return Promise.resolve();
  }
}

class Cache {
  constructor(readonly log: Log) {}
  [Symbol.dispose](): void {
    this.log.lines.push('dispose cache');
  }
}

class Scratch {
  constructor(readonly log: Log) {}
  [Symbol.asyncDispose](): Promise<void> {
    this.log.lines.push('dispose scratch');
    return Promise.resolve();
  }
}

class Counter {
  value = 0;
  snapshot(): number {
    return this.value;
  }
  restore(value: number): void {
    this.value = value;
  }
}

function registry(log: Log): ResourceRegistry {
  return new ResourceRegistry()
    .value(Log, log)
    .bind(Connection, { create: (r) => new Connection(r.get(Log)) })
    .bind(Cache, { scope: 'prototype', create: (r) => new Cache(r.get(Log)) })
    .bind(Scratch, { scope: 'tool-call', create: (r) => new Scratch(r.get(Log)) })
    .bind(Counter, { create: () => new Counter() });
}

describe(ResourceContext, () => {
  describe('.get', () => {
    it('should create a singleton once per evaluation', () => {
      const log = new Log();
      const context = registry(log).open();
      const call = context.openToolCall();
      expect(context.get(Connection)).toBe(call.get(Connection));
      expect(registry(log).open().get(Connection)).not.toBe(context.get(Connection));
    });

    it('should create a tool-call resource once per call', () => {
      const context = registry(new Log()).open();
      const first = context.openToolCall();
      const second = context.openToolCall();
      expect(first.get(Scratch)).toBe(first.get(Scratch));
      expect(first.get(Scratch)).not.toBe(second.get(Scratch));
    });

    it('should create a prototype on every request', () => {
      const context = registry(new Log()).open();
      expect(context.get(Cache)).not.toBe(context.get(Cache));
    });

    it('should refuse a tool-call resource outside a tool call, or as a singleton’s dependency', () => {
      const context = registry(new Log())
        .bind(Connection, { create: (r) => (r.get(Scratch), new Connection(new Log())) })
        .open();
      expect(() => context.get(Scratch)).toThrow(/requested outside a tool call/);
      expect(() => context.openToolCall().get(Connection)).toThrow(/requested outside a tool call/);
    });

    it('should name what is bound when a key is not', () => {
      const context = new ResourceRegistry().value(Log, new Log()).open();
      expect(() => context.get(Counter)).toThrow(
        'Resource Counter: nothing is bound to it (bound: Log). Fix: Bind it: registry.bind(Counter, { create: () => ... }).',
      );
    });

    it('should report a circular dependency with its path', () => {
      class A {}
      class B {}
      const context = new ResourceRegistry()
        .bind(A, { create: (r) => (r.get(B), new A()) })
        .bind(B, { create: (r) => (r.get(A), new B()) })
        .open();
      expect(() => context.get(A)).toThrow(/circular dependency: A -> B -> A/);
      expect(() => context.get(B)).toThrow(/circular dependency: B -> A -> B/);
    });

    it('should create eager singletons when the context opens', () => {
      let created = 0;
      new ResourceRegistry()
        .bind(Counter, { eager: true, create: () => (created++, new Counter()) })
        .open();
      expect(created).toBe(1);
    });

    it('should resolve interfaces through tokens', () => {
      const fs = new InMemoryFilesystem();
      const context = new ResourceRegistry().value(Filesystem, fs).open();
      expect(context.get(Filesystem)).toBe(fs);
    });
  });

  describe('.close', () => {
    it('should close what it created, newest first, through close, dispose or asyncDispose', async () => {
      const log = new Log();
      const context = registry(log).open();
      const call = context.openToolCall();
      const connection = call.get(Connection);
      call.get(Scratch);
      context.get(Cache);

      await call.close();
      expect(log.lines).toEqual(['dispose scratch']);
      await context.close();

      expect(log.lines).toEqual([
        'dispose scratch',
        'dispose cache',
        `close connection ${connection.id}`,
      ]);
      expect(context.closed).toBe(true);
    });

    it('should close open tool-call contexts first and never close supplied values', async () => {
      const log = new Log();
      const closed: string[] = [];
      const supplied = { close: () => closed.push('supplied') };
      const context = registry(log)
        .value(Counter, supplied as never)
        .open();
      context.openToolCall().get(Scratch);
      await context[Symbol.asyncDispose]();
      expect(log.lines).toEqual(['dispose scratch']);
      expect(closed).toEqual([]);
    });

    it('should give every resource its turn and report the failures together', async () => {
      const log = new Log();
      class Flaky {
        close(): void {
          throw new Error('flaky close');
        }
      }
      const context = registry(log)
        .bind(Flaky, { create: () => new Flaky() })
        .open();
      context.get(Connection);
      context.get(Flaky);
      const failure = context.close();
      await expect(failure).rejects.toBeInstanceOf(AggregateError);
      await failure.catch((error: unknown) => {
        const [first] = (error as AggregateError).errors as ConfigurationError[];
        expect(first?.message).toContain('Resource Flaky: failed to close.');
        expect((first?.cause as Error).message).toBe('flaky close');
      });
      expect(log.lines).toHaveLength(1);
    });

    it('should close a tool-call context with the evaluation, whether it created something or not', async () => {
      const log = new Log();
      const context = registry(log).open();
      const idle = context.openToolCall();
      const busy = context.openToolCall();
      busy.get(Scratch);
      await context.close();
      expect([idle.closed, busy.closed]).toEqual([true, true]);
      expect(log.lines).toEqual(['dispose scratch']);
      // A handler still running after its evaluation ended creates nothing that would never close.
      expect(() => idle.get(Scratch)).toThrow(/closed resource context/);
      expect(() => idle.get(Cache)).toThrow(/closed resource context/);
    });

    it('should close a tool-call context that created nothing at once, and one that did through close()', async () => {
      const log = new Log();
      const context = registry(log).open();
      const idle = context.openToolCall();
      expect(idle.closeIfIdle()).toBe(true);
      expect(idle.closed).toBe(true);
      const busy = context.openToolCall();
      busy.get(Scratch);
      expect(busy.closeIfIdle()).toBe(false);
      expect(busy.closed).toBe(false);
      await busy.close();
      expect(log.lines).toEqual(['dispose scratch']);
      await context.close();
      expect(log.lines).toEqual(['dispose scratch']);
    });

    it('should refuse requests once closed and be idempotent', async () => {
      const context = registry(new Log()).open();
      await context.close();
      await context.close();
      expect(() => context.get(Counter)).toThrow(/closed resource context/);
    });
  });

  describe('.snapshot', () => {
    it('should capture instantiated snapshotable singletons and restore them', () => {
      const context = registry(new Log()).open();
      const counter = context.get(Counter);
      counter.value = 1;
      const snapshot = context.snapshot();
      counter.value = 7;
      context.restore(snapshot);
      expect(counter.value).toBe(1);
      expect(snapshot.size).toBe(1);
    });

    it('should take part in a session transaction with the filesystem', async () => {
      const fs = new InMemoryFilesystem();
      const context = registry(new Log()).value(Filesystem, fs).open();
      const session = new Session();
      const counter = context.get(Counter);

      await expect(
        session.transaction(
          async () => {
            counter.value = 5;
            await context.get(Filesystem).write('notes.md', 'draft');
            throw new Error('tool failed');
          },
          { include: [context] },
        ),
      ).rejects.toThrow('tool failed');

      expect(counter.value).toBe(0);
      expect(await fs.exists('notes.md')).toBe(false);
    });

    it('should reject something that is not a resource snapshot', () => {
      expect(() => {
        registry(new Log())
          .open()
          .restore({} as never);
      }).toThrow(ConfigurationError);
    });
  });
});
