import { ResourceToken } from './resource-key.js';

/** How `write` treats an existing file. */
export type WriteMode = 'create' | 'overwrite' | 'append';

/** Options of {@link Filesystem.read}. */
export interface ReadOptions {
  /** First line to return, counting from 0. Defaults to 0. */
  readonly offset?: number;
  /** Most lines to return; `Infinity` for the rest of the file. Defaults to 2000. */
  readonly limit?: number;
}

/** A window of a text file's lines. */
export interface FileRead {
  /** Normalised path, relative to the root. */
  readonly path: string;
  /** The lines read, joined by `\n` (with the final newline when the window reaches the end). */
  readonly content: string;
  /** First line returned, counting from 0. */
  readonly offset: number;
  /** Number of lines returned. */
  readonly lineCount: number;
  /** Number of lines in the file. */
  readonly totalLines: number;
  /** Offset of the first line not returned, when the window stopped before the end. */
  readonly nextOffset: number | undefined;
}

/** Options of {@link Filesystem.write}. */
export interface WriteOptions {
  /** `create` (default) fails if the file exists; `overwrite` replaces it; `append` adds to it. */
  readonly mode?: WriteMode;
  /** Create missing parent directories (default `true`). */
  readonly createParents?: boolean;
}

/** What a write did. */
export interface WriteResult {
  /** Normalised path, relative to the root. */
  readonly path: string;
  /** Whether the file was created by this write. */
  readonly created: boolean;
  /** Size of the file afterwards, in UTF-8 bytes. */
  readonly size: number;
}

/** Options of {@link Filesystem.edit}. */
export interface EditOptions {
  /** Replace every occurrence instead of requiring exactly one. */
  readonly replaceAll?: boolean;
}

/** What an edit did. */
export interface EditResult {
  /** Normalised path, relative to the root. */
  readonly path: string;
  /** Number of occurrences replaced. */
  readonly replacements: number;
  /** Size of the file afterwards, in UTF-8 bytes. */
  readonly size: number;
}

/** A file or a directory. */
export type EntryKind = 'file' | 'directory';

/** One entry of a directory listing, or the result of `stat`. */
export interface FileStat {
  /** Normalised path, relative to the root (`.` for the root). */
  readonly path: string;
  /** The entry's name (`.` for the root). */
  readonly name: string;
  /** File or directory. */
  readonly kind: EntryKind;
  /** UTF-8 bytes of a file; number of entries of a directory. */
  readonly size: number;
}

/** Options of {@link Filesystem.glob}. */
export interface GlobOptions {
  /** Directory the pattern is relative to (default the root). */
  readonly path?: string;
}

/** Options of {@link Filesystem.grep}. */
export interface GrepOptions {
  /** Directory or file to search (default the root). */
  readonly path?: string;
  /** Only search files matching this glob, relative to `path`. */
  readonly glob?: string;
  /** Stop after this many matches (default and upper bound: the filesystem's limit). */
  readonly maxMatches?: number;
  /** Match case-insensitively (for string patterns). */
  readonly ignoreCase?: boolean;
  /**
   * Stops the search (rejecting with the signal's reason) once it aborts. A
   * long search yields to the event loop as it goes, so the signal — and
   * everything else the process runs — gets its turn.
   */
  readonly signal?: AbortSignal;
}

/** One matching line. */
export interface GrepMatch {
  /** Normalised path of the file. */
  readonly path: string;
  /** Line number, counting from 1. */
  readonly line: number;
  /** The line's text. */
  readonly text: string;
}

/** The matches of a grep, sorted by path then line. */
export interface GrepResult {
  /** The matches found, at most `maxMatches`. */
  readonly matches: readonly GrepMatch[];
  /** Whether the search stopped at `maxMatches`. */
  readonly truncated: boolean;
}

/** Options of {@link Filesystem.remove}. */
export interface RemoveOptions {
  /** Remove a non-empty directory with everything in it. */
  readonly recursive?: boolean;
}

/**
 * A sandboxed tree of UTF-8 text files that tools read and write. Paths are
 * relative to `root` (absolute paths must lie inside it); every method rejects
 * a path that escapes the root with a `FilesystemError`.
 */
export interface Filesystem {
  /** The absolute path the filesystem presents as its root. */
  readonly root: string;
  /** Whether every write is refused. */
  readonly readOnly: boolean;
  /** Reads a window of lines from a file. */
  read(path: string, options?: ReadOptions): Promise<FileRead>;
  /** Reads a whole file. */
  readText(path: string): Promise<string>;
  /** Whether a file or directory exists at `path`. */
  exists(path: string): Promise<boolean>;
  /** Describes the file or directory at `path`. */
  stat(path: string): Promise<FileStat>;
  /** The entries of a directory, sorted by name. */
  list(path?: string): Promise<readonly FileStat[]>;
  /** Paths of the files matching a glob (`*`, `?`, `**`, `[abc]`, `{a,b}`), sorted. */
  glob(pattern: string, options?: GlobOptions): Promise<readonly string[]>;
  /**
   * Lines matching a regular expression, sorted by path then line. A string
   * pattern may come from a model: match it in linear time (the in-memory
   * filesystem uses RE2); a `RegExp` comes from the calling code.
   */
  grep(pattern: string | RegExp, options?: GrepOptions): Promise<GrepResult>;
  /** Creates, overwrites or appends to a file. */
  write(path: string, content: string, options?: WriteOptions): Promise<WriteResult>;
  /** Replaces exact text in a file: one unique occurrence, or all with `replaceAll`. */
  edit(path: string, oldText: string, newText: string, options?: EditOptions): Promise<EditResult>;
  /** Removes a file, or a directory (non-empty ones only with `recursive`). */
  remove(path: string, options?: RemoveOptions): Promise<void>;
  /** Creates a directory and any missing parents; does nothing if it exists. */
  mkdir(path: string): Promise<void>;
}

/** The resource key of the filesystem tools use: `registry.bind(Filesystem, {...})`. */
export const Filesystem = new ResourceToken<Filesystem>('Filesystem');
