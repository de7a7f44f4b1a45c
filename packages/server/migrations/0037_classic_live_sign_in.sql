-- Sign-in challenges of the live-compatible classic sign-in
-- (GET /classic/auth/message/{address}, POST /classic/auth/verify-signature).
-- The verify request carries no nonce, so the server keeps the challenges it
-- issued, in the database so that any replica can verify them. Bounded: at
-- most 5 unexpired per address (issuing a sixth deletes the oldest), and
-- every issue deletes up to 100 expired rows: expired rows go faster than
-- rows come, so the table holds about the challenges of the last 10 minutes.
CREATE TABLE classic_sign_in_challenges (
  -- Issue order: "newest" and "oldest" of an address's challenges.
  id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- 64 lowercase hex digits, random. It is part of the signed text and no
  -- secret (the answer shows it), so it is kept as is to rebuild that text.
  nonce       text        NOT NULL UNIQUE,
  -- The wallet it was issued for (lowercase).
  address     text        NOT NULL,
  issued_at   timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL
);

-- Verify reads an address's unexpired challenges newest first; issue trims them.
CREATE INDEX classic_sign_in_challenges_address ON classic_sign_in_challenges (address, id DESC);
-- The sweep of expired rows.
CREATE INDEX classic_sign_in_challenges_expiry ON classic_sign_in_challenges (expires_at);

-- The slug a draft asks for: POST /classic/generate-slug and confirm's SLUG_TAKEN
-- look drafts up by it instead of scanning them.
CREATE INDEX classic_drafts_slug ON classic_drafts (chain_id, (content ->> 'slug'))
  WHERE content ->> 'slug' IS NOT NULL;
