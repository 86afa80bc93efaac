import type { TreeState } from './memory-node.js';

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
