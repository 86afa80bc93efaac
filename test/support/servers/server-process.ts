import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';

/** Who a server runs as: `undefined` for this process's own user. */
export interface RunAs {
  readonly uid: number;
  readonly gid: number;
}

/** A TCP port of 127.0.0.1 free right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  if (address === null || typeof address === 'string') throw new Error('no TCP port was assigned');
  return address.port;
}

/** Starts `command` with its output appended to `logFile`. */
export function spawnLogged(
  command: string,
  args: readonly string[],
  logFile: string,
  runAs: RunAs | undefined,
): ChildProcess {
  const log = openSync(logFile, 'a');
  try {
    const options = { stdio: ['ignore', log, log] as ['ignore', number, number] };
    return spawn(command, args, runAs === undefined ? options : { ...options, ...runAs });
  } finally {
    closeSync(log);
  }
}

/** Runs `command` to its end; rejects with the log's tail when it fails. */
export async function runToEnd(
  command: string,
  args: readonly string[],
  logFile: string,
  runAs: RunAs | undefined,
): Promise<void> {
  const child = spawnLogged(command, args, logFile, runAs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`${command} exited with ${code}:\n${logTail(logFile)}`);
}

/** The last lines of a log file, for error messages. */
export function logTail(logFile: string): string {
  if (!existsSync(logFile)) return '(no log)';
  return readFileSync(logFile, 'utf8').split('\n').slice(-25).join('\n');
}

/**
 * Polls `ready` every 100 ms until it resolves true; fails when `child`
 * exits first or after `timeoutMs`, quoting the server's log.
 */
export async function waitUntilReady(
  child: ChildProcess,
  ready: () => Promise<boolean>,
  what: { readonly name: string; readonly logFile: string; readonly timeoutMs: number },
): Promise<void> {
  const deadline = Date.now() + what.timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${what.name} exited while starting:\n${logTail(what.logFile)}`);
    }
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `${what.name} was not ready after ${what.timeoutMs} ms:\n${logTail(what.logFile)}`,
  );
}

/**
 * Stops `child` by sending `signals` in turn, each `stepMs` after the one
 * before while it is still running (e.g. a polite stop, then harder ones,
 * then SIGKILL), and removes `dir` once it has exited.
 */
export async function stopAndClean(
  child: ChildProcess | undefined,
  signals: readonly NodeJS.Signals[],
  dir: string,
  stepMs = 3_000,
): Promise<void> {
  if (child?.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => {
        resolve();
      });
    });
    const timers = signals.map((signal, index) =>
      setTimeout(() => {
        child.kill(signal);
      }, index * stepMs),
    );
    await exited;
    for (const timer of timers) clearTimeout(timer);
  }
  await rm(dir, { recursive: true, force: true });
}
