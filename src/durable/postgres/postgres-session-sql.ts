/** The statements of a `PostgresSessionStore`, for one table prefix. */
export interface PostgresSessionSql {
  /** `$1` session id: one row whose `session` column is the whole session as JSON text. */
  readonly load: string;
  /** `$1` session id, `$2` expected version: bumps the version, returning it, when it matches. */
  readonly bump: string;
  /** `$1` session id, `$2` created at, `$3` tags (JSON text): creates the session at version 1 unless it exists. */
  readonly create: string;
  /** `$1` session id: the stored version, read after a refused bump or create. */
  readonly version: string;
  /** `$1` session id, `$2` names, `$3` policies: adds slices after the existing ones, or sets their policy. */
  readonly upsertSlices: string;
  /** `$1` session id, `$2` slice names: removes every value of those slices. */
  readonly clearSlices: string;
  /** `$1` session id, `$2` slice of each value, `$3` values (JSON text): adds them after each slice's last value. */
  readonly insertValues: string;
  /** `$1` session id, `$2` keys, `$3` values (JSON text): sets records. */
  readonly upsertRecords: string;
  /** `$1` session id, `$2` keys: deletes records. */
  readonly deleteRecords: string;
  /** `$1` session id: deletes the session; its slices, values and records go with it. */
  readonly delete: string;
}

/**
 * The statements of a `PostgresSessionStore` on the tables of
 * `migrations/postgres/` created with `prefix` (already checked).
 */
export function postgresSessionSql(prefix: string): PostgresSessionSql {
  const sessions = `${prefix}sessions`;
  const slices = `${prefix}session_slices`;
  const values = `${prefix}session_values`;
  const records = `${prefix}session_records`;
  return {
    load: loadSql(sessions, slices, values, records),
    bump: `UPDATE ${sessions} SET version = version + 1, updated_at = now() WHERE session_id = $1 AND version = $2 RETURNING version::text AS version`,
    create: `INSERT INTO ${sessions} (session_id, version, created_at, tags) VALUES ($1, 1, $2, $3::json) ON CONFLICT (session_id) DO NOTHING RETURNING version::text AS version`,
    version: `SELECT version::text AS version FROM ${sessions} WHERE session_id = $1`,
    upsertSlices: `INSERT INTO ${slices} (session_id, name, policy, position)
      SELECT $1, s.name, s.policy, coalesce((SELECT max(position) FROM ${slices} WHERE session_id = $1), 0) + s.ord
      FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS s(name, policy, ord)
      ON CONFLICT (session_id, name) DO UPDATE SET policy = EXCLUDED.policy`,
    clearSlices: `DELETE FROM ${values} WHERE session_id = $1 AND slice = ANY($2::text[])`,
    insertValues: `WITH v AS (SELECT * FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS v(slice, value, ord)),
      last AS (SELECT d.slice, (SELECT max(seq) FROM ${values} WHERE session_id = $1 AND slice = d.slice) AS seq
        FROM (SELECT DISTINCT slice FROM v) d)
      INSERT INTO ${values} (session_id, slice, seq, value)
      SELECT $1, v.slice, coalesce(last.seq, 0) + v.ord, v.value::json FROM v JOIN last ON last.slice = v.slice`,
    upsertRecords: `INSERT INTO ${records} (session_id, key, value)
      SELECT $1, r.key, r.value::json FROM unnest($2::text[], $3::text[]) AS r(key, value)
      ON CONFLICT (session_id, key) DO UPDATE SET value = EXCLUDED.value`,
    deleteRecords: `DELETE FROM ${records} WHERE session_id = $1 AND key = ANY($2::text[])`,
    delete: `DELETE FROM ${sessions} WHERE session_id = $1`,
  };
}

/** One statement, hence one snapshot: the session row with its non-empty slices in order and its records. */
function loadSql(sessions: string, slices: string, values: string, records: string): string {
  return `SELECT json_build_object(
      'version', s.version,
      'createdAt', s.created_at,
      'tags', s.tags,
      'slices', coalesce((
        SELECT json_agg(json_build_array(sl.name, sl.policy, v.items) ORDER BY sl.position)
        FROM ${slices} sl
        CROSS JOIN LATERAL (
          SELECT json_agg(x.value ORDER BY x.seq) AS items FROM ${values} x
          WHERE x.session_id = sl.session_id AND x.slice = sl.name
        ) v
        WHERE sl.session_id = s.session_id AND v.items IS NOT NULL
      ), '[]'::json),
      'records', coalesce((
        SELECT json_object_agg(r.key, r.value) FROM ${records} r WHERE r.session_id = s.session_id
      ), '{}'::json)
    )::text AS session
    FROM ${sessions} s WHERE s.session_id = $1`;
}
