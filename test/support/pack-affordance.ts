import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const repo = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs `command` in a plain environment (no jest `NODE_OPTIONS`; `extraEnv` added); a failure
 * shows what it printed (tsc reports on stdout), cut at 4,000 characters.
 */
export function runPlain(
  command: string,
  args: readonly string[],
  cwd: string,
  extraEnv: Readonly<Record<string, string>> = {},
): string {
  const env = { ...process.env, ...extraEnv };
  delete env['NODE_OPTIONS'];
  try {
    return execFileSync(command, args, {
      cwd,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `${[command, ...args].join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`.slice(0, 4000),
      { cause: error },
    );
  }
}

/** {@link runPlain} without blocking the thread, so that several commands can run at once. */
export function runPlainAsync(
  command: string,
  args: readonly string[],
  cwd: string,
): Promise<string> {
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout);
      else {
        const message = `${[command, ...args].join(' ')} failed:\n${stdout}${stderr}`;
        reject(new Error(message.slice(0, 4000), { cause: error }));
      }
    });
  });
}

/** The tarball {@link packAffordance} made, and the paths it holds. */
export interface PackedAffordance {
  readonly tarball: string;
  readonly files: readonly string[];
}

/** The files and folders of a clone that the pack is made from (besides `node_modules`). */
const rootFiles = [
  'package.json',
  'package-lock.json',
  'README.md',
  'ARCHITECTURE.md',
  'tsconfig.json',
  'tsconfig.build.json',
];
const folders = ['src', 'migrations', 'docs', 'scripts', 'examples', 'test/conformance'];

/** False for the built docs site, the API reference and VitePress's cache (not sources). */
function isSource(path: string): boolean {
  return !/[/\\]docs[/\\](api|\.vitepress[/\\](dist|cache))$/.test(path);
}

/** A hash of every file {@link packFresh} copies (paths and contents): the pack cache's key. */
function sourceHash(): string {
  const hash = createHash('sha256');
  const add = (path: string): void => {
    if (!isSource(path)) return;
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path).sort()) add(join(path, entry));
      return;
    }
    hash.update(relative(repo, path)).update('\0').update(readFileSync(path)).update('\0');
  };
  for (const file of rootFiles) add(join(repo, file));
  for (const folder of folders) add(join(repo, folder));
  return hash.digest('hex').slice(0, 24);
}

/** Blocks the thread for `ms` (the callers are synchronous `beforeAll` hooks). */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Packs the package as from a fresh clone (see {@link packFresh}), once per
 * version of its sources: the tarball is kept in the system's temporary
 * folder under a hash of every file it is made from, so the suites that
 * install it (test/hardening/consumer-package.test.ts,
 * test/hardening/peer-versions.test.ts) share one pack, even when jest runs
 * them at the same time (the second waits for the first's). A change to any
 * source file, the docs, `package.json` or the lock file makes a new pack.
 * `work` is where a pack is made; the returned tarball may live elsewhere and
 * must not be modified.
 */
export function packAffordance(work: string): PackedAffordance {
  const cache = join(tmpdir(), 'affordance-pack-cache');
  const entry = join(cache, sourceHash());
  const manifest = join(entry, 'packed.json');
  const lock = `${entry}.lock`;
  mkdirSync(cache, { recursive: true });
  for (let waited = 0; !existsSync(manifest); waited += 500) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
    } catch {
      // Another suite is packing the same sources: wait for it, unless its process is gone
      // (a run stopped while packing) or it has taken over 10 minutes.
      if (waited > 600_000 || !packerAlive(lock)) rmSync(lock, { recursive: true, force: true });
      sleep(500);
      continue;
    }
    try {
      if (existsSync(manifest)) break;
      const packed = packFresh(work);
      const staged = `${entry}.${process.pid}`;
      rmSync(staged, { recursive: true, force: true });
      mkdirSync(staged);
      const tarball = join(staged, 'affordance.tgz');
      copyFileSync(packed.tarball, tarball);
      writeFileSync(join(staged, 'packed.json'), JSON.stringify({ files: packed.files }));
      rmSync(entry, { recursive: true, force: true });
      renameSync(staged, entry);
      pruneOthers(cache, entry);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  const { files } = JSON.parse(readFileSync(manifest, 'utf8')) as { files: string[] };
  return { tarball: join(entry, 'affordance.tgz'), files };
}

/** False when the process that took `lock` has exited (a lock without its pid yet is alive). */
function packerAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    return true;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Removes cached packs of other sources that are over a day old. */
function pruneOthers(cache: string, keep: string): void {
  const dayAgo = Date.now() - 86_400_000;
  for (const name of readdirSync(cache)) {
    const path = join(cache, name);
    if (path !== keep && !name.endsWith('.lock') && statSync(path).mtimeMs < dayAgo) {
      rmSync(path, { recursive: true, force: true });
    }
  }
}

/**
 * Packs the package as from a fresh clone (uncached), without touching the working tree:
 * what a clone holds of it (`package.json`, the README and ARCHITECTURE.md,
 * the tsconfig files, `src/`, `migrations/`, the docs and what their pages
 * include, no `dist/`) is copied into `work/pkg`, beside a link
 * to this project's `node_modules`, and `npm pack` runs there with its
 * scripts, so the tarball (written to `work`) is what `npm publish` would
 * upload. `dist/` is in it only because the `prepack` script built it.
 */
function packFresh(work: string): PackedAffordance {
  const pkg = join(work, 'pkg');
  mkdirSync(pkg);
  for (const file of rootFiles) {
    copyFileSync(join(repo, file), join(pkg, file));
  }
  // The sources of the packed guides too: docs/ (without the built site), the
  // files its pages include, and the script that expands them.
  for (const folder of folders) {
    cpSync(join(repo, folder), join(pkg, folder), { recursive: true, filter: isSource });
  }
  symlinkSync(join(repo, 'node_modules'), join(pkg, 'node_modules'));
  // With its scripts: `prepack` builds dist/ (the scripts print to stderr, the JSON to stdout).
  const packed = JSON.parse(
    runPlain('npm', ['pack', '--json', '--pack-destination', work], pkg),
  ) as {
    filename: string;
    files: { path: string }[];
  }[];
  return {
    tarball: join(work, packed[0]?.filename ?? ''),
    files: (packed[0]?.files ?? []).map((file) => file.path),
  };
}
