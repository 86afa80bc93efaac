import type { FileRead, ReadOptions } from './filesystem.js';
import { joinPath } from './filesystem-path.js';
import { fsError } from './fs-error.js';
import type { FileNode } from './memory-node.js';

/**
 * The window of lines of `file` that `options` asks for (`defaultLimit`
 * lines from the start by default); throws on an invalid offset or limit.
 * @internal
 */
export function readWindow(
  segments: readonly string[],
  path: string,
  file: FileNode,
  options: ReadOptions,
  defaultLimit: number,
): FileRead {
  const offset = options.offset ?? 0;
  const limit = options.limit ?? defaultLimit;
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw fsError(
      'read',
      path,
      'invalid_argument',
      `offset must be a non-negative integer, got ${String(offset)}.`,
    );
  }
  if (!(limit === Infinity || (Number.isSafeInteger(limit) && limit > 0))) {
    throw fsError(
      'read',
      path,
      'invalid_argument',
      `limit must be a positive integer or Infinity, got ${String(limit)}.`,
    );
  }
  const lines = splitLines(file.content);
  const end = Math.min(lines.length, offset + limit);
  const window = lines.slice(offset, end);
  const reachesEnd = end >= lines.length;
  const trailing = reachesEnd && window.length > 0 && file.content.endsWith('\n') ? '\n' : '';
  return {
    path: joinPath(segments),
    content: window.join('\n') + trailing,
    offset,
    lineCount: window.length,
    totalLines: lines.length,
    nextOffset: reachesEnd ? undefined : end,
  };
}

/** The lines of `content`, without their `\n`; a final `\n` does not start another line. @internal */
export function splitLines(content: string): string[] {
  if (content === '') return [];
  const lines = content.split('\n');
  if (content.endsWith('\n')) lines.pop();
  return lines;
}
