-- Accounts of the current marketplace (market-api.md sections 3 and 5) and
-- the offchain areas their sessions authorise. One account has one or more
-- wallets, each proven by its own signature; everything social is keyed by
-- account, and a wallet address resolves to its account.

CREATE TABLE accounts (
  id              text PRIMARY KEY,
  -- The wallet that created the account; the address shown for it.
  primary_address text NOT NULL,
  username        text,
  bio             text NOT NULL DEFAULT '',
  -- Who may send this account direct messages.
  dm_policy       text NOT NULL DEFAULT 'everyone' CHECK (dm_policy IN ('everyone', 'following', 'nobody')),
  -- Set by `referral-claim`: the account whose invite brought this one.
  referred_by     text REFERENCES accounts (id) ON DELETE SET NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX accounts_username ON accounts (lower(username)) WHERE username IS NOT NULL;

-- Lowercase 0x addresses; a wallet belongs to at most one account.
CREATE TABLE account_wallets (
  address     text PRIMARY KEY,
  account_id  text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  linked_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX account_wallets_account ON account_wallets (account_id);

-- Nonces of verified signatures (sign-in, deletion, wallet links), each used once.
-- Kept until well after the signed expiry (at most five minutes ahead), then swept.
CREATE TABLE used_nonces (
  nonce       uuid PRIMARY KEY,
  purpose     text NOT NULL,
  used_at     timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);
CREATE INDEX used_nonces_expires_at ON used_nonces (expires_at);

-- Every session kind: account (bearer or proxy cookie), chat, access. Only the
-- SHA-256 of a token is stored. After sign-out or account deletion the row
-- stays as a minimal revocation record (hash, kind, times, reason), so the
-- token can never be used again.
CREATE TABLE sessions (
  id              text PRIMARY KEY,
  token_hash      text NOT NULL UNIQUE,
  kind            text NOT NULL CHECK (kind IN ('account', 'chat', 'access')),
  account_id      text REFERENCES accounts (id) ON DELETE SET NULL,
  wallet          text,
  origin          text,
  -- access sessions: the invite they were opened with.
  invite_id       text,
  -- chat sessions: the account session that issued them (revoked with it).
  parent_id       text REFERENCES sessions (id) ON DELETE SET NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  revoked_at      timestamptz,
  revoked_reason  text
);
CREATE INDEX sessions_account ON sessions (account_id) WHERE revoked_at IS NULL;
CREATE INDEX sessions_parent ON sessions (parent_id) WHERE parent_id IS NOT NULL;

-- Kept indefinitely (market-api.md section 5): who was deleted and when, not what they had.
CREATE TABLE account_deletions (
  account_id      text PRIMARY KEY,
  -- SHA-256 of each lowercase wallet address, to answer abuse investigations without keeping the address.
  wallet_hashes   text[] NOT NULL,
  sessions_revoked integer NOT NULL,
  deleted_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE follows (
  follower_id  text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  followee_id  text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (follower_id, followee_id),
  CHECK (follower_id <> followee_id)
);
CREATE INDEX follows_followee ON follows (followee_id, created_at);

CREATE TABLE blocks (
  account_id  text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  blocked_id  text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, blocked_id),
  CHECK (account_id <> blocked_id)
);
CREATE INDEX blocks_blocked ON blocks (blocked_id);

CREATE TABLE rooms (
  id           text PRIMARY KEY,
  slug         text NOT NULL UNIQUE,
  title        text NOT NULL,
  description  text NOT NULL DEFAULT '',
  created_by   text REFERENCES accounts (id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE room_messages (
  id          bigserial PRIMARY KEY,
  room_id     text NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
  account_id  text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  wallet      text NOT NULL,
  body        text NOT NULL,
  reply_to    bigint,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX room_messages_room ON room_messages (room_id, id);

-- One thread per pair of accounts; account_a < account_b.
CREATE TABLE dm_threads (
  id               text PRIMARY KEY,
  account_a        text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  account_b        text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  last_message_id  bigint NOT NULL DEFAULT 0,
  last_message_at  timestamptz NOT NULL DEFAULT now(),
  -- The newest message each side has seen.
  seen_a           bigint NOT NULL DEFAULT 0,
  seen_b           bigint NOT NULL DEFAULT 0,
  created_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_a, account_b),
  CHECK (account_a < account_b)
);
CREATE INDEX dm_threads_a ON dm_threads (account_a, last_message_id DESC);
CREATE INDEX dm_threads_b ON dm_threads (account_b, last_message_id DESC);

CREATE TABLE dm_messages (
  id           bigserial PRIMARY KEY,
  thread_id    text NOT NULL REFERENCES dm_threads (id) ON DELETE CASCADE,
  sender_id    text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  sender_wallet text NOT NULL,
  body         text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dm_messages_thread ON dm_messages (thread_id, id);

-- Abuse reports; expire after 90 days (a scheduled sweep deletes them).
CREATE TABLE reports (
  id            text PRIMARY KEY,
  reporter_id   text REFERENCES accounts (id) ON DELETE SET NULL,
  subject_kind  text NOT NULL,
  subject_id    text NOT NULL,
  reason        text NOT NULL,
  details       text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL
);
CREATE INDEX reports_expires_at ON reports (expires_at);

CREATE TABLE wishlists (
  account_id  text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  release_id  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, release_id)
);

-- Images an account uploaded: artwork for its own drafts, avatars and their pixelated versions.
CREATE TABLE images (
  id            text PRIMARY KEY,
  account_id    text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  purpose       text NOT NULL CHECK (purpose IN ('artwork', 'avatar', 'pixel-pfp')),
  -- artwork: the draft it belongs to.
  draft_id      text,
  content_type  text NOT NULL,
  bytes         bytea NOT NULL,
  width         integer,
  height        integer,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX images_account ON images (account_id, purpose, created_at);

-- Profile picture state of an account (the shared profile's pfp and pixel-pfp fields).
CREATE TABLE profile_pictures (
  account_id        text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  avatar_image_id   text REFERENCES images (id) ON DELETE SET NULL,
  pfp_status        text NOT NULL DEFAULT 'idle',
  pixel_image_id    text REFERENCES images (id) ON DELETE SET NULL,
  pixel_status      text NOT NULL DEFAULT 'idle',
  pixel_error       text,
  pixel_requested_at timestamptz,
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX profile_pictures_pixel_queue ON profile_pictures (pixel_requested_at) WHERE pixel_status = 'queued';

-- X (Twitter) account connections. Verified only through an OAuth provider or by the operator.
CREATE TABLE social_connections (
  account_id    text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  provider      text NOT NULL CHECK (provider IN ('x')),
  username      text NOT NULL,
  avatar_url    text NOT NULL DEFAULT '',
  verified      boolean NOT NULL DEFAULT false,
  verified_by   text,
  verified_at   timestamptz,
  -- OAuth state of a pending connection (SHA-256 of the state value).
  state_hash    text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, provider)
);
CREATE UNIQUE INDEX social_connections_verified ON social_connections (provider, lower(username)) WHERE verified;

-- Invite codes (stored hashed) for the invite-only access area and referrals.
CREATE TABLE invites (
  id           text PRIMARY KEY,
  code_hash    text NOT NULL UNIQUE,
  -- null for invites the operator created.
  created_by   text REFERENCES accounts (id) ON DELETE CASCADE,
  max_uses     integer NOT NULL CHECK (max_uses BETWEEN 1 AND 1000),
  uses         integer NOT NULL DEFAULT 0,
  revoked_at   timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX invites_creator ON invites (created_by);
