import { createInspectorServer } from 'affordance/inspector';

// #region serve
/** Serves every export in `directory` on 127.0.0.1 (a free port); `server.url` says where. */
export async function serveExports(directory: string) {
  const server = await createInspectorServer({ sessions: directory, port: 0 });
  return server; // server.url: where it listens; server.close() stops it
}
// #endregion serve
