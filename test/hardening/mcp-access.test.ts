/**
 * Who may reach an MCP endpoint, and how much of it: Host and Origin are
 * loopback by default (DNS rebinding protection, as the MCP transport
 * specification asks), an `authorize` hook runs before any session work and
 * for every request of a session, sessions are capped, and a request refused
 * for any of these builds no SDK server (docs/guide/mcp.md).
 */
import {
  clientOf,
  closeEndpoints,
  type Endpoint,
  initializeBody,
  post,
  startEndpoint,
} from './mcp-endpoint.js';

afterEach(closeEndpoints);

const sessionOf = (answer: { headers: Record<string, unknown> }): string =>
  String(answer.headers['mcp-session-id']);

/** Opens `count` sessions with raw initialize requests; resolves with their ids. */
async function openSessions(endpoint: Endpoint, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const answer = await post(endpoint, initializeBody(`client-${index}`));
    expect(answer.status).toBe(200);
    ids.push(sessionOf(answer));
  }
  return ids;
}

describe('The Host and Origin an MCP endpoint accepts', () => {
  it('refuses a foreign Host by default, before building any SDK server', async () => {
    const endpoint = await startEndpoint();

    const answer = await post(endpoint, initializeBody(), { host: 'evil.example' });

    expect(answer.status).toBe(403);
    expect(answer.text).toContain("Host 'evil.example' is not allowed");
    expect(endpoint.built()).toBe(0);
    expect(endpoint.handler.openSessions).toBe(0);
  });

  it('accepts the loopback names on any port, and a foreign host only when told to', async () => {
    const loopback = await startEndpoint();
    const any = await startEndpoint({ allowedHosts: 'any' });
    const named = await startEndpoint({ allowedHosts: ['mcp.example.com'] });

    const hosts = ['localhost:1234', '127.0.0.1', '[::1]:8080', 'LOCALHOST'];
    const statuses = [];
    for (const host of hosts)
      statuses.push((await post(loopback, initializeBody(), { host })).status);

    expect(statuses).toEqual([200, 200, 200, 200]);
    expect((await post(any, initializeBody(), { host: 'evil.example' })).status).toBe(200);
    expect((await post(named, initializeBody(), { host: 'mcp.example.com:8443' })).status).toBe(
      200,
    );
    expect((await post(named, initializeBody(), { host: 'localhost' })).status).toBe(403);
  });

  it('refuses a foreign Origin, accepts a loopback one or none, and a listed one when told to', async () => {
    const endpoint = await startEndpoint();
    const app = await startEndpoint({ allowedOrigins: ['https://app.example.com'] });

    const foreign = await post(endpoint, initializeBody(), { origin: 'https://evil.example' });
    const opaque = await post(endpoint, initializeBody(), { origin: 'null' });
    const local = await post(endpoint, initializeBody(), { origin: 'http://localhost:5173' });
    const none = await post(endpoint, initializeBody());

    expect(foreign.status).toBe(403);
    expect(foreign.text).toContain("Origin 'https://evil.example' is not allowed");
    expect(opaque.status).toBe(403);
    expect([local.status, none.status]).toEqual([200, 200]);
    expect(endpoint.built()).toBe(2);
    expect((await post(app, initializeBody(), { origin: 'https://app.example.com' })).status).toBe(
      200,
    );
    expect((await post(app, initializeBody(), { origin: 'http://localhost' })).status).toBe(403);
  });

  it('checks Host and Origin on every request of an open session too', async () => {
    const endpoint = await startEndpoint();
    const [session = ''] = await openSessions(endpoint, 1);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

    const rebound = await post(endpoint, list, { 'mcp-session-id': session, host: 'evil.example' });
    const framed = await post(endpoint, list, {
      'mcp-session-id': session,
      origin: 'https://evil.example',
    });

    expect([rebound.status, framed.status]).toEqual([403, 403]);
  });
});

describe('Requests an MCP endpoint refuses before any session work', () => {
  it('refuses a body that is not JSON by its Content-Type, building no SDK server', async () => {
    const endpoint = await startEndpoint();

    const answer = await post(endpoint, initializeBody(), { 'content-type': 'text/plain' });

    expect(answer.status).toBe(415);
    expect(endpoint.built()).toBe(0);
  });

  it('runs authorize before any session work and for every request of a session', async () => {
    let revoked = false;
    const seen: (string | undefined)[] = [];
    const endpoint = await startEndpoint({
      authorize: (req) => {
        seen.push(req.headers['mcp-session-id'] as string | undefined);
        if (req.headers.authorization !== 'Bearer s3cret' || revoked) {
          return {
            status: 401,
            message: 'Log in first.',
            headers: { 'www-authenticate': 'Bearer' },
          };
        }
        return true;
      },
    });

    const stranger = await post(endpoint, initializeBody());
    expect(stranger.status).toBe(401);
    expect(stranger.headers['www-authenticate']).toBe('Bearer');
    expect(stranger.text).toContain('Log in first.');
    expect(endpoint.built()).toBe(0);

    const client = await clientOf(endpoint, { authorization: 'Bearer s3cret' });
    const session = (client.transport as { sessionId?: string }).sessionId;
    expect((await client.listTools()).tools).toHaveLength(2);
    expect(seen.filter((id) => id === session).length).toBeGreaterThanOrEqual(2);

    revoked = true;
    await expect(client.listTools()).rejects.toThrow(/Log in first/);
  });

  it('answers 500 when authorize throws, and rejects handle() with the error for the application to log', async () => {
    const endpoint = await startEndpoint({
      authorize: () => {
        throw new Error('the token store is down');
      },
    });

    const answer = await post(endpoint, initializeBody(), { 'x-probe': 'broken' });

    expect(answer.status).toBe(500);
    expect(answer.text).not.toContain('token store');
    expect(await (await endpoint.probe('broken')).settled).toBe('the token store is down');
    expect(endpoint.built()).toBe(0);
  });

  it('answers 401 when authorize says false', async () => {
    const endpoint = await startEndpoint({ authorize: () => Promise.resolve(false) });

    const answer = await post(endpoint, initializeBody());

    expect(answer.status).toBe(401);
    expect(endpoint.built()).toBe(0);
  });
});

describe('The access options of an MCP endpoint', () => {
  it('refuses a host, an origin or a limit it cannot use, with a Fix', async () => {
    await expect(startEndpoint({ allowedHosts: ['http://mcp.example.com'] })).rejects.toThrow(
      `McpHttpHandler: allowedHosts has an entry that is not a host name with an optional port: "http://mcp.example.com". Fix: Pass e.g. \`allowedHosts: ['localhost', 'mcp.example.com:8443']\`.`,
    );
    await expect(startEndpoint({ allowedOrigins: ['app.example.com'] })).rejects.toThrow(
      'McpHttpHandler: allowedOrigins has an entry that is not an origin (scheme://host with an optional port)',
    );
    await expect(startEndpoint({ maxSessions: 0 })).rejects.toThrow(
      'McpHttpHandler: maxSessions must be a positive whole number, got 0. Fix: Pass e.g. `maxSessions: 500`',
    );
    await expect(startEndpoint({ maxBodyBytes: Number.NaN })).rejects.toThrow(
      'McpHttpHandler: maxBodyBytes must be a positive whole number, got NaN.',
    );
  });
});

describe('The sessions an MCP endpoint keeps', () => {
  it('refuses a session beyond maxSessions with 503 until one is closed', async () => {
    const endpoint = await startEndpoint({ maxSessions: 2 });
    const [first = ''] = await openSessions(endpoint, 2);

    const third = await post(endpoint, initializeBody('third'));
    expect(third.status).toBe(503);
    expect(third.headers['retry-after']).toBeDefined();
    expect(endpoint.handler.openSessions).toBe(2);
    expect(endpoint.built()).toBe(2);

    expect((await post(endpoint, '', { 'mcp-session-id': first }, 'DELETE')).status).toBe(200);
    expect((await post(endpoint, initializeBody('fourth'))).status).toBe(200);
  });

  it('keeps at most 100 sessions by default', async () => {
    const endpoint = await startEndpoint();
    await openSessions(endpoint, 100);

    expect((await post(endpoint, initializeBody('one too many'))).status).toBe(503);
    expect(endpoint.handler.openSessions).toBe(100);
  });
});

describe('An unknown tool asked of an MCP server', () => {
  it('is quoted back cut at 100 characters, like every quoted model text', async () => {
    const endpoint = await startEndpoint();
    const client = await clientOf(endpoint);

    const error = await client.callTool({ name: 'n'.repeat(100_000), arguments: {} }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );

    expect((error as { code?: unknown }).code).toBe(-32602);
    expect((error as Error).message).toBe(
      `MCP error -32602: Unknown tool '${'n'.repeat(100)}… [99900 more characters cut]'. The tools of this server are: echo, hold.`,
    );
  });
});
