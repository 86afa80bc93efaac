import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { Container } from 'inversify';

import { ConfigurationError } from '../../core/errors/configuration-error.js';

/**
 * Refuses a container that is not an instance of the `inversify` affordance
 * imports. Two copies of inversify in one application (the application's and a
 * nested one, after a version mismatch the package manager was told to ignore)
 * cannot share containers: a child container of one copy cannot read the
 * private state of the other's, and the first evaluation failed with a
 * private-member `TypeError` that pointed at the bindings. The error names the
 * version affordance imports and the one the application resolves, when it
 * can find it. @internal
 */
export function assertOwnInversify(container: unknown, subject: string): void {
  if (container instanceof Container) return;
  const looksLikeContainer =
    typeof container === 'object' &&
    container !== null &&
    typeof (container as { bind?: unknown }).bind === 'function' &&
    typeof (container as { get?: unknown }).get === 'function';
  if (!looksLikeContainer) {
    throw new ConfigurationError({
      subject,
      problem: `expected an inversify Container, got ${container === null ? 'null' : typeof container}.`,
      fix: "pass `new Container()` from 'inversify'.",
    });
  }
  const ours = inversifyAt(import.meta.url);
  const theirs = inversifyAt(join(process.cwd(), 'package.json'));
  const copies =
    theirs !== undefined && theirs.path !== ours?.path
      ? `affordance imports inversify ${describe(ours)}; the application resolves inversify ${describe(theirs)}`
      : `affordance imports inversify ${describe(ours)}`;
  throw new ConfigurationError({
    subject,
    problem: `the container was made by another copy of inversify than the one affordance imports (${copies}), and two copies cannot share containers.`,
    fix:
      "install one copy of inversify in the range affordance's peerDependencies name (`npm ls inversify` " +
      'lists the copies; `npm install inversify@<that range>`), and build the container with it.',
  });
}

interface InstalledPackage {
  readonly version: string;
  readonly path: string;
}

/** The `inversify` package `from` resolves (a file path or URL), or `undefined` when it cannot be found. */
function inversifyAt(from: string): InstalledPackage | undefined {
  try {
    const entry = createRequire(from).resolve('inversify');
    for (let folder = dirname(entry); folder !== dirname(folder); folder = dirname(folder)) {
      try {
        const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
          name?: unknown;
          version?: unknown;
        };
        if (manifest.name === 'inversify' && typeof manifest.version === 'string') {
          return { version: manifest.version, path: folder };
        }
      } catch {
        // No manifest in this folder: keep walking up.
      }
    }
  } catch {
    // Not resolvable from here.
  }
  return undefined;
}

function describe(found: InstalledPackage | undefined): string {
  return found === undefined ? '(version not found)' : `${found.version} at ${found.path}`;
}
