/** One params class of the schema zoo, with payloads ajv and the parser must agree on. */
export interface ZooEntry {
  /** File stem of the expected schemas under test/fixtures/schemas/. */
  readonly name: string;
  readonly params: new () => object;
  /** Payloads both the standard schema and parseToolArguments accept. */
  readonly valid: readonly unknown[];
  /** Payloads both reject, for constraints the standard schema expresses. */
  readonly invalid: readonly unknown[];
}
