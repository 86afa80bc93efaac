import { createServer } from 'node:net';

/**
 * What stops an example from listening on `port` of 127.0.0.1 (from `PORT`),
 * as one line that says what to do, or `undefined` when it is free (or 0: a
 * free port is picked). Checked before the example starts its server, whose
 * failure would otherwise be a stack trace.
 */
export async function portProblem(port: string | undefined): Promise<string | undefined> {
  if (port === undefined || port === '') return undefined;
  const number = Number(port);
  if (!Number.isInteger(number) || number < 0 || number > 65_535) {
    return `PORT=${port} is not a port number. Fix: set PORT to a number from 1 to 65535, or unset it for a free port.`;
  }
  if (number === 0) return undefined;
  const code = await new Promise<string | undefined>((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      resolve(error.code ?? 'error');
    });
    probe.listen(number, '127.0.0.1', () => {
      probe.close(() => {
        resolve(undefined);
      });
    });
  });
  if (code === undefined) return undefined;
  const why = code === 'EADDRINUSE' ? 'in use' : `not available to this process (${code})`;
  return `Port ${port} of 127.0.0.1 is ${why}. Fix: stop what listens there, or set PORT to another port (unset: a free one).`;
}
