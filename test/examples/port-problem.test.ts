import { createServer, type Server } from 'node:net';

import { portProblem } from '../../examples/shared/port-problem.js';

/** What the serving examples (`example:nest`, `example:chat`) say before they start when `PORT` cannot be used. */
describe('examples/shared/port-problem', () => {
  let busy: Server | undefined;

  afterEach(async () => {
    const server = busy;
    busy = undefined;
    if (server !== undefined) await new Promise((resolve) => server.close(resolve));
  });

  it('should name a port in use and the fix, in one line', async () => {
    const server = createServer();
    busy = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };

    const problem = await portProblem(String(port));
    expect(problem).toBe(
      `Port ${port} of 127.0.0.1 is in use. Fix: stop what listens there, or set PORT to another port (unset: a free one).`,
    );
  });

  it('should accept a free port, 0 and no PORT at all', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));

    expect(await portProblem(String(port))).toBeUndefined();
    expect(await portProblem('0')).toBeUndefined();
    expect(await portProblem(undefined)).toBeUndefined();
  });

  it('should refuse a PORT that is not a port number', async () => {
    expect(await portProblem('http')).toContain('PORT=http is not a port number. Fix: ');
    expect(await portProblem('70000')).toContain('is not a port number');
  });
});
