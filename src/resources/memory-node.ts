import type { FileStat } from './filesystem.js';
import { joinPath } from './filesystem-path.js';

/** A file of a `MemoryTree`: immutable, so versions of the tree share it. @internal */
export interface FileNode {
  readonly kind: 'file';
  readonly content: string;
  readonly bytes: number;
}

/** A directory of a `MemoryTree`. @internal */
export interface DirNode {
  readonly kind: 'dir';
  readonly entries: Map<string, MemoryNode>;
  /** The write epoch that may mutate this directory in place; any other must copy it first. */
  readonly owner: object;
}

/** A file or directory of a `MemoryTree`. @internal */
export type MemoryNode = FileNode | DirNode;

/** One version of a `MemoryTree`: its root and running totals. @internal */
export interface TreeState {
  readonly root: DirNode;
  readonly files: number;
  readonly bytes: number;
}

/** Calls `visit` for every file below `dir`, with its path relative to `dir`. @internal */
export function walkFiles(
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

/** The {@link FileStat} of the node at `segments`. @internal */
export function describeNode(segments: readonly string[], node: MemoryNode): FileStat {
  return {
    path: joinPath(segments),
    name: segments.at(-1) ?? '.',
    kind: node.kind === 'file' ? 'file' : 'directory',
    size: node.kind === 'file' ? node.bytes : node.entries.size,
  };
}

/** Orders names by UTF-16 code units, the same on every platform and locale. @internal */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The number of files at or below `node` and the sum of their sizes. @internal */
export function tallyFiles(node: MemoryNode): { files: number; bytes: number } {
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
  return { files, bytes };
}
