/** What a PostgreSQL query answers: the rows, each a record of column values. */
export interface PostgresQueryResult {
  /** The rows returned, keyed by column name. */
  readonly rows: readonly Record<string, unknown>[];
}

/**
 * One connection checked out of a {@link PostgresPool}, used for a
 * transaction. A `pg.PoolClient` fits.
 */
export interface PostgresClient {
  /** Runs one statement; `$1`, `$2`... in `text` take `values` in order. */
  query(text: string, values?: readonly unknown[]): Promise<PostgresQueryResult>;
  /** Gives the connection back; `true` or an error destroys it instead (it may be broken). */
  release(destroy?: boolean | Error): void;
}

/**
 * A statement to prepare once per connection under `name` and run with
 * `values`: node-postgres's query config object.
 */
export interface PostgresPreparedQuery {
  readonly name: string;
  readonly text: string;
  readonly values: readonly unknown[];
}

/**
 * The part of a PostgreSQL connection pool affordance uses, so that the
 * package never loads a driver itself: pass a `pg.Pool` (node-postgres), or
 * anything with the same `query` and `connect`.
 */
export interface PostgresPool {
  /**
   * Runs one statement on any free connection. `PostgresSessionStore` passes
   * a {@link PostgresPreparedQuery} instead of text unless its option
   * `prepare` is `false`.
   */
  query(
    text: string | PostgresPreparedQuery,
    values?: readonly unknown[],
  ): Promise<PostgresQueryResult>;
  /** Checks out one connection, for a transaction; release it when done. */
  connect(): Promise<PostgresClient>;
}
