import { loneSurrogate } from './check-text.js';
import type { EditOptions } from './filesystem.js';
import { fsError } from './fs-error.js';
import type { FileNode } from './memory-node.js';

/**
 * How many occurrences of `oldText` an edit of `file` replaces with
 * `newText`, after checking the edit: both texts strings and different,
 * `oldText` found, exactly once unless `options.replaceAll`, and the result
 * within `maxFileBytes`. @internal
 */
export function countEditReplacements(
  path: string,
  file: FileNode,
  oldText: string,
  newText: string,
  options: EditOptions,
  maxFileBytes: number,
): number {
  if (typeof oldText !== 'string' || oldText === '') {
    throw fsError(
      'edit',
      path,
      'invalid_argument',
      'oldText must be a non-empty string: quote the exact text to replace.',
    );
  }
  if (typeof newText !== 'string') {
    throw fsError('edit', path, 'invalid_argument', 'newText must be a string.');
  }
  if (oldText === newText) {
    throw fsError(
      'edit',
      path,
      'invalid_argument',
      'oldText and newText are identical, so the edit would change nothing.',
    );
  }
  const count = countOccurrences(file.content, oldText);
  if (count === 0) {
    throw fsError(
      'edit',
      path,
      'no_match',
      'oldText was not found. Read the file and copy the exact text, including whitespace and indentation.',
    );
  }
  if (count > 1 && options.replaceAll !== true) {
    throw fsError(
      'edit',
      path,
      'ambiguous_match',
      `oldText occurs ${count} times. Include more surrounding lines to make it unique, or set replaceAll to replace every occurrence.`,
    );
  }
  checkEditSize(path, file, oldText, newText, count, maxFileBytes);
  return count;
}

/** How many times `text` occurs in `content`, counted left to right without overlaps. */
function countOccurrences(content: string, text: string): number {
  let count = 0;
  for (let at = content.indexOf(text); at !== -1; at = content.indexOf(text, at + text.length)) {
    count++;
  }
  return count;
}

/**
 * Refuses an edit whose result would exceed `maxFileBytes` before building
 * it: a short replacement repeated over a large file could otherwise ask
 * for hundreds of megabytes.
 */
function checkEditSize(
  path: string,
  file: FileNode,
  oldText: string,
  newText: string,
  count: number,
  max: number,
): void {
  // UTF-8 takes at least one byte per UTF-16 code unit, so the length is a lower bound.
  const units = file.content.length + count * (newText.length - oldText.length);
  let bytes: number | undefined;
  if (!loneSurrogate.test(oldText) && !loneSurrogate.test(newText)) {
    // Whole characters replace whole characters, so sizes add up exactly.
    bytes =
      file.bytes +
      count * (Buffer.byteLength(newText, 'utf8') - Buffer.byteLength(oldText, 'utf8'));
  }
  const least = bytes ?? units;
  if (least > max) {
    throw fsError(
      'edit',
      path,
      'limit_exceeded',
      `replacing ${count === 1 ? 'the occurrence' : `${count} occurrences`} would make the file ${bytes === undefined ? 'at least ' : ''}${least} bytes; the limit is ${max}. Replace fewer occurrences or a shorter text, or split the file.`,
    );
  }
}
