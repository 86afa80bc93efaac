import type { FilesystemOperation } from '../core/errors/filesystem-error.js';
import { checkText } from './check-text.js';
import type { FilesystemLimits } from './filesystem-limits.js';
import { fsError } from './fs-error.js';
import type { FileNode, MemoryNode, TreeState } from './memory-node.js';

/** What a checked write stores, and the totals of the tree after it. @internal */
export interface PlannedWrite {
  /** The file's new content. */
  readonly content: string;
  /** Its size in UTF-8 bytes. */
  readonly bytes: number;
  /** The number of files after the write. */
  readonly files: number;
  /** The sum of all file sizes after the write. */
  readonly total: number;
}

/**
 * Checks a write of `content` to `path` (where `existing` stands) in `mode`
 * against the tree `state` and `limits`, and says what it stores; throws a
 * `FilesystemError` for an unknown mode, invalid text, a directory in the
 * way, an existing file in `create` mode or a limit the write would break.
 * @internal
 */
export function planWrite(
  operation: FilesystemOperation,
  path: string,
  content: string,
  mode: string,
  existing: MemoryNode | undefined,
  state: TreeState,
  limits: FilesystemLimits,
): PlannedWrite {
  if (mode !== 'create' && mode !== 'overwrite' && mode !== 'append') {
    throw fsError(
      operation,
      path,
      'invalid_argument',
      `unknown mode '${mode}'. Use 'create', 'overwrite' or 'append'.`,
    );
  }
  checkText(operation, path, content);
  const file = existingFile(operation, path, mode, existing);
  const next = mode === 'append' && file !== undefined ? file.content + content : content;
  const bytes = Buffer.byteLength(next, 'utf8');
  const planned: PlannedWrite = {
    content: next,
    bytes,
    files: state.files + (file === undefined ? 1 : 0),
    total: state.bytes - (file?.bytes ?? 0) + bytes,
  };
  checkLimits(operation, path, planned, limits);
  return planned;
}

/** The file the write replaces or extends; refuses a directory in the way, or an existing file in `create` mode. */
function existingFile(
  operation: FilesystemOperation,
  path: string,
  mode: string,
  existing: MemoryNode | undefined,
): FileNode | undefined {
  if (existing?.kind === 'dir') {
    throw fsError(
      operation,
      path,
      'not_a_file',
      'a directory exists at this path. Choose a file name.',
    );
  }
  if (existing !== undefined && mode === 'create') {
    throw fsError(
      operation,
      path,
      'already_exists',
      "the file already exists. Use mode 'overwrite' to replace it or 'append' to add to it.",
    );
  }
  return existing;
}

/** Refuses a write that would break a limit: the file's size, the number of files, the total size. */
function checkLimits(
  operation: FilesystemOperation,
  path: string,
  { bytes, files, total }: PlannedWrite,
  limits: FilesystemLimits,
): void {
  if (bytes > limits.maxFileBytes) {
    throw fsError(
      operation,
      path,
      'limit_exceeded',
      `the file would be ${bytes} bytes; the limit is ${limits.maxFileBytes}. Split the content across several files.`,
    );
  }
  if (files > limits.maxFiles) {
    throw fsError(
      operation,
      path,
      'limit_exceeded',
      `the filesystem already holds the maximum of ${limits.maxFiles} files. Remove files you no longer need.`,
    );
  }
  if (total > limits.maxTotalBytes) {
    throw fsError(
      operation,
      path,
      'limit_exceeded',
      `the filesystem would hold ${total} bytes; the limit is ${limits.maxTotalBytes}. Remove files you no longer need.`,
    );
  }
}
