import { readdirSync } from 'node:fs';

import pg from 'pg';

import { ConfigurationError } from 'affordance';
import {
  PostgresSessionStore,
  applyPostgresMigrations,
  type PostgresPool,
  type PostgresPreparedQuery,
} from 'affordance/durable';

// The command's logic (the command itself is `affordance-migrate`, not an export).
import { runMigrateCli } from '../../src/durable/postgres/run-migrate-cli.js';
import { change, log, state } from '../durable/session-change.js';
import { sessionStoreContract } from '../durable/session-store-contract.js';
import { catchError, catchRejection } from '../support/catch-error.js';
import { startPostgres, type PostgresServer } from '../support/servers/postgres-server.js';
import { describeWithPostgres } from '../support/servers/describe-with-servers.js';

/** The migrations the package ships, by name. */
const shipped = readdirSync(new URL('../../migrations/postgres/', import.meta.url))
  .filter((file) => file.endsWith('.sql'))
  .map((file) => file.slice(0, -'.sql'.length))
  .sort();

describeWithPostgres('PostgresSessionStore on a real PostgreSQL', () => {
  let server: PostgresServer | undefined;
  let pool: pg.Pool | undefined;
  let namespaces = 0;
  const database = (): pg.Pool => pool ?? notStarted('PostgreSQL did not start');

  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url, max: 10 });
  }, 60_000);

  afterAll(async () => {
    await pool?.end();
    await server?.stop();
  }, 30_000);

  sessionStoreContract('the SessionStore contract', async () => {
    const tablePrefix = `contract_${++namespaces}_`;
    await applyPostgresMigrations(database(), { tablePrefix });
    return {
      store: new PostgresSessionStore({ pool: database(), tablePrefix }),
      close: () => Promise.resolve(),
    };
  });

  sessionStoreContract(
    'the SessionStore contract, unprepared, through a pool that takes only text',
    async () => {
      const tablePrefix = `contract_${++namespaces}_`;
      await applyPostgresMigrations(database(), { tablePrefix });
      const textOnly = {
        query: (text: unknown, values?: readonly unknown[]) => {
          if (typeof text !== 'string') throw new TypeError('this pool takes only text');
          return database().query(text, values as unknown[]);
        },
        connect: () => database().connect(),
      };
      return {
        store: new PostgresSessionStore({ pool: textOnly, tablePrefix, prepare: false }),
        close: () => Promise.resolve(),
      };
    },
  );

  it('commits in one statement, prepared once per connection under a name of its table prefix', async () => {
    const tablePrefix = 'prepared_';
    await applyPostgresMigrations(database(), { tablePrefix });
    const sent: { name: string | undefined; text: string }[] = [];
    const recording: PostgresPool = {
      query: (query: string | PostgresPreparedQuery, values?: readonly unknown[]) => {
        if (typeof query === 'string') {
          sent.push({ name: undefined, text: query });
          return database().query(query, [...(values ?? [])]);
        }
        sent.push({ name: query.name, text: query.text });
        return database().query({ name: query.name, text: query.text, values: [...query.values] });
      },
      connect: () => Promise.reject(new Error('a commit needs no connection of its own')),
    };
    const store = new PostgresSessionStore({ pool: recording, tablePrefix });
    expect(await store.commit(change('p-1', 0, { append: [log('e', 1)], records: { r: 1 } }))).toBe(
      1,
    );
    expect(await store.commit(change('p-1', 1, { append: [log('e', 2)] }))).toBe(2);
    expect(await store.commit(change('p-1', 2, { append: [log('e', 3)] }))).toBe(3);
    expect((await store.load('p-1'))?.slices).toEqual([
      { name: 'e', policy: 'log', values: [1, 2, 3] },
    ]);
    // One statement per commit and per load, each named; the same change shape reuses its name.
    expect(sent).toHaveLength(4);
    expect(sent.every((query) => query.name?.startsWith('prepared_') === true)).toBe(true);
    expect(sent[1]?.name).toBe(sent[2]?.name);
    expect(sent[0]?.name).not.toBe(sent[1]?.name);
    expect(sent.filter((query) => /^\s*(BEGIN|COMMIT)/i.test(query.text))).toEqual([]);
  });

  it('upserts no slice row for an append to slices it knows exist at the expected version', async () => {
    const tablePrefix = 'known_';
    await applyPostgresMigrations(database(), { tablePrefix });
    const texts: string[] = [];
    const recording: PostgresPool = {
      query: (query: string | PostgresPreparedQuery, values?: readonly unknown[]) => {
        if (typeof query === 'string') return database().query(query, [...(values ?? [])]);
        texts.push(query.text);
        return database().query({ name: query.name, text: query.text, values: [...query.values] });
      },
      connect: () => database().connect(),
    };
    const upserts = (): boolean[] => texts.splice(0).map((text) => text.includes('slices_written'));
    const store = new PostgresSessionStore({ pool: recording, tablePrefix });
    await store.commit(change('k-1', 0, { append: [log('e', 1)] }));
    await store.commit(change('k-1', 1, { append: [log('e', 2)], records: { r: 1 } }));
    await store.commit(change('k-1', 2, { append: [log('f', 3), log('e', 4)] }));
    await store.commit(change('k-1', 3, { append: [state('f', 5)] }));
    await store.commit(change('k-1', 4, { append: [state('f', 6)] }));
    // Created, known, a new slice, a changed policy, known again.
    expect(upserts()).toEqual([true, false, true, true, false]);

    const other = new PostgresSessionStore({ pool: recording, tablePrefix });
    await other.commit(change('k-1', 5, { append: [log('e', 7)] }));
    await other.load('k-1');
    await other.commit(change('k-1', 6, { append: [log('e', 8)] }));
    // Unknown to a new store until it loaded the session (the load's text is not a commit).
    expect(upserts()).toEqual([true, false, false]);
    expect((await store.load('k-1'))?.slices).toEqual([
      { name: 'e', policy: 'log', values: [1, 2, 4, 7, 8] },
      { name: 'f', policy: 'state', values: [3, 5, 6] },
    ]);
  });

  it('writes a known slice row again when the session was deleted and created anew elsewhere', async () => {
    const tablePrefix = 'recreated_';
    await applyPostgresMigrations(database(), { tablePrefix });
    const first = new PostgresSessionStore({ pool: database(), tablePrefix });
    const second = new PostgresSessionStore({ pool: database(), tablePrefix });
    await first.commit(change('r-1', 0, { append: [log('e', 1)] }));
    await second.delete('r-1');
    await second.commit(change('r-1', 0, { append: [log('other', 'x')] }));

    expect(await first.commit(change('r-1', 1, { append: [log('e', 2)] }))).toBe(2);
    expect((await second.load('r-1'))?.slices).toEqual([
      { name: 'other', policy: 'log', values: ['x'] },
      { name: 'e', policy: 'log', values: [2] },
    ]);
  });

  it('refuses a table prefix that is not a plain lower-case identifier, naming the option', async () => {
    for (const tablePrefix of [
      'Affordance_',
      'bad-prefix',
      '1st_',
      'x; DROP TABLE y; --',
      'a'.repeat(42),
    ]) {
      const error = catchError(
        ConfigurationError,
        () => new PostgresSessionStore({ pool: database(), tablePrefix }),
      );
      expect(error.subject).toBe('PostgresSessionStore option tablePrefix');
      expect(error.message).toContain(JSON.stringify(tablePrefix));
      expect(error.message).toContain('Fix:');
    }
    const refused = await catchRejection(ConfigurationError, () =>
      applyPostgresMigrations(database(), { tablePrefix: 'Bad' }),
    );
    expect(refused.subject).toBe('applyPostgresMigrations option tablePrefix');
  });

  it('refuses names PostgreSQL text cannot keep exactly (U+0000, a lone surrogate) and writes nothing', async () => {
    await applyPostgresMigrations(database(), { tablePrefix: 'names_' });
    const store = new PostgresSessionStore({ pool: database(), tablePrefix: 'names_' });
    const refusals = [
      change('nul\u0000id', 0),
      change('s-1', 0, { append: [log('slice\ud800', 1)] }),
      change('s-1', 0, { records: { 'key\u0000': 1 } }),
    ];
    for (const refused of refusals) {
      const error = await catchRejection(ConfigurationError, () => store.commit(refused));
      expect(error.message).toContain('contains U+0000 or a lone surrogate');
    }
    await catchRejection(ConfigurationError, () => store.load('lone\udc00'));
    const rows = await database().query('SELECT count(*)::int AS n FROM names_sessions');
    expect(rows.rows[0]).toEqual({ n: 0 });
  });

  it('applies the migrations once: a second run applies nothing, and the default prefix works', async () => {
    expect(shipped).toContain('0001_sessions');
    expect(await applyPostgresMigrations(database())).toEqual(shipped);
    expect(await applyPostgresMigrations(database())).toEqual([]);
    const recorded = await database().query<{ name: string }>(
      'SELECT name FROM affordance_migrations ORDER BY name',
    );
    expect(recorded.rows.map((row) => row.name)).toEqual(shipped);

    const store = new PostgresSessionStore({ pool: database() });
    await store.commit(change('default-prefix', 0, { append: [log('e', 'stored')] }));
    const stored = await database().query(
      'SELECT count(*)::int AS n FROM affordance_session_values',
    );
    expect(stored.rows[0]).toEqual({ n: 1 });
  });

  it('applies the migrations of one prefix once when several processes start together', async () => {
    const runs = await Promise.all(
      Array.from({ length: 4 }, () =>
        applyPostgresMigrations(database(), { tablePrefix: 'together_' }),
      ),
    );
    expect(runs.flat()).toEqual(shipped);
  });

  it('migrates a real server from the CLI, with --url or DATABASE_URL, and says what it applied', async () => {
    const url = server?.url ?? notStarted('PostgreSQL did not start');
    const first = await runCli(['postgres', '--url', url, '--table-prefix', 'cli_'], {});
    expect(first).toMatchObject({ code: 0, err: [] });
    expect(first.out.join('\n')).toContain(`applied ${shipped.join(', ')}`);
    const again = await runCli(['postgres', '--table-prefix=cli_'], { DATABASE_URL: url });
    expect(again).toMatchObject({ code: 0, err: [] });
    expect(again.out.join('\n')).toContain('nothing applied');

    const store = new PostgresSessionStore({ pool: database(), tablePrefix: 'cli_' });
    await store.commit(change('via-cli', 0, { append: [log('e', 1)] }));
    expect((await store.load('via-cli'))?.version).toBe(1);
  });

  it('rejects bad CLI arguments with a message naming the flag and the fix', async () => {
    const missing = await runCli(['postgres'], {});
    expect(missing.code).toBe(2);
    expect(missing.err.join('\n')).toMatch(
      /^affordance-migrate --url: no connection string .* Fix: pass --url/s,
    );

    const unknown = await runCli(['postgres', '--url', 'postgres://x', '--schema', 's'], {});
    expect(unknown.code).toBe(2);
    expect(unknown.err.join('\n')).toContain(
      'affordance-migrate --schema: "--schema" is not an option',
    );

    const empty = await runCli(['postgres', '--url'], {});
    expect(empty.err.join('\n')).toContain(
      'affordance-migrate --url: the option has no value. Fix:',
    );

    const prefix = await runCli(
      ['postgres', '--url', 'postgres://x', '--table-prefix', 'Nope'],
      {},
    );
    expect(prefix.code).toBe(2);
    expect(prefix.err.join('\n')).toContain(
      'affordance-migrate --table-prefix: "Nope" is not a usable table prefix',
    );

    const kind = await runCli(['mysql'], {});
    expect(kind.err.join('\n')).toContain('unknown database kind "mysql"');
  });

  it('reports a server it cannot reach with exit code 1', async () => {
    const unreachable = await runCli(
      ['postgres', '--url', 'postgres://nobody:secret@127.0.0.1:1/none'],
      {},
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.err.join('\n')).toContain(
      'migrating postgres://nobody:***@127.0.0.1:1/none failed',
    );
    expect(unreachable.err.join('\n')).not.toContain('secret');
  });
});

async function runCli(args: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runMigrateCli(args, {
    env,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out, err };
}

/** Fails the test when `beforeAll` could not start the server. */
function notStarted(what: string): never {
  throw new Error(`${what}; see the error of beforeAll`);
}
