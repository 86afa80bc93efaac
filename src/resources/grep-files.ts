import type { GrepMatch, GrepResult } from './filesystem.js';
import { joinPath } from './filesystem-path.js';
import { fsError } from './fs-error.js';
import type { GlobMatcher } from './glob-matcher.js';
import { compileGrepPattern, type LineMatcher } from './grep-pattern.js';
import { compareNames, walkFiles, type FileNode, type MemoryNode } from './memory-node.js';
import { splitLines } from './read-window.js';

/** How much text a search scans between two turns of the event loop (and checks of its signal). */
const GREP_YIELD_CHARACTERS = 64 * 1024;

/**
 * The lines of `files` that `regex` matches, in order, at most `cap` of them.
 * The search yields to the event loop every 64 KiB of text and then stops,
 * rejecting, if `signal` has aborted. @internal
 */
export async function grepFiles(
  files: readonly (readonly [string, FileNode])[],
  regex: LineMatcher,
  cap: number,
  signal: AbortSignal | undefined,
): Promise<GrepResult> {
  // The files found are immutable nodes: writes made while the search yields do not change them.
  const matches: GrepMatch[] = [];
  let sinceYield = 0;
  for (const [path, file] of files) {
    const lines = splitLines(file.content);
    for (const [i, text] of lines.entries()) {
      sinceYield += text.length + 1;
      if (sinceYield >= GREP_YIELD_CHARACTERS) {
        sinceYield = 0;
        await yieldToEventLoop();
        signal?.throwIfAborted();
      }
      if (!regex.test(text)) continue;
      if (matches.length === cap) return { matches, truncated: true };
      matches.push({ path, line: i + 1, text });
    }
  }
  return { matches, truncated: false };
}

/**
 * The files a grep at `base` searches, with their paths, sorted by path:
 * `node` itself if it is a file, else the files below it that `filter`
 * (relative to `node`) accepts. @internal
 */
export function filesToGrep(
  base: readonly string[],
  node: MemoryNode,
  filter: GlobMatcher | undefined,
): [string, FileNode][] {
  const found: [string, FileNode][] = [];
  if (node.kind === 'file') found.push([joinPath(base), node]);
  else {
    walkFiles(node, [], (relative, file) => {
      if (filter === undefined || filter.test(relative.join('/'))) {
        found.push([joinPath([...base, ...relative]), file]);
      }
    });
  }
  found.sort(([a], [b]) => compareNames(a, b));
  return found;
}

/** The most matches a grep returns: `maxMatches` within `limit`; throws unless it is a positive integer. @internal */
export function grepMatchCap(maxMatches: number | undefined, limit: number, path: string): number {
  const most = Math.min(maxMatches ?? limit, limit);
  if (!Number.isSafeInteger(most) || most <= 0) {
    throw fsError(
      'grep',
      path,
      'invalid_argument',
      `maxMatches must be a positive integer, got ${String(maxMatches)}.`,
    );
  }
  return most;
}

/**
 * Compiles a grep pattern: a string runs on RE2 (linear time); a `RegExp`
 * is copied without its `g` and `y` flags, so `test` keeps no state. @internal
 */
export function compileRegex(
  pattern: string | RegExp,
  ignoreCase: boolean,
  path: string,
): LineMatcher {
  if (pattern instanceof RegExp)
    return new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''));
  if (typeof pattern !== 'string' || pattern === '') {
    throw fsError(
      'grep',
      path,
      'invalid_argument',
      'the pattern must be a non-empty regular expression.',
    );
  }
  const compiled = compileGrepPattern(pattern, ignoreCase);
  if (!compiled.ok) throw fsError('grep', path, 'invalid_argument', compiled.problem);
  return compiled.matcher;
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(resolve);
  });
}
