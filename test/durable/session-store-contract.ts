import { SessionConflictError } from 'affordance';
import { type SessionChange, type SessionStore, type StoredSession } from 'affordance/durable';
import type { JsonValue } from 'affordance';
import { catchRejection } from '../support/catch-error.js';
import {
  awkwardName,
  awkwardText,
  bigValue,
  change,
  created,
  log,
  nestedValue,
  state,
} from './session-change.js';

/** A store in a namespace of its own (a fresh instance, table prefix or key prefix), and how to let it go. */
export interface OpenedStore {
  readonly store: SessionStore;
  close(): Promise<void>;
}

/**
 * The behaviour every `SessionStore` must have, as one `describe(label)`.
 * `open` is called once or twice per test; each call must give a store that
 * shares nothing with the stores of earlier calls.
 */
export function sessionStoreContract(label: string, open: () => Promise<OpenedStore>): void {
  describe(label, () => {
    const opened: OpenedStore[] = [];
    const fresh = async (): Promise<SessionStore> => {
      const next = await open();
      opened.push(next);
      return next.store;
    };
    afterEach(async () => {
      for (const next of opened.splice(0)) await next.close();
    });

    it('loads an unknown session as undefined', async () => {
      expect(await (await fresh()).load('nobody')).toBeUndefined();
    });

    it('loads a new session exactly as written: slices and values in order, unicode, nested JSON, ~1 MB values', async () => {
      const store = await fresh();
      // Braces too: the Redis store puts the id in a {hash tag}.
      const id = `s}{1 ${awkwardName}`;
      const big = bigValue();
      const slices = [
        log('zulu.events', { type: 'first' }, nestedValue, 'second', 3, null, false),
        state('alpha.state', big),
        log(awkwardName, awkwardText, [awkwardText]),
        state('mike.empty'),
      ];
      const records: Record<string, JsonValue> = {
        checkpoint: nestedValue,
        [awkwardName]: awkwardText,
      };
      expect(
        await store.commit(
          change(id, 0, { append: slices.slice(0, 2), replace: slices.slice(2), records }),
        ),
      ).toBe(1);

      const loaded = await store.load(id);
      // Replaced slices are written before appended ones; an empty slice is not listed.
      const expected = [slices[2], slices[0], slices[1]];
      expect(loaded).toEqual({
        sessionId: id,
        version: 1,
        ...created,
        slices: expected,
        records,
      });
      // Same text, not only deep-equal: key order, and values that JSON can only escape, survive.
      expect(JSON.stringify(loaded?.slices)).toBe(JSON.stringify(expected));
      expect(JSON.stringify(loaded?.records['checkpoint'])).toBe(JSON.stringify(nestedValue));
      expect(JSON.stringify(loaded?.tags)).toBe(JSON.stringify(created.tags));
    }, 30_000);

    it('appends values at the end of a slice, and new slices after the existing ones', async () => {
      const store = await fresh();
      await store.commit(
        change('s-1', 0, { append: [log('events', 'e1', 'e2'), state('plan', 'p1')] }),
      );
      await store.commit(change('s-1', 1, { append: [log('events', 'e3')] }));
      await store.commit(
        change('s-1', 2, {
          append: [log('audit', 'a1'), log('events', 'e4', 'e5'), state('plan', 'p2')],
        }),
      );

      const loaded = await store.load('s-1');
      expect(loaded?.slices).toEqual([
        log('events', 'e1', 'e2', 'e3', 'e4', 'e5'),
        state('plan', 'p1', 'p2'),
        log('audit', 'a1'),
      ]);
    });

    it('replaces a slice, keeps its place, empties it with no values and lets it fill again', async () => {
      const store = await fresh();
      await store.commit(
        change('s-1', 0, { append: [state('a', 1), state('b', 2, 3), state('c', 4)] }),
      );
      await store.commit(change('s-1', 1, { replace: [state('b', 'x', 'y')] }));
      expect((await store.load('s-1'))?.slices).toEqual([
        state('a', 1),
        state('b', 'x', 'y'),
        state('c', 4),
      ]);

      await store.commit(change('s-1', 2, { replace: [state('b')] }));
      expect((await store.load('s-1'))?.slices).toEqual([state('a', 1), state('c', 4)]);

      // Replace then append in one change; the slice comes back where it was first written, with the last policy.
      await store.commit(
        change('s-1', 3, { replace: [state('b', 'r')], append: [log('b', 'appended')] }),
      );
      expect((await store.load('s-1'))?.slices).toEqual([
        state('a', 1),
        log('b', 'r', 'appended'),
        state('c', 4),
      ]);
    });

    it('sets, overwrites and deletes records', async () => {
      const store = await fresh();
      await store.commit(change('s-1', 0, { records: { a: { n: 1 }, b: 'two', c: [3] } }));
      await store.commit(
        change('s-1', 1, { records: { a: { n: 'one', z: null }, b: null, missing: null, d: 0 } }),
      );

      expect((await store.load('s-1'))?.records).toEqual({
        a: { n: 'one', z: null },
        c: [3],
        d: 0,
      });
    });

    it('counts commits: the version grows by one, and createdAt and tags stay those of the creation', async () => {
      const store = await fresh();
      const versions: number[] = [];
      for (let expected = 0; expected < 4; expected++) {
        const later = {
          createdAt: `2030-01-0${expected + 1}T00:00:00.000Z`,
          tags: { tenant: `t${expected}` },
        };
        const tags = expected === 0 ? created.tags : later.tags;
        const createdAt = expected === 0 ? created.createdAt : later.createdAt;
        versions.push(
          await store.commit(
            change('s-1', expected, { createdAt, tags, append: [log('e', expected)] }),
          ),
        );
      }
      expect(versions).toEqual([1, 2, 3, 4]);
      const loaded = await store.load('s-1');
      expect(loaded).toMatchObject({ version: 4, ...created });
      expect(loaded?.tags).toEqual(created.tags);
    });

    it('refuses a stale or future version with a SessionConflictError and stores nothing of it', async () => {
      const store = await fresh();
      await store.commit(
        change('s-1', 0, {
          append: [log('e', 1)],
          replace: [state('s', 'kept')],
          records: { r: 1 },
        }),
      );
      await store.commit(change('s-1', 1, { append: [log('e', 2)] }));
      const before = await store.load('s-1');

      for (const expectedVersion of [1, 3]) {
        const refused = change('s-1', expectedVersion, {
          append: [log('e', 'lost'), log('new-slice', 'lost')],
          replace: [state('s')],
          records: { r: null, other: 'lost' },
        });
        const error = await catchRejection(SessionConflictError, () => store.commit(refused));
        expect(SessionConflictError.is(error)).toBe(true);
        expect(error).toMatchObject({
          code: 'session_conflict',
          sessionId: 's-1',
          expectedVersion,
          actualVersion: 2,
        });
      }
      const after = await store.load('s-1');
      expect(JSON.stringify(after)).toBe(JSON.stringify(before));
    });

    it('refuses to create a session that exists, and to update one that does not', async () => {
      const store = await fresh();
      await store.commit(change('s-1', 0, { append: [log('e', 'first')] }));
      const twice = change('s-1', 0, {
        createdAt: '2031-01-01T00:00:00.000Z',
        append: [log('e', 'second')],
      });
      const error = await catchRejection(SessionConflictError, () => store.commit(twice));
      expect(error).toMatchObject({
        code: 'session_conflict',
        expectedVersion: 0,
        actualVersion: 1,
      });
      expect(await store.load('s-1')).toMatchObject({
        version: 1,
        createdAt: created.createdAt,
        slices: [log('e', 'first')],
      });

      const ghost = await catchRejection(SessionConflictError, () =>
        store.commit(change('ghost', 2, { append: [log('e', 1)] })),
      );
      expect(ghost).toMatchObject({ expectedVersion: 2, actualVersion: 0 });
      expect(await store.load('ghost')).toBeUndefined();
    });

    it('lets exactly one of 20 writers racing from the same version win', async () => {
      const store = await fresh();
      await store.commit(change('race', 0, { append: [log('e', 'start')] }));
      const loaded = (await store.load('race')) as StoredSession;

      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, (_, writer) =>
          store.commit(
            change('race', loaded.version, {
              append: [log('e', writer)],
              records: { winner: writer },
            }),
          ),
        ),
      );
      const won = outcomes.flatMap((outcome, writer) =>
        outcome.status === 'fulfilled' ? [{ writer, version: outcome.value }] : [],
      );
      expect(won).toHaveLength(1);
      const lost = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(lost.every((outcome) => SessionConflictError.is(outcome.reason))).toBe(true);

      const winner = won[0]!;
      expect(winner.version).toBe(2);
      expect(await store.load('race')).toMatchObject({
        version: 2,
        slices: [log('e', 'start', winner.writer)],
        records: { winner: winner.writer },
      });
    }, 30_000);

    it('lets exactly one of 10 writers creating the same session win', async () => {
      const store = await fresh();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, (_, writer) =>
          store.commit(
            change('born', 0, { tags: { writer: String(writer) }, append: [log('e', writer)] }),
          ),
        ),
      );
      const won = outcomes.flatMap((outcome, writer) =>
        outcome.status === 'fulfilled' ? [writer] : [],
      );
      expect(won).toHaveLength(1);
      const refused = outcomes.flatMap((outcome) =>
        outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
      );
      expect(
        refused.every((reason) => SessionConflictError.is(reason) && reason.actualVersion !== 0),
      ).toBe(true);
      expect(await store.load('born')).toMatchObject({
        version: 1,
        tags: { writer: String(won[0]) },
        slices: [log('e', won[0]!)],
      });
    }, 30_000);

    it('loses no update when 50 writers race, each reloading and retrying after a conflict', async () => {
      const store = await fresh();
      await store.commit(change('retry', 0, { replace: [state('count', 0)] }));
      const writers = Array.from({ length: 50 }, (_, writer) =>
        appendWithRetry(store, 'retry', writer),
      );
      const wonAt = await Promise.all(writers);

      // Each writer won a different version, and together they cover 2..51.
      expect([...wonAt].sort((a, b) => a - b)).toEqual(
        Array.from({ length: 50 }, (_, index) => index + 2),
      );
      const loaded = (await store.load('retry')) as StoredSession;
      expect(loaded.version).toBe(51);
      const appended = loaded.slices.find((slice) => slice.name === 'e')?.values ?? [];
      // The value at index i was appended by the commit that made version i + 2.
      const byVersion = wonAt
        .map((version, writer) => ({ version, writer }))
        .sort((a, b) => a.version - b.version);
      expect(appended).toEqual(byVersion.map(({ writer }) => writer));
      expect(loaded.slices.find((slice) => slice.name === 'count')?.values).toEqual([50]);
    }, 60_000);

    it('deletes a session with everything in it; deleting again or an unknown one does nothing', async () => {
      const store = await fresh();
      await store.commit(
        change('s-1', 0, { append: [log('e', 1), state('s', 2)], records: { r: 'x' } }),
      );
      await store.commit(change('s-2', 0, { append: [log('e', 'other')] }));
      await store.delete('s-1');
      expect(await store.load('s-1')).toBeUndefined();
      await store.delete('s-1');
      await store.delete('never-was');

      expect(await store.commit(change('s-1', 0, { append: [log('fresh', 'start')] }))).toBe(1);
      expect(await store.load('s-1')).toMatchObject({
        version: 1,
        slices: [log('fresh', 'start')],
        records: {},
      });
      expect((await store.load('s-2'))?.slices).toEqual([log('e', 'other')]);
    });

    it('keeps stores opened separately apart', async () => {
      const first = await fresh();
      const second = await fresh();
      await first.commit(
        change('shared-id', 0, { append: [log('e', 'first')], records: { owner: 'first' } }),
      );
      expect(await second.load('shared-id')).toBeUndefined();
      await second.commit(change('shared-id', 0, { append: [log('e', 'second')] }));
      await second.commit(change('shared-id', 1, { append: [log('e', 'second again')] }));

      await first.delete('shared-id');
      expect(await first.load('shared-id')).toBeUndefined();
      expect(await second.load('shared-id')).toMatchObject({
        version: 2,
        slices: [log('e', 'second', 'second again')],
        records: {},
      });
    });

    it('shares no objects between what was committed, what is loaded and what is stored', async () => {
      const store = await fresh();
      const value = { list: [1, 2], inner: { text: 'before' } };
      const record = { nested: { n: 1 } };
      const committed = change('s-1', 0, { append: [log('e', value)], records: { r: record } });
      await store.commit(committed);
      value.list.push(3);
      value.inner.text = 'mutated after commit';
      record.nested.n = 99;

      const loaded = (await store.load('s-1')) as StoredSession;
      const expected = {
        slices: [log('e', { list: [1, 2], inner: { text: 'before' } })],
        records: { r: { nested: { n: 1 } } },
      };
      expect(loaded).toMatchObject(expected);
      const loadedValue = loaded.slices[0]!.values[0] as { list: number[] };
      loadedValue.list.push(4);
      (loaded.records as Record<string, JsonValue>)['r'] = 'replaced';
      (loaded.tags as Record<string, string>)['tenant'] = 'changed';

      expect(await store.load('s-1')).toMatchObject({ ...expected, tags: created.tags });
    });
  });
}

/** Loads, appends this writer's number, commits; reloads and tries again after a conflict. */
async function appendWithRetry(
  store: SessionStore,
  sessionId: string,
  writer: number,
): Promise<number> {
  for (let attempt = 0; attempt < 1_000; attempt++) {
    const loaded = (await store.load(sessionId)) as StoredSession;
    const count = loaded.slices.find((slice) => slice.name === 'count')?.values[0] as number;
    const next: SessionChange = change(sessionId, loaded.version, {
      append: [log('e', writer)],
      replace: [state('count', count + 1)],
    });
    try {
      return await store.commit(next);
    } catch (error) {
      if (!SessionConflictError.is(error)) throw error;
    }
  }
  throw new Error(`writer ${writer} never committed after 1000 attempts`);
}
