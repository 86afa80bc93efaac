import {
  FilesystemError,
  type FilesystemErrorReason,
  type FilesystemOperation,
} from '../core/errors/filesystem-error.js';

/** A {@link FilesystemError} for `operation` on `path`. @internal */
export function fsError(
  operation: FilesystemOperation,
  path: string,
  reason: FilesystemErrorReason,
  message: string,
): FilesystemError {
  return new FilesystemError(message, { operation, path, reason });
}

/** The `not_found` error, with advice on finding the right path unless `message` says otherwise. @internal */
export function notFound(
  operation: FilesystemOperation,
  path: string,
  message?: string,
): FilesystemError {
  return fsError(
    operation,
    path,
    'not_found',
    message ??
      'no such file or directory. List the parent directory or glob to find the right path.',
  );
}

/** A value as shown in an error: a string as is, anything else by its type. @internal */
export function shown(value: unknown): string {
  return typeof value === 'string' ? value : typeof value;
}

/** A pattern as shown in an error: long ones are cut, so the message stays short. @internal */
export function shownPattern(pattern: string): string {
  const max = 100;
  return pattern.length <= max
    ? pattern
    : `${pattern.slice(0, max)}… (${pattern.length} characters)`;
}
