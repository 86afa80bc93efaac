/**
 * The jest side of the real servers: suites that run only where the binaries
 * are installed (kept apart so benchmarks can start servers without jest).
 */
import { postgresBinDir } from './postgres-server.js';
import { redisServerBinary } from './redis-server.js';

/**
 * `describe` when the server's binaries are installed; otherwise, outside CI,
 * `describe.skip` after one loud warning naming the Debian packages to
 * install. In CI (`CI=true`) missing binaries are never skipped: the tests run
 * and fail in `beforeAll` with the same advice.
 */
export function describeWhenInstalled(server: string, present: boolean): typeof describe {
  if (present || process.env['CI'] === 'true') return describe;
  console.warn(
    [
      '',
      '!'.repeat(78),
      `!! SKIPPED: the ${server} tests need a real ${server} server, and its binaries are not installed.`,
      '!! Install them with:  sudo apt-get install postgresql redis-server',
      '!! (In CI, with CI=true, these tests fail instead of skipping.)',
      '!'.repeat(78),
    ].join('\n'),
  );
  return describe.skip;
}

/** `describe` when PostgreSQL is installed (see {@link describeWhenInstalled}). */
export const describeWithPostgres = describeWhenInstalled(
  'PostgreSQL',
  postgresBinDir() !== undefined,
);

/** `describe` when redis-server is installed (see {@link describeWhenInstalled}). */
export const describeWithRedis = describeWhenInstalled('Redis', redisServerBinary() !== undefined);
