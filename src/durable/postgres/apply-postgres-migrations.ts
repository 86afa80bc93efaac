import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { checkTablePrefix } from './check-table-prefix.js';
import type { PostgresClient, PostgresPool } from './postgres-pool.js';
import { rollbackQuietly } from './rollback-quietly.js';

/** Options of {@link applyPostgresMigrations}. */
export interface ApplyPostgresMigrationsOptions {
  /** The prefix of every table created (default `affordance_`); give the store the same one. */
  readonly tablePrefix?: string;
}

/** The text every migration file writes where the table prefix goes. */
const tablePrefixPlaceholder = '{{table_prefix}}';

/** The folder of the SQL files: `src/durable/postgres/` and `dist/durable/postgres/` are both three levels down. */
const migrationsFolder = new URL('../../../migrations/postgres/', import.meta.url);

/** The first half of the advisory lock key: "affd". The second half is a hash of the table prefix. */
const lockClass = 0x61666664;

/**
 * Creates or upgrades the tables of `PostgresSessionStore`: runs, in name
 * order, each SQL file of the package's `migrations/postgres/` folder that the
 * `<prefix>migrations` table does not list yet, and records it there. All of it
 * is one transaction under a transaction-level advisory lock, so concurrent
 * callers (several instances starting at once) wait for each other and a
 * failed file leaves nothing applied. Safe to call on every start.
 *
 * @returns the names of the migrations applied now (empty when up to date), e.g. `["0001_sessions"]`.
 */
export async function applyPostgresMigrations(
  pool: PostgresPool,
  options: ApplyPostgresMigrationsOptions = {},
): Promise<string[]> {
  const prefix = checkTablePrefix(
    options.tablePrefix,
    'applyPostgresMigrations option tablePrefix',
  );
  const migrations = await readMigrations();
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1::int, $2::int)', [lockClass, hash(prefix)]);
    const applied = await applyPending(client, prefix, migrations);
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    broken = await rollbackQuietly(client);
    throw error;
  } finally {
    client.release(broken);
  }
}

interface Migration {
  readonly name: string;
  readonly sql: string;
}

async function applyPending(
  client: PostgresClient,
  prefix: string,
  migrations: readonly Migration[],
): Promise<string[]> {
  const table = `${prefix}migrations`;
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${table} (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  const done = new Set(
    (await client.query(`SELECT name FROM ${table}`)).rows.map((row) => row['name']),
  );
  const applied: string[] = [];
  for (const migration of migrations) {
    if (done.has(migration.name)) continue;
    try {
      await client.query(migration.sql.replaceAll(tablePrefixPlaceholder, prefix));
    } catch (error) {
      throw new Error(
        `applyPostgresMigrations: migration ${migration.name} failed with table prefix "${prefix}" (${messageOf(error)}); nothing was applied, the transaction was rolled back. Fix: correct the cause (permissions to create tables, or tables of that prefix made by something else) and run it again.`,
        { cause: error },
      );
    }
    await client.query(`INSERT INTO ${table} (name) VALUES ($1)`, [migration.name]);
    applied.push(migration.name);
  }
  return applied;
}

async function readMigrations(): Promise<Migration[]> {
  let files: string[];
  try {
    files = await readdir(migrationsFolder);
  } catch (error) {
    throw new Error(
      `applyPostgresMigrations: the SQL migrations are missing from ${fileURLToPath(migrationsFolder)} (${messageOf(error)}). Fix: install affordance again; its package ships the migrations/postgres/ folder next to dist/.`,
      { cause: error },
    );
  }
  const names = files.filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file)).sort();
  return Promise.all(
    names.map(async (file) => ({
      name: file.slice(0, -'.sql'.length),
      sql: await readFile(new URL(file, migrationsFolder), 'utf8'),
    })),
  );
}

/** 32-bit FNV-1a of `text`, as a signed int: the advisory lock of one table prefix. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value = Math.imul(value ^ text.charCodeAt(index), 0x01000193);
  }
  return value | 0;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
