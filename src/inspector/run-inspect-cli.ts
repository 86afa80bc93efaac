import { ConfigurationError } from 'affordance';

import { createInspectorServer, type InspectorServer } from './create-inspector-server.js';

/** Where {@link runInspectCli} writes its output. */
export interface InspectCliIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** The default port of `affordance-inspect`. */
export const DEFAULT_INSPECT_PORT = 4390;

const usage = `Usage: affordance-inspect <directory-or-file> [--port <port>] [--host <address>] [--allowed-host <name>]...

Serves the session exports in a directory (*.json) or one export file as pages with each session's timeline.
  --port           the port (default ${DEFAULT_INSPECT_PORT}; 0 takes a free one)
  --host           the address to listen on (default 127.0.0.1, this machine only)
  --allowed-host   a Host header to accept besides the loopback names (repeatable), e.g. for --host 0.0.0.0`;

interface InspectRequest {
  readonly sessions: string;
  readonly port: number;
  readonly host: string;
  readonly allowedHosts: readonly string[];
}

/**
 * The `affordance-inspect` command: parses `args` (what follows the command
 * name) and starts the inspector server. Returns the server, or the exit
 * code when it did not start: 0 for `--help`, 2 for bad arguments or
 * sessions it cannot read, 1 when it could not listen.
 */
export async function runInspectCli(
  args: readonly string[],
  io: InspectCliIo,
): Promise<InspectorServer | number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(usage);
    return 0;
  }
  let request: InspectRequest;
  try {
    request = parseInspectArgs(args);
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 2;
  }
  try {
    const server = await createInspectorServer({
      sessions: request.sessions,
      host: request.host,
      port: request.port,
      allowedHosts: ['localhost', '127.0.0.1', '[::1]', ...request.allowedHosts],
    });
    io.out(`affordance-inspect: serving ${request.sessions} at ${server.url}/ (Ctrl-C stops)`);
    return server;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.err(`affordance-inspect: ${message}`);
    return ConfigurationError.is(error) ? 2 : 1;
  }
}

function parseInspectArgs(args: readonly string[]): InspectRequest {
  let sessions: string | undefined;
  let port = DEFAULT_INSPECT_PORT;
  let host = '127.0.0.1';
  const allowedHosts: string[] = [];
  for (let at = 0; at < args.length; at += 1) {
    const arg = args[at] as string;
    if (!arg.startsWith('--')) {
      if (sessions !== undefined)
        throw cliError(
          '<directory-or-file>',
          `a second path ${JSON.stringify(arg)} was given.`,
          'pass one directory or file.',
        );
      sessions = arg;
      continue;
    }
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    if (!['--port', '--host', '--allowed-host'].includes(flag)) {
      throw cliError(
        flag,
        `${JSON.stringify(flag)} is not an option.`,
        'run affordance-inspect --help for the options.',
      );
    }
    const value = inline ?? args[(at += 1)];
    if (value === undefined || value === '')
      throw cliError(flag, 'the option has no value.', `pass ${flag} <value>.`);
    if (flag === '--port') {
      port = Number(value);
      if (!/^\d{1,5}$/.test(value) || port > 65_535)
        throw cliError(
          flag,
          `${JSON.stringify(value)} is not a port.`,
          'pass a whole number from 0 to 65535.',
        );
    } else if (flag === '--host') host = value;
    else allowedHosts.push(value);
  }
  if (sessions === undefined) {
    throw cliError(
      '<directory-or-file>',
      'no sessions were given.',
      'pass the directory of session exports (or one export file).',
    );
  }
  return { sessions, port, host, allowedHosts };
}

function cliError(subject: string, problem: string, fix: string): ConfigurationError {
  return new ConfigurationError({
    subject: `affordance-inspect ${subject}`,
    problem,
    fix: `${fix.charAt(0).toUpperCase()}${fix.slice(1)}`,
  });
}
