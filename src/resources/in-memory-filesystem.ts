import { ConfigurationError } from '../errors/configuration-error.js';
import {
  FilesystemError,
  type FilesystemErrorReason,
  type FilesystemOperation,
} from '../errors/filesystem-error.js';
import type {
  EditOptions,
  EditResult,
  FileRead,
  FileStat,
  Filesystem,
  GlobOptions,
  GrepMatch,
  GrepOptions,
  GrepResult,
  ReadOptions,
  RemoveOptions,
  WriteOptions,
  WriteResult,
} from './filesystem.js';
import { defaultFilesystemLimits, type FilesystemLimits } from './filesystem-limits.js';
import { joinPath, resolvePath } from './filesystem-path.js';
import type { GlobMatcher } from './glob-matcher.js';
import { compileGlob } from './glob-pattern.js';
import { compileGrepPattern, type LineMatcher } from './grep-pattern.js';
import type { Snapshotable } from './snapshotable.js';
import { assertCallOpen } from '../session/call-frame.js';

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

interface FileNode {
  readonly kind: 'file';
  readonly content: string;
  readonly bytes: number;
}

interface DirNode {
  readonly kind: 'dir';
  readonly entries: Map<string, Node>;
  /** The write epoch that may mutate this directory in place; any other must copy it first. */
  readonly owner: object;
}

type Node = FileNode | DirNode;

interface TreeState {
  readonly root: DirNode;
  readonly files: number;
  readonly bytes: number;
}

/** Opaque state of an {@link InMemoryFilesystem}, from `snapshot()`; costs O(1) to take and restore. */
export class FilesystemSnapshot {
  /** Number of files captured. */
  readonly fileCount: number;
  /** Total size captured, in UTF-8 bytes. */
  readonly totalBytes: number;
  readonly #state: TreeState;

  private constructor(state: TreeState) {
    this.fileCount = state.files;
    this.totalBytes = state.bytes;
    this.#state = state;
    Object.freeze(this);
  }

  /** @internal */
  static of(state: TreeState): FilesystemSnapshot {
    return new FilesystemSnapshot(state);
  }

  /** @internal */
  static stateOf(value: unknown): TreeState | undefined {
    return typeof value === 'object' && value !== null && #state in value
      ? value.#state
      : undefined;
  }
}

// Lone surrogates cannot be encoded as UTF-8.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A {@link Filesystem} held in memory, for agents that need scratch space
 * without touching the host. Directories are shared between versions and
 * copied only when first written after a snapshot, so `snapshot()` and
 * `restore()` take constant time however many files there are, and file
 * contents are never copied.
 */
export class InMemoryFilesystem implements Filesystem, Snapshotable<FilesystemSnapshot> {
  /** The absolute path presented as the root. */
  readonly root: string;
  /** Whether every write is refused. */
  readonly readOnly: boolean;
  /** The limits in force. */
  readonly limits: FilesystemLimits;
  #epoch: object = {};
  #tree: TreeState;

  constructor(options: InMemoryFilesystemOptions = {}) {
    this.root = checkRoot(options.root ?? '/');
    this.limits = checkLimits({ ...defaultFilesystemLimits, ...options.limits });
    this.#tree = {
      root: { kind: 'dir', entries: new Map(), owner: this.#epoch },
      files: 0,
      bytes: 0,
    };
    for (const [path, content] of Object.entries(options.files ?? {})) {
      this.#write('write', path, content, 'overwrite', true);
    }
    this.readOnly = options.readOnly ?? false;
  }

  /** Number of files. */
  get fileCount(): number {
    return this.#tree.files;
  }

  /** Sum of all file sizes, in UTF-8 bytes. */
  get totalBytes(): number {
    return this.#tree.bytes;
  }

  /** Captures every file in O(1); later writes copy the directories they touch. */
  snapshot(): FilesystemSnapshot {
    this.#epoch = {};
    return FilesystemSnapshot.of(this.#tree);
  }

  /** Returns to a captured state in O(1). */
  restore(snapshot: FilesystemSnapshot): void {
    const state = FilesystemSnapshot.stateOf(snapshot);
    if (state === undefined) {
      throw new FilesystemError('expected a FilesystemSnapshot from snapshot().', {
        operation: 'restore',
        path: this.root,
        reason: 'invalid_argument',
      });
    }
    this.#epoch = {};
    this.#tree = state;
  }

  /** Reads a window of lines (default the first 2000). */
  read(path: string, options: ReadOptions = {}): Promise<FileRead> {
    return attempt(() => {
      const segments = this.#resolve(path, 'read');
      const file = this.#file(segments, path, 'read');
      const offset = options.offset ?? 0;
      const limit = options.limit ?? this.limits.defaultReadLines;
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
    });
  }

  /** Reads a whole file. */
  readText(path: string): Promise<string> {
    return attempt(() => this.#file(this.#resolve(path, 'read'), path, 'read').content);
  }

  /** Whether a file or directory exists at `path` (invalid paths still throw). */
  exists(path: string): Promise<boolean> {
    return attempt(() => this.#lookup(this.#resolve(path, 'stat')) !== undefined);
  }

  /** Describes the file or directory at `path`. */
  stat(path: string): Promise<FileStat> {
    return attempt(() => {
      const segments = this.#resolve(path, 'stat');
      const node = this.#lookup(segments);
      if (node === undefined) throw notFound('stat', path);
      return describeNode(segments, node);
    });
  }

  /** The entries of a directory (default the root), sorted by name. */
  list(path = '.'): Promise<readonly FileStat[]> {
    return attempt(() => {
      const segments = this.#resolve(path, 'list');
      const dir = this.#directory(segments, path, 'list');
      return [...dir.entries]
        .sort(([a], [b]) => compareNames(a, b))
        .map(([name, node]) => describeNode([...segments, name], node));
    });
  }

  /** Paths of the files matching `pattern` below `options.path`, sorted. */
  glob(pattern: string, options: GlobOptions = {}): Promise<readonly string[]> {
    return attempt(() => {
      const base = this.#resolve(options.path ?? '.', 'glob');
      const matcher = this.#compileGlob(pattern, 'glob');
      const dir = this.#directory(base, options.path ?? '.', 'glob');
      const found: string[] = [];
      walkFiles(dir, [], (relative) => {
        if (matcher.test(relative.join('/'))) found.push(joinPath([...base, ...relative]));
      });
      return found.sort(compareNames);
    });
  }

  /**
   * Lines matching `pattern` below `options.path`, sorted by path then line.
   * A string pattern (JavaScript syntax without backreferences or lookaround)
   * runs on RE2, in time linear in the text searched, so a model may supply
   * it; a `RegExp` runs on JavaScript's backtracking engine: pass one only
   * from trusted code.
   */
  async grep(pattern: string | RegExp, options: GrepOptions = {}): Promise<GrepResult> {
    const where = options.path ?? '.';
    const { regex, cap, files } = await attempt(() => {
      const base = this.#resolve(where, 'grep');
      const matcher = compileRegex(pattern, options.ignoreCase ?? false, where);
      const most = Math.min(
        options.maxMatches ?? this.limits.maxGrepMatches,
        this.limits.maxGrepMatches,
      );
      if (!Number.isSafeInteger(most) || most <= 0) {
        throw fsError(
          'grep',
          where,
          'invalid_argument',
          `maxMatches must be a positive integer, got ${String(options.maxMatches)}.`,
        );
      }
      const filter =
        options.glob === undefined ? undefined : this.#compileGlob(options.glob, 'grep');
      const node = this.#lookup(base);
      if (node === undefined) throw notFound('grep', where);
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
      return { regex: matcher, cap: most, files: found };
    });
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
          options.signal?.throwIfAborted();
        }
        if (!regex.test(text)) continue;
        if (matches.length === cap) return { matches, truncated: true };
        matches.push({ path, line: i + 1, text });
      }
    }
    return { matches, truncated: false };
  }

  /** Creates (default), overwrites or appends to a file. */
  write(path: string, content: string, options: WriteOptions = {}): Promise<WriteResult> {
    return attempt(() =>
      this.#write('write', path, content, options.mode ?? 'create', options.createParents ?? true),
    );
  }

  /** Replaces `oldText` with `newText`: exactly one occurrence, or all with `replaceAll`. */
  edit(
    path: string,
    oldText: string,
    newText: string,
    options: EditOptions = {},
  ): Promise<EditResult> {
    return attempt(() => {
      this.#writable('edit', path);
      const segments = this.#resolve(path, 'edit');
      const file = this.#file(segments, path, 'edit');
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
      this.#checkEditSize(path, file, oldText, newText, count);
      const edited = file.content.split(oldText).join(newText);
      const result = this.#write('edit', path, edited, 'overwrite', false);
      return { path: result.path, replacements: count, size: result.size };
    });
  }

  /** Removes a file or directory; a non-empty directory needs `recursive`. */
  remove(path: string, options: RemoveOptions = {}): Promise<void> {
    return attempt(() => {
      this.#writable('remove', path);
      const segments = this.#resolve(path, 'remove');
      if (segments.length === 0) {
        throw fsError(
          'remove',
          path,
          'invalid_path',
          'the root cannot be removed. Remove the entries inside it instead.',
        );
      }
      const node = this.#lookup(segments);
      if (node === undefined) throw notFound('remove', path);
      if (node.kind === 'dir' && node.entries.size > 0 && options.recursive !== true) {
        throw fsError(
          'remove',
          path,
          'directory_not_empty',
          'the directory is not empty. Pass recursive: true to remove it with everything in it.',
        );
      }
      let files = 0;
      let bytes = 0;
      if (node.kind === 'file') {
        files = 1;
        bytes = node.bytes;
      } else {
        walkFiles(node, [], (_relative, file) => {
          files++;
          bytes += file.bytes;
        });
      }
      const { root, parent } = this.#mutableParent(segments, 'remove', path, false);
      parent.entries.delete(lastSegment(segments));
      this.#commit(root, this.#tree.files - files, this.#tree.bytes - bytes);
    });
  }

  /** Creates a directory and any missing parents. */
  mkdir(path: string): Promise<void> {
    return attempt(() => {
      this.#writable('mkdir', path);
      const segments = this.#resolve(path, 'mkdir');
      const existing = this.#lookup(segments);
      if (existing?.kind === 'dir') return;
      if (existing !== undefined) {
        throw fsError('mkdir', path, 'already_exists', 'a file exists at this path.');
      }
      const { root, parent } = this.#mutableParent(segments, 'mkdir', path, true);
      parent.entries.set(lastSegment(segments), this.#newDir());
      this.#commit(root, this.#tree.files, this.#tree.bytes);
    });
  }

  #write(
    operation: FilesystemOperation,
    path: string,
    content: string,
    mode: string,
    createParents: boolean,
  ): WriteResult {
    this.#writable(operation, path);
    const segments = this.#resolve(path, operation);
    if (segments.length === 0) {
      throw fsError(
        operation,
        path,
        'not_a_file',
        'the root is a directory. Name a file inside it.',
      );
    }
    if (mode !== 'create' && mode !== 'overwrite' && mode !== 'append') {
      throw fsError(
        operation,
        path,
        'invalid_argument',
        `unknown mode '${mode}'. Use 'create', 'overwrite' or 'append'.`,
      );
    }
    checkText(operation, path, content);
    const existing = this.#lookup(segments);
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
    const next = mode === 'append' && existing !== undefined ? existing.content + content : content;
    const bytes = Buffer.byteLength(next, 'utf8');
    if (bytes > this.limits.maxFileBytes) {
      throw fsError(
        operation,
        path,
        'limit_exceeded',
        `the file would be ${bytes} bytes; the limit is ${this.limits.maxFileBytes}. Split the content across several files.`,
      );
    }
    const files = this.#tree.files + (existing === undefined ? 1 : 0);
    if (files > this.limits.maxFiles) {
      throw fsError(
        operation,
        path,
        'limit_exceeded',
        `the filesystem already holds the maximum of ${this.limits.maxFiles} files. Remove files you no longer need.`,
      );
    }
    const total = this.#tree.bytes - (existing?.bytes ?? 0) + bytes;
    if (total > this.limits.maxTotalBytes) {
      throw fsError(
        operation,
        path,
        'limit_exceeded',
        `the filesystem would hold ${total} bytes; the limit is ${this.limits.maxTotalBytes}. Remove files you no longer need.`,
      );
    }
    const { root, parent } = this.#mutableParent(segments, operation, path, createParents);
    parent.entries.set(lastSegment(segments), {
      kind: 'file',
      content: next,
      bytes,
    });
    this.#commit(root, files, total);
    return { path: joinPath(segments), created: existing === undefined, size: bytes };
  }

  /**
   * Refuses an edit whose result would exceed `maxFileBytes` before building
   * it: a short replacement repeated over a large file could otherwise ask
   * for hundreds of megabytes.
   */
  #checkEditSize(
    path: string,
    file: FileNode,
    oldText: string,
    newText: string,
    count: number,
  ): void {
    const max = this.limits.maxFileBytes;
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

  #resolve(path: string, operation: FilesystemOperation): string[] {
    return resolvePath(path, this.root, operation, this.limits);
  }

  #writable(operation: FilesystemOperation, path: string): void {
    // A tool call that was rolled back must not bring its changes back by writing late.
    assertCallOpen(() => `the filesystem (${operation} ${path})`);
    if (this.readOnly) {
      throw fsError(operation, path, 'read_only', 'the filesystem is read-only.');
    }
  }

  #lookup(segments: readonly string[]): Node | undefined {
    let node: Node = this.#tree.root;
    for (const segment of segments) {
      if (node.kind !== 'dir') return undefined;
      const next: Node | undefined = node.entries.get(segment);
      if (next === undefined) return undefined;
      node = next;
    }
    return node;
  }

  #file(segments: readonly string[], path: string, operation: FilesystemOperation): FileNode {
    const node = this.#lookup(segments);
    if (node === undefined) throw notFound(operation, path);
    if (node.kind !== 'file') {
      throw fsError(
        operation,
        path,
        'not_a_file',
        'this is a directory. List it, or name a file inside it.',
      );
    }
    return node;
  }

  #directory(segments: readonly string[], path: string, operation: FilesystemOperation): DirNode {
    const node = this.#lookup(segments);
    if (node === undefined) throw notFound(operation, path);
    if (node.kind !== 'dir') {
      throw fsError(operation, path, 'not_a_directory', 'this is a file, not a directory.');
    }
    return node;
  }

  #compileGlob(pattern: string, operation: FilesystemOperation): GlobMatcher {
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

  #newDir(): DirNode {
    return { kind: 'dir', entries: new Map(), owner: this.#epoch };
  }

  #own(dir: DirNode): DirNode {
    return dir.owner === this.#epoch
      ? dir
      : { kind: 'dir', entries: new Map(dir.entries), owner: this.#epoch };
  }

  /**
   * The root and the parent directory of `segments`, both writable in place:
   * directories shared with a snapshot are copied on the way down.
   */
  #mutableParent(
    segments: readonly string[],
    operation: FilesystemOperation,
    path: string,
    createParents: boolean,
  ): { root: DirNode; parent: DirNode } {
    // Check the whole path first, so nothing is copied for a write that fails.
    let probe: DirNode = this.#tree.root;
    for (const [i, segment] of segments.slice(0, -1).entries()) {
      const next = probe.entries.get(segment);
      if (next === undefined) {
        if (!createParents)
          throw notFound(
            operation,
            path,
            `the directory '${joinPath(segments.slice(0, i + 1))}' does not exist. Create it first or allow createParents.`,
          );
        break;
      }
      if (next.kind !== 'dir') {
        throw fsError(
          operation,
          path,
          'not_a_directory',
          `'${joinPath(segments.slice(0, i + 1))}' is a file, so it cannot contain other entries.`,
        );
      }
      probe = next;
    }
    const root = this.#own(this.#tree.root);
    let dir = root;
    for (const segment of segments.slice(0, -1)) {
      const child = dir.entries.get(segment);
      const owned = child === undefined ? this.#newDir() : this.#own(child as DirNode);
      if (owned !== child) dir.entries.set(segment, owned);
      dir = owned;
    }
    return { root, parent: dir };
  }

  #commit(root: DirNode, files: number, bytes: number): void {
    this.#tree = { root, files, bytes };
  }
}

/** Runs a synchronous operation as a promise, so its errors become rejections. */
function attempt<T>(operation: () => T): Promise<T> {
  return new Promise((resolve) => {
    resolve(operation());
  });
}

function lastSegment(segments: readonly string[]): string {
  return segments.at(-1) ?? '';
}

function shown(value: unknown): string {
  return typeof value === 'string' ? value : typeof value;
}

function fsError(
  operation: FilesystemOperation,
  path: string,
  reason: FilesystemErrorReason,
  message: string,
): FilesystemError {
  return new FilesystemError(message, { operation, path, reason });
}

function notFound(operation: FilesystemOperation, path: string, message?: string): FilesystemError {
  return fsError(
    operation,
    path,
    'not_found',
    message ??
      'no such file or directory. List the parent directory or glob to find the right path.',
  );
}

function checkText(operation: FilesystemOperation, path: string, content: unknown): void {
  if (typeof content !== 'string') {
    throw fsError(
      operation,
      path,
      'invalid_text',
      `content must be a string, got ${typeof content}.`,
    );
  }
  if (loneSurrogate.test(content)) {
    throw fsError(
      operation,
      path,
      'invalid_text',
      'content is not valid UTF-8 text (it contains a lone surrogate).',
    );
  }
}

/** How much text a search scans between two turns of the event loop (and checks of its signal). */
const GREP_YIELD_CHARACTERS = 64 * 1024;

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(resolve);
  });
}

function compileRegex(pattern: string | RegExp, ignoreCase: boolean, path: string): LineMatcher {
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

/** How many times `text` occurs in `content`, counted left to right without overlaps. */
function countOccurrences(content: string, text: string): number {
  let count = 0;
  for (let at = content.indexOf(text); at !== -1; at = content.indexOf(text, at + text.length)) {
    count++;
  }
  return count;
}

/** A pattern as shown in an error: long ones are cut, so the message stays short. */
function shownPattern(pattern: string): string {
  const max = 100;
  return pattern.length <= max
    ? pattern
    : `${pattern.slice(0, max)}… (${pattern.length} characters)`;
}

function splitLines(content: string): string[] {
  if (content === '') return [];
  const lines = content.split('\n');
  if (content.endsWith('\n')) lines.pop();
  return lines;
}

function walkFiles(
  dir: DirNode,
  prefix: readonly string[],
  visit: (relative: readonly string[], file: FileNode) => void,
): void {
  for (const [name, node] of dir.entries) {
    const path = [...prefix, name];
    if (node.kind === 'file') visit(path, node);
    else walkFiles(node, path, visit);
  }
}

function describeNode(segments: readonly string[], node: Node): FileStat {
  return {
    path: joinPath(segments),
    name: segments.at(-1) ?? '.',
    kind: node.kind === 'file' ? 'file' : 'directory',
    size: node.kind === 'file' ? node.bytes : node.entries.size,
  };
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function checkRoot(root: string): string {
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

function checkLimits(limits: FilesystemLimits): FilesystemLimits {
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
