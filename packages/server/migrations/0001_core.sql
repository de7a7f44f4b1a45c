-- Core platform tables: API keys and idempotent write records.

CREATE TABLE api_keys (
  id          text PRIMARY KEY,
  -- SHA-256 of the full key, hex. The key itself is never stored.
  hash        text NOT NULL UNIQUE,
  -- The first characters of the key, shown to operators to tell keys apart.
  prefix      text NOT NULL,
  description text NOT NULL CHECK (char_length(description) BETWEEN 1 AND 500),
  email       text NOT NULL,
  multiplier  integer NOT NULL DEFAULT 1 CHECK (multiplier BETWEEN 1 AND 1000000),
  revoked     boolean NOT NULL DEFAULT false,
  revoked_at  timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX api_keys_created_at ON api_keys (created_at, id);

CREATE TABLE idempotency_records (
  -- Who sent the key: an API key id, or the client IP for keyless routes.
  scope           text NOT NULL,
  idempotency_key text NOT NULL,
  -- SHA-256 over method, path and body of the first request.
  fingerprint     text NOT NULL,
  state           text NOT NULL CHECK (state IN ('pending', 'done')),
  status          integer,
  headers         jsonb,
  body            text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  PRIMARY KEY (scope, idempotency_key)
);

CREATE INDEX idempotency_records_expires_at ON idempotency_records (expires_at);
