-- The live-update event log (GET /market/live, GET /market/account/live).
--
-- Every change a stream reports is recorded here by a trigger, in the
-- transaction that makes the change: an indexer commit (the head row's
-- revision moves), an accepted release action (a release row changes), a
-- direct message (a dm_messages row) and a read mark (dm_threads seen_a /
-- seen_b). No code path can commit one of these changes without its event,
-- and a rolled-back change leaves none.
--
-- The triggers are deferred to commit time, and ids are taken from the
-- sequence while holding a transaction-level advisory lock, so they become
-- visible in id order: a reader that has seen id N has seen every id below N
-- that will ever exist. Deferred, the lock is taken by the last thing a
-- transaction does before it commits: it is held for an instant and a
-- transaction holding it never waits for another lock (no deadlock with the
-- row locks of the changes themselves). Each insert NOTIFYs mkt_live
-- with the new id; every replica's one listener then reads the rows above
-- the last id it read and fans them out to its own streams. A lost
-- notification costs latency, never an event: the log is the truth, and
-- replicas read it again on reconnect and at every heartbeat.
--
-- The log is bounded (LIVE_STREAM.windowSeconds, windowEvents): pruning
-- deletes a prefix of ids and records the highest id deleted in
-- live_log.pruned_through, so "the events after Last-Event-ID L are all still
-- here" is exactly "L >= pruned_through" (ids have gaps from rolled-back
-- transactions, so the oldest id left proves nothing).
CREATE TABLE live_events (
  id          bigserial PRIMARY KEY,
  created_at  timestamptz NOT NULL DEFAULT now(),
  kind        text NOT NULL CHECK (kind IN ('head', 'release', 'dm', 'dm-seen')),
  -- The account a private event is for (releases: the owner; DMs: the recipient or the reader).
  account_id  text,
  -- Whether every stream gets it; false: only the streams of account_id.
  public      boolean NOT NULL,
  payload     jsonb NOT NULL
);

CREATE TABLE live_log (
  singleton       boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  pruned_through  bigint NOT NULL DEFAULT 0
);
INSERT INTO live_log DEFAULT VALUES;

CREATE FUNCTION live_record(event_kind text, account text, is_public boolean, body jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  new_id bigint;
BEGIN
  -- Held until commit: ids are allocated and committed in one order.
  PERFORM pg_advisory_xact_lock(hashtextextended('mkt:live_events', 0));
  INSERT INTO live_events (kind, account_id, public, payload)
    VALUES (event_kind, account, is_public, body)
    RETURNING id INTO new_id;
  PERFORM pg_notify('mkt_live', new_id::text);
END $$;

-- Indexer commits: every change of a scope's projection raises its revision.
CREATE FUNCTION live_head_moved() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM live_record('head', NULL, true, jsonb_build_object(
    'scope', NEW.scope,
    'nextBlock', NEW.next_block,
    'fromBlock', OLD.next_block,
    'revision', NEW.revision));
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER live_head AFTER UPDATE OF revision ON indexer_heads
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.revision IS DISTINCT FROM OLD.revision)
  EXECUTE FUNCTION live_head_moved();

-- Release actions: every accepted action raises the revision (or deletes a draft).
CREATE FUNCTION live_release_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM live_record('release', OLD.owner_id, OLD.status <> 'draft', jsonb_build_object(
      'releaseId', OLD.id, 'revision', OLD.revision, 'status', 'deleted'));
  ELSE
    PERFORM live_record('release', NEW.owner_id, NEW.status <> 'draft', jsonb_build_object(
      'releaseId', NEW.id, 'revision', NEW.revision, 'status', NEW.status));
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER live_release_insert AFTER INSERT OR DELETE ON releases
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION live_release_changed();
CREATE CONSTRAINT TRIGGER live_release_update AFTER UPDATE ON releases
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.revision IS DISTINCT FROM OLD.revision OR NEW.status IS DISTINCT FROM OLD.status)
  EXECUTE FUNCTION live_release_changed();

-- Direct messages: the recipient's event.
CREATE FUNCTION live_dm_sent() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  recipient text;
BEGIN
  SELECT CASE WHEN account_a = NEW.sender_id THEN account_b ELSE account_a END INTO recipient
    FROM dm_threads WHERE id = NEW.thread_id;
  PERFORM live_record('dm', recipient, false, jsonb_build_object(
    'messageId', NEW.id::text,
    'threadId', NEW.thread_id,
    'from', NEW.sender_wallet,
    'createdAt', (extract(epoch FROM NEW.created_at) * 1000)::bigint));
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER live_dm AFTER INSERT ON dm_messages
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION live_dm_sent();

-- Read marks: the reader's event (its unread count changed).
CREATE FUNCTION live_dm_seen() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.seen_a IS DISTINCT FROM OLD.seen_a THEN
    PERFORM live_record('dm-seen', NEW.account_a, false, jsonb_build_object(
      'threadId', NEW.id, 'seenUpTo', NEW.seen_a::text));
  END IF;
  IF NEW.seen_b IS DISTINCT FROM OLD.seen_b THEN
    PERFORM live_record('dm-seen', NEW.account_b, false, jsonb_build_object(
      'threadId', NEW.id, 'seenUpTo', NEW.seen_b::text));
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER live_dm_seen AFTER UPDATE OF seen_a, seen_b ON dm_threads
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION live_dm_seen();
