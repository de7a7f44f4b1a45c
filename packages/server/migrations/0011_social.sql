-- Indexes of the social area (rooms, DMs, follows, reports) beyond 0010.

-- GET /market/accounts/{address}/following: one account's follows, newest first.
CREATE INDEX follows_follower ON follows (follower_id, created_at);

-- Account deletion cascades through these foreign keys; without an index each
-- deletion scans the whole table.
CREATE INDEX room_messages_account ON room_messages (account_id);
CREATE INDEX dm_messages_sender ON dm_messages (sender_id);
CREATE INDEX reports_reporter ON reports (reporter_id) WHERE reporter_id IS NOT NULL;
