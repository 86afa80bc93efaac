/** What one state of a {@link GlobMatcher} accepts. @internal */
export type GlobStep =
  /** Consumes this one code point. */
  | { readonly kind: 'char'; readonly codePoint: number }
  /** Consumes any code point but `/`. */
  | { readonly kind: 'segment_char' }
  /** Consumes any code point, `/` included. */
  | { readonly kind: 'any_char' }
  /** Consumes a code point inside (or, negated, outside) the inclusive ranges; negated never takes `/`. */
  | { readonly kind: 'class'; readonly ranges: readonly number[]; readonly negated: boolean }
  /** Consumes nothing and goes on to every listed state. */
  | { readonly kind: 'fork' }
  /** The whole path matched. */
  | { readonly kind: 'accept' };

/** A state of a {@link GlobMatcher}: what it accepts and where it goes next. @internal */
export interface GlobState {
  readonly step: GlobStep;
  /** Next states (one for consuming steps, any number for `fork`, none for `accept`). */
  readonly next: number[];
}

const SLASH = 0x2f;

/**
 * Matches paths against a compiled glob by running its automaton over the
 * path with a set of active states (Thompson's construction), so a test costs
 * O(path length × states) whatever the pattern: there is no backtracking to
 * blow up. Build one with `compileGlob`. @internal
 */
export class GlobMatcher {
  /** Number of states of the automaton. */
  readonly stateCount: number;
  /** States plus edges: the most steps one code point of a path can cost. */
  readonly size: number;
  readonly #states: readonly GlobState[];
  readonly #start: number;
  readonly #seen: Int32Array;
  #generation = 0;
  #steps = 0;

  constructor(states: readonly GlobState[], start: number) {
    this.#states = states;
    this.#start = start;
    this.stateCount = states.length;
    this.size = states.reduce((sum, state) => sum + 1 + state.next.length, 0);
    this.#seen = new Int32Array(states.length);
  }

  /**
   * Work done by every `test` so far: one step per state entered or per
   * edge followed. Each test adds at most (code points of the path + 1) × {@link size}.
   */
  get steps(): number {
    return this.#steps;
  }

  /** Whether the whole of `path` matches the glob. */
  test(path: string): boolean {
    let active = this.#closure([this.#start]);
    for (const char of path) {
      if (active.length === 0) return false;
      const codePoint = char.codePointAt(0) ?? 0;
      const targets: number[] = [];
      for (const id of active) {
        const state = this.#states[id] as GlobState;
        this.#steps++;
        if (accepts(state.step, codePoint)) targets.push(...state.next);
      }
      active = this.#closure(targets);
    }
    return active.some((id) => (this.#states[id] as GlobState).step.kind === 'accept');
  }

  /** The consuming and accepting states reachable from `ids` without consuming anything. */
  #closure(ids: readonly number[]): number[] {
    const generation = ++this.#generation;
    const found: number[] = [];
    const pending = [...ids].reverse();
    for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
      this.#steps++;
      if (this.#seen[id] === generation) continue;
      this.#seen[id] = generation;
      const state = this.#states[id] as GlobState;
      if (state.step.kind !== 'fork') {
        found.push(id);
        continue;
      }
      for (let i = state.next.length - 1; i >= 0; i--) pending.push(state.next[i] as number);
    }
    return found;
  }
}

function accepts(step: GlobStep, codePoint: number): boolean {
  switch (step.kind) {
    case 'char':
      return step.codePoint === codePoint;
    case 'segment_char':
      return codePoint !== SLASH;
    case 'any_char':
      return true;
    case 'class': {
      if (step.negated && codePoint === SLASH) return false;
      let inside = false;
      for (let i = 0; i < step.ranges.length && !inside; i += 2) {
        inside =
          codePoint >= (step.ranges[i] as number) && codePoint <= (step.ranges[i + 1] as number);
      }
      return inside !== step.negated;
    }
    case 'fork':
    case 'accept':
      return false;
  }
}
