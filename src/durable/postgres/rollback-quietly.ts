import type { PostgresClient } from './postgres-pool.js';

/**
 * Ends `client`'s transaction with ROLLBACK. Returns `undefined`, or the error
 * when the connection is broken, so that the caller releases it destroyed.
 */
export async function rollbackQuietly(client: PostgresClient): Promise<Error | undefined> {
  try {
    await client.query('ROLLBACK');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
