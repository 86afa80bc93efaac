/**
 * The statements of a `PostgresSessionStore`, for one table prefix. A commit
 * is one statement ({@link PostgresSessionSql.commit}), hence one round trip
 * and its own transaction.
 */
export interface PostgresSessionSql {
  /** `$1` session id: one row whose `session` column is the whole session as JSON text. */
  readonly load: string;
  /** The names statements are prepared under, unique to the table prefix. */
  readonly names: { readonly load: string };
  /**
   * The statement of one commit and its parameters: it creates the session
   * (`expected` 0) or bumps its version when it still equals `expected`,
   * returning the new version, and then writes the change; it returns no row,
   * having written nothing, when the session exists (creation) or its version
   * is another. `slicesExist`: every slice of `plan.names` is known to have
   * its row with that policy, so the statement does not upsert them.
   */
  commit(
    sessionId: string,
    expected: number,
    created: Creation,
    plan: CommitColumns,
    slicesExist: boolean,
  ): SqlQuery;
  /** `$1` session id: the stored version, read after a refused commit. */
  readonly version: string;
  /** `$1` session id: deletes the session; its slices, values and records go with it. */
  readonly delete: string;
}

/** A statement with its parameters, and the name it is prepared under. */
export interface SqlQuery {
  readonly name: string;
  readonly text: string;
  readonly values: readonly unknown[];
}

/** What a new session is created with. */
export interface Creation {
  readonly createdAt: string;
  /** JSON text. */
  readonly tags: string;
}

/** A change as the columns of set-based statements. */
export interface CommitColumns {
  /** Every slice written, once each, in the order first met (replaced ones first). */
  readonly names: readonly string[];
  /** The policy of each of `names`: the last one given. */
  readonly policies: readonly string[];
  /** The slices replaced: their values are removed before `values` are added. */
  readonly replaced: readonly string[];
  /** The slice of each of `values`. */
  readonly valueSlices: readonly string[];
  /** Values to add, as JSON text, in order (replacements, then appends). */
  readonly values: readonly string[];
  readonly setKeys: readonly string[];
  /** JSON text. */
  readonly setValues: readonly string[];
  readonly deletedKeys: readonly string[];
}

interface Tables {
  readonly sessions: string;
  readonly slices: string;
  readonly values: string;
  readonly records: string;
}

/** The writes a commit has, as bits of the key its statement is cached under. */
const Part = {
  Slices: 1,
  Replaced: 2,
  Values: 4,
  SetRecords: 8,
  DeletedRecords: 16,
  /** Every value goes to one slice: numbered from that slice's last, with no join. */
  OneSlice: 32,
} as const;

/**
 * Writes the statement of a commit: `claim` (a data-modifying CTE returning
 * the new `version` only when the session may be written), then only the
 * writes the change has, each conditional on that row, so a refused claim
 * writes nothing. They run in one statement, hence atomically, and the
 * foreign keys between them are checked at its end. A slice's policy is
 * rewritten only when it changes, so an append does not rewrite its slice row.
 * A replaced slice's new values are numbered after its old ones (the numbers
 * keep the order; gaps are allowed).
 */
function commitText(tables: Tables, creates: boolean, parts: number): string {
  const { sessions, slices, values, records } = tables;
  const claimed = 'EXISTS (SELECT FROM claim)';
  let next = 1;
  const param = (): string => `$${++next}`;
  const ctes = [
    creates
      ? `claim AS (INSERT INTO ${sessions} (session_id, version, created_at, tags)
          VALUES ($1, 1, ${param()}, ${param()}::json) ON CONFLICT (session_id) DO NOTHING RETURNING version)`
      : `claim AS (UPDATE ${sessions} SET version = version + 1, updated_at = now()
          WHERE session_id = $1 AND version = ${param()}::bigint RETURNING version)`,
  ];
  if (parts & Part.Slices) {
    ctes.push(`slices_written AS (
      INSERT INTO ${slices} AS sl (session_id, name, policy, position)
      SELECT $1, s.name, s.policy, coalesce((SELECT max(position) FROM ${slices} WHERE session_id = $1), 0) + s.ord
      FROM unnest(${param()}::text[], ${param()}::text[]) WITH ORDINALITY AS s(name, policy, ord)
      WHERE ${claimed}
      ON CONFLICT (session_id, name) DO UPDATE SET policy = EXCLUDED.policy
        WHERE sl.policy <> EXCLUDED.policy)`);
  }
  if (parts & Part.Replaced) {
    ctes.push(`values_cleared AS (
      DELETE FROM ${values} WHERE session_id = $1 AND slice = ANY(${param()}::text[]) AND ${claimed})`);
  }
  if (parts & Part.Values && parts & Part.OneSlice) {
    const slice = param();
    ctes.push(`values_added AS (
      INSERT INTO ${values} (session_id, slice, seq, value)
      SELECT $1, ${slice}, coalesce((SELECT max(seq) FROM ${values} WHERE session_id = $1 AND slice = ${slice}), 0) + v.ord, v.value::json
      FROM unnest(${param()}::text[]) WITH ORDINALITY AS v(value, ord)
      WHERE ${claimed})`);
  } else if (parts & Part.Values) {
    ctes.push(
      `v AS (SELECT * FROM unnest(${param()}::text[], ${param()}::text[]) WITH ORDINALITY AS v(slice, value, ord))`,
      `last AS (
        SELECT d.slice, (SELECT max(seq) FROM ${values} WHERE session_id = $1 AND slice = d.slice) AS seq
        FROM (SELECT DISTINCT slice FROM v) d)`,
      `values_added AS (
        INSERT INTO ${values} (session_id, slice, seq, value)
        SELECT $1, v.slice, coalesce(last.seq, 0) + v.ord, v.value::json FROM v JOIN last ON last.slice = v.slice
        WHERE ${claimed})`,
    );
  }
  if (parts & Part.SetRecords) {
    ctes.push(`records_set AS (
      INSERT INTO ${records} (session_id, key, value)
      SELECT $1, r.key, r.value::json FROM unnest(${param()}::text[], ${param()}::text[]) AS r(key, value)
      WHERE ${claimed}
      ON CONFLICT (session_id, key) DO UPDATE SET value = EXCLUDED.value)`);
  }
  if (parts & Part.DeletedRecords) {
    ctes.push(`records_deleted AS (
      DELETE FROM ${records} WHERE session_id = $1 AND key = ANY(${param()}::text[]) AND ${claimed})`);
  }
  return `WITH ${ctes.join(',\n')}\nSELECT version::text AS version FROM claim`;
}

/**
 * The statements of a `PostgresSessionStore` on the tables of
 * `migrations/postgres/` created with `prefix` (already checked).
 */
export function postgresSessionSql(prefix: string): PostgresSessionSql {
  const tables: Tables = {
    sessions: `${prefix}sessions`,
    slices: `${prefix}session_slices`,
    values: `${prefix}session_values`,
    records: `${prefix}session_records`,
  };
  // At most 128 texts: whether the commit creates the session, which of the five writes it has, and
  // whether its values go to one slice.
  const texts = new Map<number, string>();
  return {
    load: loadSql(tables.sessions, tables.slices, tables.values, tables.records),
    names: { load: `${prefix}load` },
    commit(sessionId, expected, created, plan, slicesExist) {
      const creates = expected === 0;
      const values: unknown[] = creates
        ? [sessionId, created.createdAt, created.tags]
        : [sessionId, expected];
      let parts = 0;
      if (plan.names.length > 0 && !slicesExist) {
        parts |= Part.Slices;
        values.push(plan.names, plan.policies);
      }
      if (plan.replaced.length > 0) {
        parts |= Part.Replaced;
        values.push(plan.replaced);
      }
      if (plan.values.length > 0) {
        parts |= Part.Values;
        const [first] = plan.valueSlices;
        if (plan.valueSlices.every((slice) => slice === first)) {
          parts |= Part.OneSlice;
          values.push(first, plan.values);
        } else {
          values.push(plan.valueSlices, plan.values);
        }
      }
      if (plan.setKeys.length > 0) {
        parts |= Part.SetRecords;
        values.push(plan.setKeys, plan.setValues);
      }
      if (plan.deletedKeys.length > 0) {
        parts |= Part.DeletedRecords;
        values.push(plan.deletedKeys);
      }
      const key = parts * 2 + (creates ? 1 : 0);
      let text = texts.get(key);
      if (text === undefined) {
        text = commitText(tables, creates, parts);
        texts.set(key, text);
      }
      return { name: `${prefix}commit_${key}`, text, values };
    },
    version: `SELECT version::text AS version FROM ${tables.sessions} WHERE session_id = $1`,
    delete: `DELETE FROM ${tables.sessions} WHERE session_id = $1`,
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
