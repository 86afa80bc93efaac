import type fc from 'fast-check';

/** A params class of the compiled fast path's zoo, with a generator of valid arguments. */
export interface FastPathEntry {
  readonly name: string;
  readonly params: new () => object;
  /** Whether the fast path compiles the class (in both profiles). */
  readonly compilable: boolean;
  /** Arguments the class accepts, mostly: near-valid and garbage ones are derived from them. */
  readonly valid: fc.Arbitrary<Record<string, unknown>>;
}
