import { ConfigurationError } from '../../index.js';
import { applyPostgresMigrations } from './apply-postgres-migrations.js';
import { checkTablePrefix, defaultTablePrefix } from './check-table-prefix.js';
import type { PostgresPool } from './postgres-pool.js';

/** Where {@link runMigrateCli} reads its environment and writes its output. */
export interface MigrateCliIo {
  /** The environment; `DATABASE_URL` is used when `--url` is not given. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Writes one line of normal output. */
  readonly out: (line: string) => void;
  /** Writes one line of error output. */
  readonly err: (line: string) => void;
}

/** The usage text of `affordance-migrate`. */
const migrateCliUsage = `Usage: affordance-migrate postgres [--url <connection string>] [--table-prefix <prefix>]

Creates or upgrades the tables of PostgresSessionStore. Safe to run on every deploy.
  --url            the PostgreSQL connection string (default: the DATABASE_URL environment variable)
  --table-prefix   the prefix of the tables (default: ${defaultTablePrefix})
Needs the pg package: npm install pg`;

interface MigrateRequest {
  readonly url: string;
  readonly tablePrefix?: string;
}

/**
 * The `affordance-migrate` command: parses `args` (what follows the command
 * name), applies the PostgreSQL migrations with a `pg.Pool` loaded on demand,
 * and reports what it applied. Returns the exit code: 0 done, 1 the database
 * refused or could not be reached, 2 bad arguments or `pg` missing.
 */
export async function runMigrateCli(args: readonly string[], io: MigrateCliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(migrateCliUsage);
    return 0;
  }
  let request: MigrateRequest;
  let pool: PgPool;
  try {
    request = parseMigrateArgs(args, io.env);
    pool = new (await loadPg())({ connectionString: request.url, max: 1 });
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 2;
  }
  const target = redact(request.url);
  const prefix = request.tablePrefix ?? defaultTablePrefix;
  try {
    const applied = await applyPostgresMigrations(pool, { tablePrefix: prefix });
    io.out(
      applied.length === 0
        ? `affordance-migrate: ${target} is up to date (table prefix ${prefix}); nothing applied.`
        : `affordance-migrate: applied ${applied.join(', ')} to ${target} (table prefix ${prefix}).`,
    );
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.err(
      `affordance-migrate: migrating ${target} failed: ${message} Fix: check that the server is reachable with that connection string and that its user may create tables.`,
    );
    return 1;
  } finally {
    await pool.end().catch(() => undefined);
  }
}

/** Reads `postgres --url <url> --table-prefix <prefix>` (also `--flag=value`); throws a `ConfigurationError` naming the bad part. */
function parseMigrateArgs(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): MigrateRequest {
  const [target, ...rest] = args;
  if (target !== 'postgres') {
    throw usageError(
      'affordance-migrate',
      target === undefined
        ? 'no database kind was given.'
        : `unknown database kind ${JSON.stringify(target)}.`,
      'run `affordance-migrate postgres --url <connection string>` (postgres is the only kind).',
    );
  }
  const flags = readFlags(rest);
  const url = flags.get('--url') ?? env['DATABASE_URL'];
  if (url === undefined || url === '') {
    throw usageError(
      'affordance-migrate --url',
      'no connection string was given and DATABASE_URL is not set.',
      'pass --url postgres://user:password@host:5432/database, or set DATABASE_URL.',
    );
  }
  const tablePrefix = flags.get('--table-prefix');
  if (tablePrefix === undefined) return { url };
  return { url, tablePrefix: checkTablePrefix(tablePrefix, 'affordance-migrate --table-prefix') };
}

function readFlags(args: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    const equals = arg.indexOf('=');
    const flag = equals === -1 ? arg : arg.slice(0, equals);
    if (flag !== '--url' && flag !== '--table-prefix') {
      throw usageError(
        `affordance-migrate ${flag}`,
        `${JSON.stringify(arg)} is not an option of affordance-migrate postgres.`,
        'use --url <connection string> and --table-prefix <prefix> only (see --help).',
      );
    }
    const value = equals === -1 ? args[++index] : arg.slice(equals + 1);
    if (value === undefined || value === '' || value.startsWith('--')) {
      throw usageError(
        `affordance-migrate ${flag}`,
        'the option has no value.',
        `write the value after it, e.g. ${flag === '--url' ? '--url postgres://localhost/app' : '--table-prefix myapp_'}.`,
      );
    }
    flags.set(flag, value);
  }
  return flags;
}

function usageError(subject: string, problem: string, fix: string): ConfigurationError {
  return new ConfigurationError({ subject, problem, fix: `${fix}\n\n${migrateCliUsage}` });
}

/** The connection string without its password, for messages. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the database';
  }
}

/** The part of `pg.Pool` the CLI uses. */
interface PgPool extends PostgresPool {
  end(): Promise<void>;
}

type PgPoolClass = new (config: { connectionString: string; max: number }) => PgPool;

/** Loads `pg` only now, so that the package does not depend on it. */
async function loadPg(): Promise<PgPoolClass> {
  const specifier = 'pg';
  let loaded: unknown;
  try {
    loaded = await import(specifier);
  } catch (error) {
    throw new ConfigurationError({
      subject: 'affordance-migrate',
      problem: 'the pg package (node-postgres) could not be loaded.',
      fix: 'install it in your project: npm install pg.',
      cause: error,
    });
  }
  const pgModule = loaded as { default?: { Pool?: unknown }; Pool?: unknown };
  const Pool = pgModule.Pool ?? pgModule.default?.Pool;
  if (typeof Pool !== 'function') {
    throw new ConfigurationError({
      subject: 'affordance-migrate',
      problem: 'the pg package that was loaded has no Pool class.',
      fix: 'install node-postgres 8 or later: npm install pg@8.',
    });
  }
  return Pool as PgPoolClass;
}
