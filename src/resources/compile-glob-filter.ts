import type { FilesystemOperation } from '../core/errors/filesystem-error.js';
import { fsError, shown, shownPattern } from './fs-error.js';
import type { GlobMatcher } from './glob-matcher.js';
import { compileGlob } from './glob-pattern.js';

/**
 * Compiles a glob given to `operation`, relative to the directory searched;
 * throws a `FilesystemError` for an empty, absolute, climbing (`..`) or
 * invalid pattern. @internal
 */
export function compileGlobFilter(pattern: string, operation: FilesystemOperation): GlobMatcher {
  if (typeof pattern !== 'string' || pattern === '') {
    throw fsError(
      operation,
      shown(pattern),
      'invalid_argument',
      "the glob pattern must be a non-empty string, e.g. '**/*.ts'.",
    );
  }
  if (pattern.startsWith('/') || pattern.split('/').includes('..')) {
    throw fsError(
      operation,
      shownPattern(pattern),
      'outside_root',
      "glob patterns are relative and cannot contain '..'. Pass the directory as path instead.",
    );
  }
  const compiled = compileGlob(pattern);
  if (!compiled.ok) {
    throw fsError(operation, shownPattern(pattern), 'invalid_argument', compiled.problem);
  }
  return compiled.matcher;
}
