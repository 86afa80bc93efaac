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
 * The part of a PostgreSQL connection pool affordance uses, so that the
 * package never loads a driver itself: pass a `pg.Pool` (node-postgres), or
 * anything with the same `query` and `connect`.
 */
export interface PostgresPool {
  /** Runs one statement on any free connection. */
  query(text: string, values?: readonly unknown[]): Promise<PostgresQueryResult>;
  /** Checks out one connection, for a transaction; release it when done. */
  connect(): Promise<PostgresClient>;
}
