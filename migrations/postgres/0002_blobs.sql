-- affordance: the table of PostgresBlobStore (affordance/durable): the bytes of images, documents and audio that
-- sessions refer to by hash (events hold a MediaRef: hash, media type, size; never the bytes).
--
-- Placeholder: {{table_prefix}} stands for the table prefix, as in 0001_sessions.sql.

-- One row per blob, keyed by the hash of its bytes ("sha256:" and 64 hex digits), so equal media are stored once.
CREATE TABLE {{table_prefix}}blobs (
  hash text PRIMARY KEY CHECK (hash ~ '^sha256:[0-9a-f]{64}$'),
  media_type text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Images, PDFs and audio are compressed already: keep them out of line without trying to compress them again.
ALTER TABLE {{table_prefix}}blobs ALTER COLUMN bytes SET STORAGE EXTERNAL;
