-- Classic API bearer tokens (issue 14): a fourth session kind in the same
-- table, so sign-out, wallet unlinking and account deletion revoke them like
-- the market's sessions, and only the SHA-256 of a token is ever stored.
ALTER TABLE sessions DROP CONSTRAINT sessions_kind_check;
ALTER TABLE sessions ADD CONSTRAINT sessions_kind_check
  CHECK (kind IN ('account', 'chat', 'access', 'classic'));
