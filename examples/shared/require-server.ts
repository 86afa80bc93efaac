import { connect } from 'node:net';

/** What {@link requireServer} checks. */
export interface RequiredServer {
  /** What runs there, for the message, e.g. `Redis`. */
  readonly name: string;
  /** Where it should listen, e.g. `redis://127.0.0.1:6379`. */
  readonly url: string;
  /** The port when `url` names none. */
  readonly defaultPort: number;
  /** What to do, e.g. "start one with `redis-server`, or set AFFORDANCE_REDIS_URL". */
  readonly fix: string;
}

/**
 * Returns once something accepts TCP connections where `server.url` points;
 * otherwise prints one line to stderr saying what to start and exits with
 * code 1, before the example opens any client (whose retries would print a
 * stack per attempt and never end).
 */
export async function requireServer(server: RequiredServer): Promise<void> {
  const url = new URL(server.url);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || String(server.defaultPort));
  const reachable = await new Promise<boolean>((resolve) => {
    const socket = connect({ host, port });
    const settle = (answer: boolean): void => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(3_000, () => {
      settle(false);
    });
    socket.once('connect', () => {
      settle(true);
    });
    socket.once('error', () => {
      settle(false);
    });
  });
  if (reachable) return;
  process.stderr.write(`No ${server.name} server answers at ${server.url}: ${server.fix}.\n`);
  process.exit(1);
}
