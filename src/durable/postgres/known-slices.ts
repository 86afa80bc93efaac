/** What a store knows of one session's slice rows, at one version. */
interface Known {
  readonly version: number;
  /** Slice name → policy of the rows that exist. */
  readonly slices: ReadonlyMap<string, string>;
}

/**
 * The slice rows a `PostgresSessionStore` knows exist, per session, as of the
 * version it last loaded or committed: a commit that expects that version and
 * writes only slices known with the same policy need not upsert their rows
 * (slice rows are removed only with their session). Bounded: the sessions
 * least recently seen are forgotten past `limit`, and forgetting only costs
 * the generic statement. @internal
 */
export class KnownSlices {
  readonly #sessions = new Map<string, Known>();
  readonly #limit: number;

  constructor(limit = 1_000) {
    this.#limit = limit;
  }

  /** Whether every one of `names` (with `policies`) is known to exist at `version`. */
  covers(
    sessionId: string,
    version: number,
    names: readonly string[],
    policies: readonly string[],
  ): boolean {
    const known = this.#sessions.get(sessionId);
    if (known?.version !== version || names.length === 0) return false;
    return names.every((name, index) => known.slices.get(name) === policies[index]);
  }

  /** The session was loaded at `version` with the slices `slices` (name, policy). */
  loaded(sessionId: string, version: number, slices: Iterable<readonly [string, string]>): void {
    this.#remember(sessionId, { version, slices: new Map(slices) });
  }

  /**
   * A commit that expected `expected` stored `version`, writing the slices
   * `names` with `policies`: they exist now, beside those known at `expected`.
   */
  committed(
    sessionId: string,
    expected: number,
    version: number,
    names: readonly string[],
    policies: readonly string[],
  ): void {
    const before = this.#sessions.get(sessionId);
    const slices = new Map(before?.version === expected ? before.slices : undefined);
    names.forEach((name, index) => slices.set(name, policies[index] ?? ''));
    this.#remember(sessionId, { version, slices });
  }

  /** Forgets the session (deleted, or a commit on what was known failed). */
  forget(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  #remember(sessionId: string, known: Known): void {
    // Re-inserted last, so the first key is always the session seen least recently.
    this.#sessions.delete(sessionId);
    this.#sessions.set(sessionId, known);
    if (this.#sessions.size > this.#limit) {
      const oldest = this.#sessions.keys().next();
      if (oldest.done !== true) this.#sessions.delete(oldest.value);
    }
  }
}
