/**
 * SessionPersistence on a real store (InMemorySessionStore, which keeps JSON
 * text): sessions written by real evaluations come back the same in a fresh
 * persistence, commits append what grew and replace what changed otherwise,
 * what cannot be stored is refused before anything is written, and two
 * writers never lose an update.
 */
import fc from 'fast-check';

import { ConfigurationError, SessionConflictError } from 'affordance';
import {
  commitWithRetry,
  InMemorySessionStore,
  SessionCodec,
  SessionPersistence,
  type SessionStore,
} from 'affordance/durable';

import { catchError, catchRejection } from '../support/catch-error.js';
import {
  Note,
  persistenceRoundTrip,
  RecordingStore,
  roundTripClasses,
} from './persistence-round-trip.js';

const persistenceOn = (store: SessionStore): SessionPersistence =>
  new SessionPersistence({
    store,
    codec: new SessionCodec({ classes: [...roundTripClasses, Holder] }),
  });

persistenceRoundTrip('InMemorySessionStore', () =>
  Promise.resolve({ store: new InMemorySessionStore(), close: () => Promise.resolve() }),
);

describe('SessionPersistence', () => {
  it('appends what grew, replaces what changed otherwise, and writes nothing without changes', async () => {
    const store = new RecordingStore();
    const durable = await persistenceOn(store).open('s-2');
    const slice = durable.session.slice(Note);
    slice.append(new Note('a'));
    await durable.commit();
    slice.append(new Note('b'));
    await durable.commit();
    expect(store.changes.at(-1)?.append.map((s) => [s.name, s.values.length])).toEqual([
      ['Note', 1],
    ]);

    slice.seed([new Note('x')]);
    await durable.commit();
    expect(store.changes.at(-1)?.replace.map((s) => [s.name, s.values.length])).toEqual([
      ['Note', 1],
    ]);

    slice.clear();
    await durable.commit();
    expect(store.changes.at(-1)?.replace).toEqual([{ name: 'Note', policy: 'state', values: [] }]);

    const before = store.changes.length;
    expect(await durable.commit()).toBe(4);
    expect(store.changes).toHaveLength(before);
    expect(await durable.commit({ records: { step: 1 } })).toBe(5);
    expect(durable.records).toEqual({ step: 1 });
    expect(await durable.commit({ records: { step: null } })).toBe(6);
    expect(durable.records).toEqual({});
    expect((await store.load('s-2'))?.slices).toEqual([]);
  });

  it.each([
    ['a function', () => undefined, /at \.value: a function cannot be stored/],
    ['a bigint', 10n, /at \.value: a bigint cannot be stored/],
    ['NaN', Number.NaN, /at \.value: NaN cannot be stored as JSON/],
    ['a RegExp', /x/, /at \.value: an instance of RegExp, a class the session codec does not know/],
    [
      'a cycle',
      (() => {
        const a: Record<string, unknown> = {};
        a['self'] = a;
        return a;
      })(),
      /at \.value\.self: the value refers to itself/,
    ],
    // eslint-disable-next-line no-sparse-arrays -- the hole is the point
    ['an array with a hole', [1, , 3], /at \.value\[1\]: arrays with holes cannot be stored/],
  ])(
    'refuses %s with the session, slice, value and path named, and writes nothing',
    async (_label, value, pattern) => {
      const store = new RecordingStore();
      const durable = await persistenceOn(store).open('s-3');
      durable.session.slice(Note).append(new Note('ok'));
      durable.session.slice(Holder).append(new Holder(value));
      const error = await catchRejection(ConfigurationError, () => durable.commit());
      expect(error.message).toMatch(/^Session s-3, slice Holder, value 0, /);
      expect(error.message).toMatch(pattern);
      expect(error.message).toContain('Fix:');
      expect(store.changes).toEqual([]);
      expect(durable.version).toBe(0);
    },
  );

  it('refuses a slice whose class is not registered, naming the fix', async () => {
    const durable = await new SessionPersistence({ store: new InMemorySessionStore() }).open('s-4');
    durable.session.slice(Note).append(new Note('a'));
    const error = await catchRejection(ConfigurationError, () => durable.commit());
    expect(error.message).toBe(
      'Session s-4, slice Note: its class Note is not registered in the session codec, so the slice cannot be stored. Fix: Register it: new SessionCodec({ classes: [Note] }).',
    );
  });

  it('refuses to load a class it does not know, rather than a plain object', async () => {
    const store = new InMemorySessionStore();
    const durable = await persistenceOn(store).open('s-5');
    durable.session.slice(Holder).append(new Holder(new Note('inside')));
    await durable.commit();
    const codec = new SessionCodec({ classes: [Holder] });
    const error = await catchRejection(ConfigurationError, () =>
      new SessionPersistence({ store, codec }).open('s-5'),
    );
    expect(error.message).toContain(
      "holds an instance of class 'Note', which the session codec does not know",
    );
  });

  it('refuses a #private class without encode/decode, and stores one with them', async () => {
    expect(
      catchError(ConfigurationError, () => new SessionCodec({ classes: [Secret] })).message,
    ).toContain('SessionCodec class Secret: declares private # fields');
    const codec = new SessionCodec({
      classes: [
        Holder,
        {
          type: Secret,
          encode: (secret: Secret) => secret.reveal(),
          decode: (json) => new Secret(json as string),
        },
      ],
    });
    const store = new InMemorySessionStore();
    const durable = await new SessionPersistence({ store, codec }).open('s-6');
    durable.session.slice(Holder).append(new Holder(new Secret('s3cret')));
    await durable.commit();
    const loaded = await new SessionPersistence({ store, codec }).open('s-6');
    const secret = loaded.session.view.slice(Holder).latest()?.value;
    expect(secret).toBeInstanceOf(Secret);
    expect((secret as Secret).reveal()).toBe('s3cret');
  });

  it('refuses two classes under one name', () => {
    const Other = class Note {};
    expect(
      catchError(ConfigurationError, () => new SessionCodec({ classes: [Note, Other] })).message,
    ).toContain("SessionCodec name 'Note': is taken by two different classes.");
  });

  it('lets one of two writers at the same version win, and commitWithRetry lose no update', async () => {
    const store = new InMemorySessionStore();
    const persistence = persistenceOn(store);
    const first = await persistence.open('s-7');
    const second = await persistence.open('s-7');
    first.session.slice(Note).append(new Note('first'));
    second.session.slice(Note).append(new Note('second'));
    await first.commit();
    await catchRejection(SessionConflictError, () => second.commit());
    expect(second.version).toBe(0);
    const stored = await persistence.open('s-7');
    expect(
      stored.session.view
        .slice(Note)
        .all()
        .map((note) => note.text),
    ).toEqual(['first']);

    const writers = ['a', 'b', 'c'].map((text) =>
      commitWithRetry(persistence, 's-7', (durable) => {
        durable.session.slice(Note).append(new Note(text));
      }),
    );
    await Promise.all(writers);
    const final = await persistence.open('s-7');
    expect(final.version).toBe(4);
    expect(
      [
        ...final.session.view
          .slice(Note)
          .all()
          .map((note) => note.text),
      ].sort(),
    ).toEqual(['a', 'b', 'c', 'first']);
  });

  it('gives up after the attempts it was given, saying how many', async () => {
    const store = new InMemorySessionStore();
    const persistence = persistenceOn(store);
    const error = await catchRejection(SessionConflictError, () =>
      commitWithRetry(
        persistence,
        's-8',
        async (durable) => {
          // Another writer commits between every load and commit.
          const rival = await persistence.open('s-8');
          rival.session.slice(Note).append(new Note('rival'));
          await rival.commit();
          durable.session.slice(Note).append(new Note('mine'));
        },
        { attempts: 3 },
      ),
    );
    expect(error.attempts).toBe(3);
    expect(error.message).toContain('on each of 3 attempts');
  });

  it('reads any JSON a damaged store returns as a value or a ConfigurationError, never another error', () => {
    const codec = new SessionCodec({ classes: [Holder, Note] });
    const where = { sessionId: 's', slice: 'Holder', index: 0 };
    const marks = [
      '$undefined',
      '$date',
      '$object',
      '$bare',
      '$map',
      '$set',
      '$class',
      '$number',
      '$other',
    ];
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), tie('tagged')),
      tagged: fc
        .record({ mark: fc.constantFrom(...marks), inner: tie('value'), extra: tie('value') })
        .map(({ mark, inner, extra }) => ({ [mark]: inner, fields: extra, value: extra })),
    })).value;
    fc.assert(
      fc.property(json, (stored) => {
        try {
          codec.decode(stored as never, where);
        } catch (error) {
          expect(ConfigurationError.is(error)).toBe(true);
          expect((error as Error).message).toMatch(/^Session s, slice Holder, value 0/);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips generated values through JSON text', () => {
    const codec = new SessionCodec({ classes: [Holder, Note] });
    const where = { sessionId: 's', slice: 'Holder', index: 0 };
    const leaf = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.date({ noInvalidDate: true }),
      fc.string().map((text) => new Note(text)),
    );
    const value = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small' },
        leaf,
        tie('array'),
        tie('object'),
        tie('map'),
        tie('set'),
      ),
      array: fc.array(tie('tree'), { maxLength: 4 }),
      object: fc.dictionary(
        fc.oneof(fc.string(), fc.constant('$class'), fc.constant('__proto__')),
        tie('tree'),
        { maxKeys: 4 },
      ),
      map: fc
        .array(fc.tuple(fc.string(), tie('tree')), { maxLength: 3 })
        .map((pairs) => new Map(pairs)),
      set: fc.array(fc.string(), { maxLength: 3 }).map((items) => new Set(items)),
    })).tree;
    fc.assert(
      fc.property(value, (generated) => {
        const text = JSON.stringify(codec.encode(new Holder(generated), where));
        const back = codec.decode(JSON.parse(text) as never, where) as Holder;
        expect(back).toBeInstanceOf(Holder);
        expect(back.value).toStrictEqual(generated);
      }),
      { numRuns: 300 },
    );
  });
});

/** A slice class holding any value, for the refusal and property tests. */
class Holder {
  constructor(readonly value: unknown) {}
}

/** A class whose state is private. */
class Secret {
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  reveal(): string {
    return this.#text;
  }
}
