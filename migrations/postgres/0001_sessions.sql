-- affordance: tables of PostgresSessionStore (affordance/durable).
--
-- Placeholder: every table name below starts with {{table_prefix}}, which stands for the table prefix
-- (default "affordance_"; it must match ^[a-z_][a-z0-9_]{0,40}$). applyPostgresMigrations and the
-- affordance-migrate CLI replace it before running this file. To apply the file with another migration tool,
-- replace every {{table_prefix}} with your prefix first, e.g. sed 's/{{table_prefix}}/affordance_/g'.
--
-- Values and records are `json`, not `jsonb`: `json` keeps the text exactly as written (key order, "\u0000",
-- any escaped character), so a session loads exactly as it was committed.

-- One row per session; `version` counts the commits applied (optimistic concurrency).
CREATE TABLE {{table_prefix}}sessions (
  session_id text PRIMARY KEY,
  version bigint NOT NULL CHECK (version > 0),
  created_at text NOT NULL,
  tags json NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The slices of each session, with the order they were first written in (`position`) and their last policy.
CREATE TABLE {{table_prefix}}session_slices (
  session_id text NOT NULL REFERENCES {{table_prefix}}sessions (session_id) ON DELETE CASCADE,
  name text NOT NULL,
  policy text NOT NULL CHECK (policy IN ('log', 'state')),
  position bigint NOT NULL,
  PRIMARY KEY (session_id, name)
);

-- The values of each slice, in the order of `seq` (increasing within a slice; gaps are allowed).
CREATE TABLE {{table_prefix}}session_values (
  session_id text NOT NULL,
  slice text NOT NULL,
  seq bigint NOT NULL,
  value json NOT NULL,
  PRIMARY KEY (session_id, slice, seq),
  FOREIGN KEY (session_id, slice)
    REFERENCES {{table_prefix}}session_slices (session_id, name) ON DELETE CASCADE
);

-- Named JSON records kept with a session (e.g. a worker's checkpoint).
CREATE TABLE {{table_prefix}}session_records (
  session_id text NOT NULL REFERENCES {{table_prefix}}sessions (session_id) ON DELETE CASCADE,
  key text NOT NULL,
  value json NOT NULL,
  PRIMARY KEY (session_id, key)
);
