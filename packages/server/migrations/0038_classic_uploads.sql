-- Creator image uploads of the Classic API (`POST /classic/image/upload`):
-- the bytes live in the database, so every replica serves every upload
-- (`GET /classic/uploads/{id}`). An upload belongs to the account that sent
-- it and is deleted with it; nothing else expires it. Identical bytes sent
-- again by the same account are the same upload (the unique index).
CREATE TABLE classic_uploads (
  id            text        PRIMARY KEY,
  account_id    text        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  bytes         bytea       NOT NULL,
  content_type  text        NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp')),
  sha256        text        NOT NULL,
  size          integer     NOT NULL CHECK (size > 0),
  width         integer     NOT NULL CHECK (width > 0),
  height        integer     NOT NULL CHECK (height > 0),
  filename      text        NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL
);
-- The per-account dedupe rule.
CREATE UNIQUE INDEX classic_uploads_account_sha256 ON classic_uploads (account_id, sha256);
-- The rolling 24-hour count and bytes of an account (the upload limit).
CREATE INDEX classic_uploads_account_created ON classic_uploads (account_id, created_at);
