-- Pack edits (POST /market/runtime/{version}/pack-edit): offchain labels a
-- wallet puts on a pack it holds in a market runtime. One row per runtime,
-- pack and holder: two holders of one pack each keep their own labels. A
-- null field is cleared; a row whose fields are both null is kept (it answers
-- the same state as no row).
CREATE TABLE pack_edits (
  runtime_id  text NOT NULL,
  pack_id     numeric NOT NULL,
  owner       text NOT NULL,
  name        text,
  note        text,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (runtime_id, pack_id, owner)
);
