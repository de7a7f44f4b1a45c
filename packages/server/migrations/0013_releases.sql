-- The offchain release catalog (market-api.md section 2, Release).
--
-- The draft (name, symbol, links, design …) is one jsonb document exactly as
-- `parseReleaseAction` returns it; it is replaced whole by every edit.
-- `seq` is taken from a sequence at creation and again at every change, so it
-- orders releases by their last change (newest first in the public list) and
-- gives every change a distinct, increasing number.
CREATE SEQUENCE releases_seq;

CREATE TABLE releases (
  id          text PRIMARY KEY,
  owner_id    text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  status      text NOT NULL CHECK (status IN ('draft', 'announced', 'cancelled', 'live')),
  revision    integer NOT NULL DEFAULT 1 CHECK (revision >= 1),
  draft       jsonb NOT NULL,
  launch_at   bigint CHECK (launch_at >= 1),
  version     text,
  drop_id     text,
  seq         bigint NOT NULL DEFAULT nextval('releases_seq'),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT releases_announced_has_launch CHECK (status = 'draft' OR launch_at IS NOT NULL),
  CONSTRAINT releases_live_is_linked CHECK ((status = 'live') = (version IS NOT NULL AND drop_id IS NOT NULL))
);
-- The public list: announced, cancelled and live releases, last changed first.
CREATE INDEX releases_public ON releases (seq DESC) WHERE status <> 'draft';
CREATE INDEX releases_owner ON releases (owner_id);
-- A drop is linked to one release at most.
CREATE UNIQUE INDEX releases_drop ON releases (version, drop_id) WHERE drop_id IS NOT NULL;
