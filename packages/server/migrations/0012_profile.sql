-- Profile pictures and X connections (market profile feature).

-- The pixel pfp job: the grid size asked for, when a worker claimed it and how
-- often. A replica that dies mid-job leaves it 'processing'; the sweep puts it
-- back in the queue (and gives up after three claims).
ALTER TABLE profile_pictures
  ADD COLUMN pixel_size integer CHECK (pixel_size BETWEEN 8 AND 64),
  ADD COLUMN pixel_attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN pixel_started_at timestamptz,
  ADD CONSTRAINT profile_pictures_pfp_status CHECK (pfp_status IN ('idle', 'ready', 'failed')),
  ADD CONSTRAINT profile_pictures_pixel_status
    CHECK (pixel_status IN ('idle', 'queued', 'processing', 'ready', 'failed'));
CREATE INDEX profile_pictures_pixel_processing ON profile_pictures (pixel_started_at)
  WHERE pixel_status = 'processing';

-- A pending OAuth connection: the PKCE verifier, sealed with a key derived
-- from the state (only the state's hash is stored, so the database alone
-- cannot redeem a code), and when the state stops being accepted.
ALTER TABLE social_connections
  ADD COLUMN oauth_verifier text,
  ADD COLUMN state_expires_at timestamptz;
CREATE UNIQUE INDEX social_connections_state ON social_connections (state_hash) WHERE state_hash IS NOT NULL;
