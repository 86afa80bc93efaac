import { FilesystemError, type FilesystemOperation } from '../core/errors/filesystem-error.js';
import { compileGlobFilter } from './compile-glob-filter.js';
import { countEditReplacements } from './count-edit-replacements.js';
import type {
  EditOptions,
  EditResult,
  FileRead,
  FileStat,
  Filesystem,
  GlobOptions,
  GrepOptions,
  GrepResult,
  ReadOptions,
  RemoveOptions,
  WriteOptions,
  WriteResult,
} from './filesystem.js';
import { defaultFilesystemLimits, type FilesystemLimits } from './filesystem-limits.js';
import { joinPath, resolvePath } from './filesystem-path.js';
import { FilesystemSnapshot } from './filesystem-snapshot.js';
import { fsError, notFound } from './fs-error.js';
import { compileRegex, filesToGrep, grepFiles, grepMatchCap } from './grep-files.js';
import {
  checkLimits,
  checkRoot,
  type InMemoryFilesystemOptions,
} from './in-memory-filesystem-options.js';
import { compareNames, describeNode, tallyFiles, walkFiles, type FileNode } from './memory-node.js';
import { MemoryTree } from './memory-tree.js';
import { planWrite } from './plan-write.js';
import { readWindow } from './read-window.js';
import type { Snapshotable } from '../session/snapshotable.js';
import { assertCallOpen } from '../session/call-frame.js';

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
  readonly #tree: MemoryTree;

  constructor(options: InMemoryFilesystemOptions = {}) {
    this.root = checkRoot(options.root ?? '/');
    this.limits = checkLimits({ ...defaultFilesystemLimits, ...options.limits });
    this.#tree = new MemoryTree();
    for (const [path, content] of Object.entries(options.files ?? {})) {
      this.#write('write', path, content, 'overwrite', true);
    }
    this.readOnly = options.readOnly ?? false;
  }

  /** Number of files. */
  get fileCount(): number {
    return this.#tree.state.files;
  }

  /** Sum of all file sizes, in UTF-8 bytes. */
  get totalBytes(): number {
    return this.#tree.state.bytes;
  }

  /** Captures every file in O(1); later writes copy the directories they touch. */
  snapshot(): FilesystemSnapshot {
    return FilesystemSnapshot.of(this.#tree.snapshot());
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
    this.#tree.restore(state);
  }

  /** Reads a window of lines (default the first 2000). */
  read(path: string, options: ReadOptions = {}): Promise<FileRead> {
    return attempt(() => {
      const segments = this.#resolve(path, 'read');
      const file = this.#tree.file(segments, path, 'read');
      return readWindow(segments, path, file, options, this.limits.defaultReadLines);
    });
  }

  /** Reads a whole file. */
  readText(path: string): Promise<string> {
    return attempt(() => this.#tree.file(this.#resolve(path, 'read'), path, 'read').content);
  }

  /** Whether a file or directory exists at `path` (invalid paths still throw). */
  exists(path: string): Promise<boolean> {
    return attempt(() => this.#tree.lookup(this.#resolve(path, 'stat')) !== undefined);
  }

  /** Describes the file or directory at `path`. */
  stat(path: string): Promise<FileStat> {
    return attempt(() => {
      const segments = this.#resolve(path, 'stat');
      const node = this.#tree.lookup(segments);
      if (node === undefined) throw notFound('stat', path);
      return describeNode(segments, node);
    });
  }

  /** The entries of a directory (default the root), sorted by name. */
  list(path = '.'): Promise<readonly FileStat[]> {
    return attempt(() => {
      const segments = this.#resolve(path, 'list');
      const dir = this.#tree.directory(segments, path, 'list');
      return [...dir.entries]
        .sort(([a], [b]) => compareNames(a, b))
        .map(([name, node]) => describeNode([...segments, name], node));
    });
  }

  /** Paths of the files matching `pattern` below `options.path`, sorted. */
  glob(pattern: string, options: GlobOptions = {}): Promise<readonly string[]> {
    return attempt(() => {
      const base = this.#resolve(options.path ?? '.', 'glob');
      const matcher = compileGlobFilter(pattern, 'glob');
      const dir = this.#tree.directory(base, options.path ?? '.', 'glob');
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
      const most = grepMatchCap(options.maxMatches, this.limits.maxGrepMatches, where);
      const filter =
        options.glob === undefined ? undefined : compileGlobFilter(options.glob, 'grep');
      const node = this.#tree.lookup(base);
      if (node === undefined) throw notFound('grep', where);
      return { regex: matcher, cap: most, files: filesToGrep(base, node, filter) };
    });
    return grepFiles(files, regex, cap, options.signal);
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
      const file = this.#tree.file(segments, path, 'edit');
      const count = countEditReplacements(
        path,
        file,
        oldText,
        newText,
        options,
        this.limits.maxFileBytes,
      );
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
      const node = this.#tree.lookup(segments);
      if (node === undefined) throw notFound('remove', path);
      if (node.kind === 'dir' && node.entries.size > 0 && options.recursive !== true) {
        throw fsError(
          'remove',
          path,
          'directory_not_empty',
          'the directory is not empty. Pass recursive: true to remove it with everything in it.',
        );
      }
      const { files, bytes } = tallyFiles(node);
      const totals = {
        files: this.#tree.state.files - files,
        bytes: this.#tree.state.bytes - bytes,
      };
      this.#tree.update(segments, undefined, totals, 'remove', path, false);
    });
  }

  /** Creates a directory and any missing parents. */
  mkdir(path: string): Promise<void> {
    return attempt(() => {
      this.#writable('mkdir', path);
      const segments = this.#resolve(path, 'mkdir');
      const existing = this.#tree.lookup(segments);
      if (existing?.kind === 'dir') return;
      if (existing !== undefined) {
        throw fsError('mkdir', path, 'already_exists', 'a file exists at this path.');
      }
      this.#tree.update(segments, this.#tree.newDir(), this.#tree.state, 'mkdir', path, true);
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
    const existing = this.#tree.lookup(segments);
    const planned = planWrite(
      operation,
      path,
      content,
      mode,
      existing,
      this.#tree.state,
      this.limits,
    );
    const file: FileNode = { kind: 'file', content: planned.content, bytes: planned.bytes };
    const totals = { files: planned.files, bytes: planned.total };
    this.#tree.update(segments, file, totals, operation, path, createParents);
    return { path: joinPath(segments), created: existing === undefined, size: planned.bytes };
  }

  #resolve(path: string, operation: FilesystemOperation): string[] {
    return resolvePath(path, this.root, operation, this.limits);
  }

  #writable(operation: FilesystemOperation, path: string): void {
    // A tool call that was rolled back must not bring its changes back by writing late.
    assertCallOpen(() => `a write to the filesystem (${operation} ${path})`);
    if (this.readOnly) {
      throw fsError(operation, path, 'read_only', 'the filesystem is read-only.');
    }
  }
}

/** Runs a synchronous operation as a promise, so its errors become rejections. */
function attempt<T>(operation: () => T): Promise<T> {
  return new Promise((resolve) => {
    resolve(operation());
  });
}
