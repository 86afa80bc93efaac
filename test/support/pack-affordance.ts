import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const repo = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs `command` in a plain environment (no jest `NODE_OPTIONS`); a failure
 * shows what it printed (tsc reports on stdout), cut at 4,000 characters.
 */
export function runPlain(command: string, args: readonly string[], cwd: string): string {
  const env = { ...process.env };
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

/** The tarball {@link packAffordance} made, and the paths it holds. */
export interface PackedAffordance {
  readonly tarball: string;
  readonly files: readonly string[];
}

/**
 * Packs the package as from a fresh clone, without touching the working tree:
 * what a clone holds of it (`package.json`, the README and ARCHITECTURE.md,
 * the tsconfig files, `src/`, `migrations/`, the docs and what their pages
 * include, no `dist/`) is copied into `work/pkg`, beside a link
 * to this project's `node_modules`, and `npm pack` runs there with its
 * scripts, so the tarball (written to `work`) is what `npm publish` would
 * upload. `dist/` is in it only because the `prepack` script built it.
 */
export function packAffordance(work: string): PackedAffordance {
  const pkg = join(work, 'pkg');
  mkdirSync(pkg);
  for (const file of [
    'package.json',
    'README.md',
    'ARCHITECTURE.md',
    'tsconfig.json',
    'tsconfig.build.json',
  ]) {
    copyFileSync(join(repo, file), join(pkg, file));
  }
  // The sources of the packed guides too: docs/ (without the built site), the
  // files its pages include, and the script that expands them.
  for (const folder of ['src', 'migrations', 'docs', 'scripts', 'examples', 'test/conformance']) {
    cpSync(join(repo, folder), join(pkg, folder), {
      recursive: true,
      filter: (path) => !/[/\\]docs[/\\](api|\.vitepress[/\\](dist|cache))$/.test(path),
    });
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
