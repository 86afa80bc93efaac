import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { FilesystemLimits } from './filesystem-limits.js';

/** Options of the {@link InMemoryFilesystem} constructor. */
export interface InMemoryFilesystemOptions {
  /** The absolute path presented as the root (default `/`). */
  readonly root?: string;
  /** Refuse every write. */
  readonly readOnly?: boolean;
  /** Limits to override; the rest keep their defaults. */
  readonly limits?: Partial<FilesystemLimits>;
  /** Files to start with, path → content. */
  readonly files?: Readonly<Record<string, string>>;
}

/** Returns `root` if it is an absolute, normalised path; throws a `ConfigurationError` otherwise. @internal */
export function checkRoot(root: string): string {
  const valid =
    typeof root === 'string' &&
    root.startsWith('/') &&
    (root === '/' || !root.endsWith('/')) &&
    !root.split('/').some((segment) => segment === '.' || segment === '..');
  if (!valid) {
    throw new ConfigurationError({
      subject: 'InMemoryFilesystem.root',
      problem: `expected an absolute, normalised path, got ${JSON.stringify(root)}.`,
      fix: "Pass a path such as '/workspace' (no trailing slash, no '.' or '..').",
    });
  }
  return root;
}

/** Freezes and returns `limits` if each is a positive integer; throws a `ConfigurationError` otherwise. @internal */
export function checkLimits(limits: FilesystemLimits): FilesystemLimits {
  for (const [name, value] of Object.entries(limits)) {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
      throw new ConfigurationError({
        subject: `InMemoryFilesystem.limits.${name}`,
        problem: `must be a positive integer, got ${String(value)}.`,
        fix: 'Pass a positive integer, or leave the limit out to keep its default.',
      });
    }
  }
  return Object.freeze(limits);
}
