-- The history of a release by revision (GET /market/releases/{id}/artwork/history).
--
-- One row per revision, written in the transaction of the accepted release
-- action that made it: the action, the status after it, the artwork source as
-- it was at that revision (`{image, design}` of the draft; the wire's tiers
-- are put together when read) and what changed in the artwork since the
-- previous revision (`{fields, cardsAdded, cardsRemoved, cardsChanged}`).
-- Rows go with their release (deleting a draft deletes its history).
CREATE TABLE release_revisions (
  release_id       text NOT NULL REFERENCES releases (id) ON DELETE CASCADE,
  revision         integer NOT NULL CHECK (revision >= 1),
  action           text CHECK (action IN ('create', 'edit', 'announce', 'reschedule', 'cancel', 'link')),
  status           text NOT NULL CHECK (status IN ('draft', 'announced', 'cancelled', 'live')),
  changes          jsonb NOT NULL,
  artwork          jsonb NOT NULL,
  -- Whether `changes.fields` is not empty, for the `changed=artwork` filter.
  artwork_changed  boolean NOT NULL,
  updated_at       timestamptz NOT NULL,
  PRIMARY KEY (release_id, revision)
);

-- History begins here: each existing release gets its current revision, with
-- no action (nothing recorded what made it) and no changes.
INSERT INTO release_revisions (release_id, revision, action, status, changes, artwork, artwork_changed, updated_at)
SELECT id, revision, NULL, status,
       '{"fields": [], "cardsAdded": [], "cardsRemoved": [], "cardsChanged": []}'::jsonb,
       jsonb_build_object('image', draft -> 'image', 'design', draft -> 'design'),
       false, updated_at
FROM releases;
