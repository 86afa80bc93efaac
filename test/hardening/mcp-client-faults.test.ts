/**
 * A client's fault never takes an MCP endpoint down, and never makes it hold
 * what the client sends: `McpHttpHandler.handle` resolves whatever the client
 * does to the connection (docs/guide/mcp.md), and a request
 * body is capped before it is buffered, at the limit the MCP SDK applies
 * inside a session.
 */
import {
  clientOf,
  closeEndpoints,
  initializeBody,
  post,
  POST_HEADERS,
  raw,
  startEndpoint,
  statusOf,
} from './mcp-endpoint.js';

afterEach(closeEndpoints);

/** The head of a POST to /mcp on `port`, with `extra` header lines. */
function postHead(port: number, extra: readonly string[]): string[] {
  return [
    'POST /mcp HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    ...Object.entries(POST_HEADERS).map(([name, value]) => `${name}: ${value}`),
    ...extra,
  ];
}

describe('An MCP endpoint whose client drops the connection', () => {
  it('resolves handle() for a session-less POST cut off mid-body, and keeps serving', async () => {
    const endpoint = await startEndpoint();
    const { socket } = await raw(
      endpoint,
      postHead(endpoint.port, ['x-probe: cut', 'Content-Length: 1000']),
      '{"jsonrpc":',
    );
    const handled = await endpoint.probe('cut');
    socket.destroy();

    expect(await handled.settled).toBe('resolved');
    const client = await clientOf(endpoint);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'hold']);
  });

  it('resolves handle() for a POST of an open session cut off mid-body', async () => {
    const endpoint = await startEndpoint();
    const client = await clientOf(endpoint);
    const session = (client.transport as { sessionId?: string }).sessionId ?? '';
    const { socket } = await raw(
      endpoint,
      postHead(endpoint.port, [
        'x-probe: cut',
        `mcp-session-id: ${session}`,
        'Content-Length: 1000',
      ]),
      '{"jsonrpc":',
    );
    const handled = await endpoint.probe('cut');
    socket.destroy();

    expect(await handled.settled).toBe('resolved');
    expect((await client.callTool({ name: 'echo', arguments: {} })).isError).toBe(false);
  });

  it('resolves handle() when the client is gone before its call answers', async () => {
    const endpoint = await startEndpoint();
    const client = await clientOf(endpoint);
    const session = (client.transport as { sessionId?: string }).sessionId ?? '';
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'hold', arguments: {} },
    });
    const { socket } = await raw(
      endpoint,
      postHead(endpoint.port, [
        'x-probe: gone',
        `mcp-session-id: ${session}`,
        `Content-Length: ${Buffer.byteLength(call)}`,
      ]),
      call,
    );
    const handled = await endpoint.probe('gone');
    await endpoint.held.started.promise;
    socket.destroy();
    await new Promise((resolve) => handled.req.socket.once('close', resolve));
    endpoint.held.release.resolve();

    expect(await handled.settled).toBe('resolved');
    expect((await client.callTool({ name: 'echo', arguments: {} })).isError).toBe(false);
  });
});

describe('An MCP request body', () => {
  it('is refused with 413 before it is read when its Content-Length is over 4 MiB', async () => {
    const endpoint = await startEndpoint();
    const { socket, received } = await raw(
      endpoint,
      postHead(endpoint.port, ['x-probe: huge', `Content-Length: ${64 * 1024 * 1024}`]),
      '{"jsonrpc":',
    );
    // The client gives up sending; only an answer sent at once, from the headers, reaches it.
    socket.end();
    const text = await received;

    expect(statusOf(text)).toBe(413);
    expect(text).toContain('an MCP request body must be at most 4194304 bytes');
    expect(await (await endpoint.probe('huge')).settled).toBe('resolved');
    expect(endpoint.built()).toBe(0);
  });

  it('is refused with 413 once more than 4 MiB of a body without a length arrived, opening no session', async () => {
    const endpoint = await startEndpoint();
    const body = Buffer.from(initializeBody('n'.repeat(5 * 1024 * 1024)));
    const chunked = Buffer.concat([
      Buffer.from(`${body.length.toString(16)}\r\n`),
      body,
      Buffer.from('\r\n0\r\n\r\n'),
    ]);
    const { received } = await raw(
      endpoint,
      postHead(endpoint.port, ['Transfer-Encoding: chunked']),
      chunked,
    );

    expect(statusOf(await received)).toBe(413);
    expect(endpoint.handler.openSessions).toBe(0);
    expect(endpoint.built()).toBe(0);
  });

  it('applies a configured limit to a session-less request and inside a session alike', async () => {
    const endpoint = await startEndpoint({ maxBodyBytes: 2048 });
    const client = await clientOf(endpoint);
    const session = (client.transport as { sessionId?: string }).sessionId ?? '';
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'echo', arguments: { padding: 'x'.repeat(4096) } },
    });

    const refused = await post(endpoint, big, { 'mcp-session-id': session });
    const fresh = await post(endpoint, initializeBody('n'.repeat(4096)));

    expect(refused.status).toBe(413);
    expect(fresh.status).toBe(413);
    expect((await client.callTool({ name: 'echo', arguments: {} })).isError).toBe(false);
  });
});
