import { FilesystemError, type FilesystemOperation } from '../core/errors/filesystem-error.js';
import type { FilesystemLimits } from './filesystem-limits.js';

// Control characters (NUL included) have no place in a path and often signal an injection attempt.
// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u001f\u007f]/u;

/**
 * Splits `input` into the segments of a normalised path below `root`:
 * `.` and empty segments drop out, `..` climbs, and a path that would leave
 * the root, contains control characters or breaks the depth and name limits
 * is rejected. `''` and `.` are the root itself (no segments). @internal
 */
export function resolvePath(
  input: unknown,
  root: string,
  operation: FilesystemOperation,
  limits: FilesystemLimits,
): string[] {
  const shown = typeof input === 'string' ? input : String(input);
  const fail = (message: string, reason: 'invalid_path' | 'outside_root' | 'limit_exceeded') =>
    new FilesystemError(message, { operation, path: shown, reason });
  if (typeof input !== 'string') {
    throw fail(`expected a path string, got ${typeof input}.`, 'invalid_path');
  }
  if (controlCharacters.test(input)) {
    throw fail(
      'the path contains a NUL or other control character. Use printable characters only.',
      'invalid_path',
    );
  }
  let relative = input;
  if (input.startsWith('/')) {
    if (root === '/') relative = input.slice(1);
    else if (input === root || input.startsWith(`${root}/`)) relative = input.slice(root.length);
    else {
      throw fail(
        `absolute paths must lie inside the root '${root}'. Use a path relative to the root, e.g. 'src/main.ts'.`,
        'outside_root',
      );
    }
  }
  const segments: string[] = [];
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) {
        throw fail(
          `the path escapes the root '${root}' through '..'. Use a path inside the root.`,
          'outside_root',
        );
      }
      segments.pop();
      continue;
    }
    if (segment.length > limits.maxSegmentLength) {
      throw fail(
        `the name '${segment.slice(0, 20)}…' is ${segment.length} characters long; the limit is ${limits.maxSegmentLength}. Use a shorter name.`,
        'limit_exceeded',
      );
    }
    segments.push(segment);
  }
  if (segments.length > limits.maxPathDepth) {
    throw fail(
      `the path is ${segments.length} levels deep; the limit is ${limits.maxPathDepth}. Use a shallower path.`,
      'limit_exceeded',
    );
  }
  return segments;
}

/** The display form of a normalised path: segments joined by `/`, or `.` for the root. @internal */
export function joinPath(segments: readonly string[]): string {
  return segments.length === 0 ? '.' : segments.join('/');
}
