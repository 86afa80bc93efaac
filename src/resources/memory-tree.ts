import type { FilesystemOperation } from '../core/errors/filesystem-error.js';
import { joinPath } from './filesystem-path.js';
import { fsError, notFound } from './fs-error.js';
import type { DirNode, FileNode, MemoryNode, TreeState } from './memory-node.js';

/**
 * The directory tree of an `InMemoryFilesystem`, copied on write.
 * Directories are shared between versions and copied only when first written
 * after a snapshot, so `snapshot()` and `restore()` take constant time however
 * many files there are, and file contents are never copied. @internal
 */
export class MemoryTree {
  #epoch: object = {};
  #state: TreeState;

  constructor() {
    this.#state = {
      root: { kind: 'dir', entries: new Map(), owner: this.#epoch },
      files: 0,
      bytes: 0,
    };
  }

  /** The current version. */
  get state(): TreeState {
    return this.#state;
  }

  /** The current version, which later writes leave unchanged. */
  snapshot(): TreeState {
    this.#epoch = {};
    return this.#state;
  }

  /** Makes `state` the current version; later writes leave `state` unchanged. */
  restore(state: TreeState): void {
    this.#epoch = {};
    this.#state = state;
  }

  /** The node at `segments`, if there is one. */
  lookup(segments: readonly string[]): MemoryNode | undefined {
    let node: MemoryNode = this.#state.root;
    for (const segment of segments) {
      if (node.kind !== 'dir') return undefined;
      const next: MemoryNode | undefined = node.entries.get(segment);
      if (next === undefined) return undefined;
      node = next;
    }
    return node;
  }

  /** The file at `segments`; throws if there is none or it is a directory. */
  file(segments: readonly string[], path: string, operation: FilesystemOperation): FileNode {
    const node = this.lookup(segments);
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

  /** The directory at `segments`; throws if there is none or it is a file. */
  directory(segments: readonly string[], path: string, operation: FilesystemOperation): DirNode {
    const node = this.lookup(segments);
    if (node === undefined) throw notFound(operation, path);
    if (node.kind !== 'dir') {
      throw fsError(operation, path, 'not_a_directory', 'this is a file, not a directory.');
    }
    return node;
  }

  /** A new empty directory, writable in place until the next snapshot. */
  newDir(): DirNode {
    return { kind: 'dir', entries: new Map(), owner: this.#epoch };
  }

  /**
   * Stores `node` at `segments`, or removes the entry there if `node` is
   * `undefined`, and makes the result the current version with the given
   * totals. Directories shared with a snapshot are copied on the way down;
   * missing parents are created if `createParents` allows, else refused.
   */
  update(
    segments: readonly string[],
    node: MemoryNode | undefined,
    totals: { readonly files: number; readonly bytes: number },
    operation: FilesystemOperation,
    path: string,
    createParents: boolean,
  ): void {
    const { root, parent } = this.#mutableParent(segments, operation, path, createParents);
    const name = segments.at(-1) ?? '';
    if (node === undefined) parent.entries.delete(name);
    else parent.entries.set(name, node);
    this.#state = { root, files: totals.files, bytes: totals.bytes };
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
    let probe: DirNode = this.#state.root;
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
    const root = this.#own(this.#state.root);
    let dir = root;
    for (const segment of segments.slice(0, -1)) {
      const child = dir.entries.get(segment);
      const owned = child === undefined ? this.newDir() : this.#own(child as DirNode);
      if (owned !== child) dir.entries.set(segment, owned);
      dir = owned;
    }
    return { root, parent: dir };
  }

  #own(dir: DirNode): DirNode {
    return dir.owner === this.#epoch
      ? dir
      : { kind: 'dir', entries: new Map(dir.entries), owner: this.#epoch };
  }
}
