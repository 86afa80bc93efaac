import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

import { Redis } from 'ioredis';

import { freePort, spawnLogged, stopAndClean, waitUntilReady } from './server-process.js';

/** A redis-server of this test file's own, on 127.0.0.1. */
export interface RedisServer {
  /** Always `127.0.0.1`. */
  readonly host: string;
  /** The port it listens on. */
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** In cluster mode, the port of the cluster bus (CLUSTER MEET needs it); otherwise `undefined`. */
  readonly busPort: number | undefined;
  /** Stops the server (SIGTERM; it saves nothing) and removes its folder. */
  stop(): Promise<void>;
}

/** A Redis Cluster of several redis-server nodes on 127.0.0.1, the slots split evenly. */
export interface RedisCluster {
  /** Where each node listens: give them all to ioredis's `Cluster`. */
  readonly nodes: readonly { readonly host: string; readonly port: number }[];
  /** Stops every node and removes their folders. */
  stop(): Promise<void>;
}

/** The path of `redis-server` on PATH, or `undefined`. */
export function redisServerBinary(): string | undefined {
  const folders = (process.env['PATH'] ?? '').split(delimiter).filter((folder) => folder !== '');
  return folders.map((folder) => join(folder, 'redis-server')).find((path) => existsSync(path));
}

/**
 * Starts `redis-server --save '' --appendonly no` on a free port of
 * 127.0.0.1 with a new temporary folder, and waits until it answers PING.
 * With `cluster`, the node runs in cluster mode (no slots yet).
 */
export async function startRedis(
  options: { readonly cluster?: boolean } = {},
): Promise<RedisServer> {
  const binary = redisServerBinary();
  if (binary === undefined) {
    throw new Error(
      'redis-server is not installed (not found on PATH). Fix: apt-get install redis-server',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'affordance-redis-'));
  let child: ChildProcess | undefined;
  try {
    const port = await freePort();
    const args = [
      '--save',
      '',
      '--appendonly',
      'no',
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
    ];
    // The cluster bus defaults to port + 10000, which may not exist: give it a free port too.
    const busPort = options.cluster === true ? await freePort() : undefined;
    if (busPort !== undefined) {
      const config = join(dir, 'nodes.conf');
      args.push(
        '--cluster-enabled',
        'yes',
        '--cluster-port',
        String(busPort),
        '--cluster-config-file',
        config,
      );
    }
    const log = join(dir, 'server.log');
    child = spawnLogged(binary, args, log, undefined);
    await waitUntilReady(child, () => answersPing(port), {
      name: 'redis-server',
      logFile: log,
      timeoutMs: 15_000,
    });
    const server = child;
    const url = `redis://127.0.0.1:${port}`;
    const stop = () => stopAndClean(server, ['SIGTERM', 'SIGKILL'], dir);
    return { host: '127.0.0.1', port, url, busPort, stop };
  } catch (error) {
    await (child === undefined
      ? rm(dir, { recursive: true, force: true })
      : stopAndClean(child, ['SIGKILL'], dir));
    throw error;
  }
}

/**
 * Starts `size` cluster-mode nodes, introduces them to each other, gives each
 * an equal range of the 16384 slots and waits until every node reports
 * `cluster_state:ok`.
 */
export async function startRedisCluster(size = 2): Promise<RedisCluster> {
  const nodes: RedisServer[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(nodes.map((node) => node.stop()));
  };
  try {
    for (let index = 0; index < size; index++) nodes.push(await startRedis({ cluster: true }));
    const slots = Math.ceil(16384 / size);
    await Promise.all(
      nodes.map((node, index) =>
        withClient(node.port, async (client) => {
          for (const other of nodes) {
            if (other === node) continue;
            await client.call(
              'CLUSTER',
              'MEET',
              other.host,
              String(other.port),
              String(other.busPort),
            );
          }
          const last = Math.min(16383, (index + 1) * slots - 1);
          await client.call('CLUSTER', 'ADDSLOTSRANGE', String(index * slots), String(last));
        }),
      ),
    );
    await waitForClusterOk(nodes);
    return { nodes: nodes.map(({ host, port }) => ({ host, port })), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitForClusterOk(nodes: readonly RedisServer[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  let states: unknown[] = [];
  while (Date.now() < deadline) {
    states = await Promise.all(
      nodes.map((node) => withClient(node.port, (client) => client.call('CLUSTER', 'INFO'))),
    );
    if (states.every((info) => String(info).includes('cluster_state:ok'))) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const views = await Promise.all(
    nodes.map((node) => withClient(node.port, (client) => client.call('CLUSTER', 'NODES'))),
  );
  throw new Error(
    `the Redis Cluster did not reach cluster_state:ok within 20 s:\n${views.map(String).join('\n')}\n${states.map(String).join('\n')}`,
  );
}

async function answersPing(port: number): Promise<boolean> {
  try {
    await withClient(port, (client) => client.ping());
    return true;
  } catch {
    return false;
  }
}

async function withClient<T>(port: number, use: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await use(client);
  } finally {
    client.disconnect();
  }
}
