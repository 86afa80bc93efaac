import type { ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import pg from 'pg';

import {
  freePort,
  runToEnd,
  spawnLogged,
  stopAndClean,
  waitUntilReady,
  type RunAs,
} from './server-process.js';

/** A PostgreSQL server of this test file's own, on 127.0.0.1. */
export interface PostgresServer {
  /** `postgres://affordance@127.0.0.1:<port>/postgres` (trust authentication, no password). */
  readonly url: string;
  /** Stops the server (smart shutdown, then harder ones if it lingers) and removes its data directory. */
  stop(): Promise<void>;
}

const debianRoot = '/usr/lib/postgresql';

/** The `bin` folder of the newest PostgreSQL installed by the Debian package, or `undefined`. */
export function postgresBinDir(): string | undefined {
  if (!existsSync(debianRoot)) return undefined;
  const versions = readdirSync(debianRoot)
    .filter((version) =>
      ['initdb', 'postgres'].every((tool) => existsSync(join(debianRoot, version, 'bin', tool))),
    )
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(debianRoot, versions[0], 'bin');
}

/**
 * Starts a fresh PostgreSQL: `initdb` in a new temporary folder, then
 * `postgres` on a free port of 127.0.0.1 (fsync off: the data is thrown
 * away), and waits until it accepts connections. PostgreSQL refuses to run as
 * root, so as root both run as the `postgres` user the Debian package creates.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  if (bin === undefined) {
    throw new Error(
      `PostgreSQL is not installed (no ${debianRoot}/<version>/bin/postgres). Fix: apt-get install postgresql`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'affordance-pg-'));
  let child: ChildProcess | undefined;
  try {
    const runAs = postgresUser();
    if (runAs !== undefined) chownSync(dir, runAs.uid, runAs.gid);
    const data = join(dir, 'data');
    const log = join(dir, 'server.log');
    const initdb = [
      '-D',
      data,
      '-U',
      'affordance',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-locale',
      '--no-sync',
    ];
    await runToEnd(join(bin, 'initdb'), initdb, log, runAs);
    const port = await freePort();
    const settings = [
      'listen_addresses=127.0.0.1',
      'fsync=off',
      'synchronous_commit=off',
      'full_page_writes=off',
    ];
    const args = [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      ...settings.flatMap((setting) => ['-c', setting]),
    ];
    child = spawnLogged(join(bin, 'postgres'), args, log, runAs);
    const url = `postgres://affordance@127.0.0.1:${port}/postgres`;
    await waitUntilReady(child, () => accepts(url), {
      name: 'PostgreSQL',
      logFile: log,
      timeoutMs: 30_000,
    });
    const server = child;
    // Smart shutdown first (SIGTERM): it waits for connections a pool is still closing, so none
    // is cut with "terminating connection due to administrator command". Then fast, immediate, kill.
    const signals = ['SIGTERM', 'SIGINT', 'SIGQUIT', 'SIGKILL'] as const;
    return { url, stop: () => stopAndClean(server, signals, dir) };
  } catch (error) {
    await (child === undefined
      ? rm(dir, { recursive: true, force: true })
      : stopAndClean(child, ['SIGKILL'], dir));
    throw error;
  }
}

async function accepts(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** As root, the `postgres` user (from /etc/passwd); otherwise `undefined` (run as this user). */
function postgresUser(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) {
    throw new Error(
      'Running as root, PostgreSQL needs the postgres user, which does not exist. Fix: apt-get install postgresql (it creates the user), or run the tests as another user.',
    );
  }
  return { uid: Number(uid), gid: Number(gid) };
}
