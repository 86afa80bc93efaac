/** One part of a JSON Schema that JSON Schema params cannot validate. */
export interface JsonSchemaProblem {
  /** JSON pointer to the (sub)schema holding the keyword, e.g. `/properties/tags/items`; `''` for the root. */
  readonly pointer: string;
  /** The keyword at fault: `$ref`, `pattern`, `format`... */
  readonly keyword: string;
  /** What is wrong, in one sentence. */
  readonly message: string;
}

/** `problems` as one line: `pointer keyword (message)`, `;`-separated. @internal */
export function describeProblems(problems: readonly JsonSchemaProblem[]): string {
  return problems.map((p) => `${p.pointer || '/'} ${p.keyword} (${p.message})`).join('; ');
}
