/**
 * `affordance-inspect` as a user runs it: the package built, the command's
 * file (package.json `bin`) spawned with node, its page fetched over
 * 127.0.0.1, stopped with SIGTERM; bad arguments exit with code 2.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { exportSession } from 'affordance/inspector';

import { runSupportDesk } from './support-desk-session.js';

const root = process.cwd();
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const bin = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> }
).bin['affordance-inspect'];
const command = join(root, bin ?? 'no bin entry');

let directory = '';

beforeAll(async () => {
  // Build mode: a project already up to date is not rebuilt.
  execFileSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: root, stdio: 'pipe' });
  directory = await mkdtemp(join(tmpdir(), 'affordance-inspect-cli-'));
  const run = await runSupportDesk();
  await writeFile(join(directory, 'desk.json'), JSON.stringify(exportSession(run.session)));
}, 240_000);

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** The first line `child` writes to stdout. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) resolve(text.slice(0, end));
    });
    child.once('exit', (code) => {
      reject(new Error(`affordance-inspect exited with ${String(code)} before printing`));
    });
  });
}

describe('the affordance-inspect command', () => {
  it('serves a directory of exports on 127.0.0.1 until it is stopped', async () => {
    const child = spawn(process.execPath, [command, directory, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const line = await firstLine(child);
      const url = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(line)?.[1];
      expect(url).toBeDefined();
      const index = await fetch(`${url ?? ''}/`);
      expect(index.status).toBe(200);
      expect(await index.text()).toContain('/sessions/desk');
      const session = await fetch(`${url ?? ''}/sessions/desk`);
      expect(session.status).toBe(200);
      expect(await session.text()).toContain('cancel_order');
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('exits with code 2 and says what to fix for missing or unreadable sessions and unknown options', async () => {
    const run = async (args: string[]) => {
      try {
        await promisify(execFile)(process.execPath, [command, ...args]);
        return { code: 0, stderr: '' };
      } catch (error) {
        const failed = error as { code: number; stderr: string };
        return { code: failed.code, stderr: failed.stderr };
      }
    };
    const none = await run([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(
      'affordance-inspect <directory-or-file>: no sessions were given. Fix:',
    );
    const missing = await run([join(directory, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot be read');
    const unknown = await run([directory, '--open']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('"--open" is not an option');
    const port = await run([directory, '--port', 'http']);
    expect(port.stderr).toContain('"http" is not a port');
  });
});
