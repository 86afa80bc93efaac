import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
  createInspectorHandler,
  type InspectorHandler,
  type InspectorHandlerOptions,
} from './inspector-handler.js';

/** Options of {@link createInspectorServer}. */
export interface InspectorServerOptions extends InspectorHandlerOptions {
  /**
   * The address to listen on. Default `127.0.0.1` (this machine only). Another
   * address also needs that host in `allowedHosts`, or every request is refused.
   */
  readonly host?: string | undefined;
  /** The port; `0` (the default) takes a free one (see `url`). */
  readonly port?: number | undefined;
}

/** A running inspector server. */
export interface InspectorServer {
  /** Where it listens, e.g. `http://127.0.0.1:41231`. */
  readonly url: string;
  readonly port: number;
  /** The handler it answers with. */
  readonly handler: InspectorHandler;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/**
 * Serves the inspector over HTTP: the list of sessions at `/`, each session's
 * timeline at `/sessions/<name>` (see {@link createInspectorHandler} for what
 * it answers and refuses). Listens on 127.0.0.1 by default.
 *
 * @example const server = await createInspectorServer({ sessions: './eval-runs/sessions' }); console.log(server.url);
 */
export async function createInspectorServer(
  options: InspectorServerOptions,
): Promise<InspectorServer> {
  const handler = await createInspectorHandler(options);
  const server: Server = createServer((req, res) => {
    void handler.handle(req, res);
  });
  // A slow or idle client cannot hold a connection for long.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}`,
    port,
    handler,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
        server.closeAllConnections();
      }),
  };
}
