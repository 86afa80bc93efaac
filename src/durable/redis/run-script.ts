import { createHash } from 'node:crypto';

import type { RedisScriptClient } from './redis-script-client.js';

/** A Lua script with its SHA-1, as `EVALSHA` names it. */
export interface RedisScript {
  readonly source: string;
  readonly sha1: string;
}

/** `source` with its SHA-1. */
export function redisScript(source: string): RedisScript {
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
}

/**
 * Runs `script` by its SHA-1 when the client has `evalsha` (the server keeps
 * every script it ran, so the text need not travel with each call), and sends
 * the text with `EVAL` when the server answers that it does not know the
 * script (`NOSCRIPT`: a restarted or flushed server, a new replica) or the
 * client has no `evalsha`. @internal
 */
export async function runScript(
  client: RedisScriptClient,
  script: RedisScript,
  numKeys: number,
  args: readonly (string | number)[],
): Promise<unknown> {
  if (client.evalsha !== undefined) {
    try {
      return await client.evalsha(script.sha1, numKeys, ...args);
    } catch (error) {
      if (!isNoScript(error)) throw error;
    }
  }
  return await client.eval(script.source, numKeys, ...args);
}

function isNoScript(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return message.startsWith('NOSCRIPT');
}
