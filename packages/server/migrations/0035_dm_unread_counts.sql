-- Each side of a direct-message thread keeps its count of unread messages (messages the other side
-- sent after this side's seen mark), so `GET /market/dm/unread` and the thread list read one number
-- per thread instead of counting the messages after each mark (at a million messages the measured
-- account's unread count read about 5,000 messages per request: docs/benchmarks.md, "Scale").
-- Sending a message adds one to the recipient's count; `dm-seen` moves the mark and recounts the
-- messages after it, with the thread row locked, so a message sent meanwhile is counted once.
ALTER TABLE dm_threads ADD COLUMN unread_a integer NOT NULL DEFAULT 0;
ALTER TABLE dm_threads ADD COLUMN unread_b integer NOT NULL DEFAULT 0;

UPDATE dm_threads t SET
  unread_a = (SELECT count(*) FROM dm_messages m
              WHERE m.thread_id = t.id AND m.id > t.seen_a AND m.sender_id <> t.account_a),
  unread_b = (SELECT count(*) FROM dm_messages m
              WHERE m.thread_id = t.id AND m.id > t.seen_b AND m.sender_id <> t.account_b)
WHERE t.last_message_id > least(t.seen_a, t.seen_b);

-- An account's threads holding unread messages, one side each: what the unread count reads.
CREATE INDEX dm_threads_unread_a ON dm_threads (account_a) INCLUDE (unread_a) WHERE unread_a > 0;
CREATE INDEX dm_threads_unread_b ON dm_threads (account_b) INCLUDE (unread_b) WHERE unread_b > 0;
