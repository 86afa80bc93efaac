import { requireServer } from '../shared/require-server.js';

/** The Redis server of the queued mode: `AFFORDANCE_REDIS_URL`, default redis://127.0.0.1:6379. */
export function redisUrlOf(env: NodeJS.ProcessEnv): string {
  return env['AFFORDANCE_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
}

/**
 * Returns when a Redis server answers at {@link redisUrlOf}; otherwise prints
 * one line saying what to start and exits with code 1 (see require-server.ts).
 */
export async function requireRedis(env: NodeJS.ProcessEnv): Promise<void> {
  await requireServer({
    name: 'Redis',
    url: redisUrlOf(env),
    defaultPort: 6379,
    fix: 'start one (`redis-server`; Debian: apt-get install redis-server), or set AFFORDANCE_REDIS_URL to yours',
  });
}
