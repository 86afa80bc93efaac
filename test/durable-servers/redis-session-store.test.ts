import { Cluster, Redis } from 'ioredis';

import { ConfigurationError, SessionConflictError } from 'affordance';
import { RedisSessionStore } from 'affordance/durable';
import { change, log, state } from '../durable/session-change.js';
import { sessionStoreContract } from '../durable/session-store-contract.js';
import { catchError, catchRejection } from '../support/catch-error.js';
import {
  startRedis,
  startRedisCluster,
  type RedisCluster,
  type RedisServer,
} from '../support/servers/redis-server.js';
import { describeWithRedis } from '../support/servers/describe-with-servers.js';

describeWithRedis('RedisSessionStore on a real redis-server', () => {
  let server: RedisServer | undefined;
  let client: Redis | undefined;
  let namespaces = 0;
  const redis = (): Redis => client ?? notStarted('redis-server did not start');

  beforeAll(async () => {
    server = await startRedis();
    client = new Redis(server.url);
  }, 30_000);

  afterAll(async () => {
    await client?.quit();
    await server?.stop();
  }, 30_000);

  sessionStoreContract('the SessionStore contract', () =>
    Promise.resolve({
      store: new RedisSessionStore({ client: redis(), keyPrefix: `contract:${++namespaces}:` }),
      close: () => Promise.resolve(),
    }),
  );

  sessionStoreContract('the SessionStore contract, through a client without evalsha', () => {
    const plain = redis();
    // Only `eval`: the store sends each script's text, as before it knew `evalsha`.
    const evalOnly = { eval: plain.eval.bind(plain) };
    return Promise.resolve({
      store: new RedisSessionStore({ client: evalOnly, keyPrefix: `contract:${++namespaces}:` }),
      close: () => Promise.resolve(),
    });
  });

  it('sends a script by its SHA-1 once the server knows it, and its text again after SCRIPT FLUSH', async () => {
    const plain = redis();
    const sent: string[] = [];
    const counting = {
      eval: (script: string, numKeys: number, ...args: (string | number)[]) => {
        sent.push('eval');
        return plain.eval(script, numKeys, ...args);
      },
      evalsha: (sha1: string, numKeys: number, ...args: (string | number)[]) => {
        sent.push('evalsha');
        return plain.evalsha(sha1, numKeys, ...args);
      },
    };
    const store = new RedisSessionStore({ client: counting, keyPrefix: 'sha:' });
    await plain.script('FLUSH');
    expect(await store.commit(change('s-1', 0, { append: [log('e', 1)] }))).toBe(1);
    expect(sent).toEqual(['evalsha', 'eval']);
    sent.length = 0;
    expect(await store.commit(change('s-1', 1, { append: [log('e', 2)] }))).toBe(2);
    expect(await store.commit(change('s-1', 2, { append: [log('e', 3)] }))).toBe(3);
    expect(sent).toEqual(['evalsha', 'evalsha']);
    sent.length = 0;
    await plain.script('FLUSH');
    expect(await store.commit(change('s-1', 3, { append: [log('e', 4)] }))).toBe(4);
    const loaded = await store.load('s-1');
    expect(loaded?.slices).toEqual([{ name: 'e', policy: 'log', values: [1, 2, 3, 4] }]);
    expect(sent).toEqual(['evalsha', 'eval', 'evalsha', 'eval']);
    await store.delete('s-1');
    expect(await store.load('s-1')).toBeUndefined();
  });

  it('refuses a key prefix that would break the hash tag or is not plain, naming the option', () => {
    for (const keyPrefix of ['tenant{1}:', 'with space:', '', 'x'.repeat(65), 'naïve:']) {
      const error = catchError(
        ConfigurationError,
        () => new RedisSessionStore({ client: redis(), keyPrefix }),
      );
      expect(error.subject).toBe('RedisSessionStore option keyPrefix');
      expect(error.message).toContain(JSON.stringify(keyPrefix));
      expect(error.message).toContain('Fix:');
    }
  });

  it('keeps every key of a session under <prefix>{<sessionId>} and removes them all on delete', async () => {
    const store = new RedisSessionStore({ client: redis(), keyPrefix: 'layout:' });
    await store.commit(
      change('a}b', 0, { append: [log('e', 1), state('s', 2)], records: { r: 3 } }),
    );
    await store.commit(change('a}b', 1, { append: [log('third', 4)], replace: [state('s')] }));
    await store.commit(change('other', 0, { append: [log('e', 'kept')] }));

    const keys = await redis().keys('layout:*');
    const own = keys.filter((key) => key.startsWith('layout:{a}b}:'));
    // meta, records and the lists of e and third (s was emptied, so Redis dropped its list).
    expect(own).toHaveLength(4);
    expect(
      keys.filter((key) => !own.includes(key)).every((key) => key.startsWith('layout:{other}:')),
    ).toBe(true);

    await store.delete('a}b');
    expect((await redis().keys('layout:*')).every((key) => key.startsWith('layout:{other}:'))).toBe(
      true,
    );
    expect((await store.load('other'))?.slices).toEqual([log('e', 'kept')]);
  });

  it('leaves every key byte-for-byte unchanged when a commit conflicts', async () => {
    const store = new RedisSessionStore({ client: redis(), keyPrefix: 'conflict:' });
    await store.commit(
      change('s-1', 0, { append: [log('e', 1)], replace: [state('s', 'x')], records: { r: 1 } }),
    );
    await store.commit(change('s-1', 1, { append: [log('e', 2)] }));
    const before = await dumpAll(redis(), 'conflict:*');

    const stale = change('s-1', 1, {
      append: [log('e', 'lost'), log('brand-new', 'lost')],
      replace: [state('s')],
      records: { r: null, added: 'lost' },
    });
    const error = await catchRejection(SessionConflictError, () => store.commit(stale));
    expect(error).toMatchObject({ expectedVersion: 1, actualVersion: 2 });
    expect(await dumpAll(redis(), 'conflict:*')).toEqual(before);
  });

  it('refuses names Redis cannot keep exactly (a lone surrogate, U+0000) before sending anything', async () => {
    const store = new RedisSessionStore({ client: redis(), keyPrefix: 'names:' });
    for (const refused of [
      change('lone\ud800', 0),
      change('s-1', 0, { records: { 'nul\u0000': 1 } }),
    ]) {
      const error = await catchRejection(ConfigurationError, () => store.commit(refused));
      expect(error.message).toContain('contains U+0000 or a lone surrogate');
    }
    expect(await redis().keys('names:*')).toEqual([]);
  });
});

describeWithRedis('RedisSessionStore on a real two-node Redis Cluster', () => {
  let cluster: RedisCluster | undefined;
  let client: Cluster | undefined;
  let namespaces = 0;
  const redis = (): Cluster => client ?? notStarted('the Redis Cluster did not start');

  beforeAll(async () => {
    cluster = await startRedisCluster(2);
    client = new Cluster([...cluster.nodes]);
  }, 60_000);

  afterAll(async () => {
    await client?.quit();
    await cluster?.stop();
  }, 30_000);

  sessionStoreContract('the SessionStore contract through ioredis Cluster', () =>
    Promise.resolve({
      store: new RedisSessionStore({ client: redis(), keyPrefix: `cluster:${++namespaces}:` }),
      close: () => Promise.resolve(),
    }),
  );

  it('puts each session wholly on one node, and sessions on both nodes', async () => {
    const store = new RedisSessionStore({ client: redis(), keyPrefix: 'spread:' });
    const ids = Array.from({ length: 16 }, (_, index) => `session-${index}`);
    for (const id of ids) {
      await store.commit(
        change(id, 0, { append: [log('e', id), log('f', id)], records: { r: id } }),
      );
    }
    const owners = new Map<string, Set<number>>();
    for (const [index, node] of redis().nodes('master').entries()) {
      for (const key of await node.keys('spread:*')) {
        const id = key.slice('spread:{'.length, key.indexOf('}'));
        owners.set(id, (owners.get(id) ?? new Set()).add(index));
      }
    }
    expect([...owners.keys()].sort()).toEqual([...ids].sort());
    expect([...owners.values()].every((nodes) => nodes.size === 1)).toBe(true);
    expect(new Set([...owners.values()].flatMap((nodes) => [...nodes])).size).toBe(2);
  });
});

/** Every key matching `pattern` with its DUMP, sorted by key. */
async function dumpAll(client: Redis, pattern: string): Promise<[string, string][]> {
  const keys = (await client.keys(pattern)).sort();
  const dumps = await Promise.all(keys.map((key) => client.dumpBuffer(key)));
  return keys.map((key, index) => [key, dumps[index]?.toString('base64') ?? 'missing']);
}

/** Fails the test when `beforeAll` could not start the server. */
function notStarted(what: string): never {
  throw new Error(`${what}; see the error of beforeAll`);
}
