-- Classic game chat (issue 14; classic/chat): one durable room per game.
--
-- A message belongs to the account that posted it (author_address: the
-- wallet the bearer token signed in with). Deleting a message keeps a
-- tombstone (deleted_at, text emptied) so readers that re-read a page see it
-- go; the row itself goes only with its account.
--
-- Every insert and every deletion writes its event to the live log (0017)
-- by a trigger deferred to commit, like the market's: the chat stream
-- (GET /classic/chat/{game}/stream) is the same log, fanned out by the same
-- hub, filtered per game.
CREATE TABLE classic_chat_messages (
  id                 bigserial PRIMARY KEY,
  chain_id           integer NOT NULL,
  contract_address   text NOT NULL,
  account_id         text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  author_address     text NOT NULL,
  text               text NOT NULL,
  -- The client's id of the message: a retry with the same one answers the first message.
  client_message_id  text,
  created_at         timestamptz NOT NULL,
  deleted_at         timestamptz,
  -- The account that deleted it: the author or the game's creator.
  deleted_by         text
);
-- Pages of one game, newest first.
CREATE INDEX classic_chat_game ON classic_chat_messages (chain_id, contract_address, id DESC);
-- The per-account posting rate.
CREATE INDEX classic_chat_account ON classic_chat_messages (account_id, created_at);
CREATE UNIQUE INDEX classic_chat_client_id
  ON classic_chat_messages (account_id, chain_id, contract_address, client_message_id)
  WHERE client_message_id IS NOT NULL;

ALTER TABLE live_events DROP CONSTRAINT live_events_kind_check;
ALTER TABLE live_events ADD CONSTRAINT live_events_kind_check
  CHECK (kind IN ('head', 'release', 'dm', 'dm-seen', 'chat'));

CREATE FUNCTION live_classic_chat_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM live_record('chat', NULL, true, jsonb_build_object(
      'chainId', NEW.chain_id, 'contractAddress', NEW.contract_address,
      'messageId', NEW.id::text, 'action', 'message'));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM live_record('chat', NULL, true, jsonb_build_object(
      'chainId', NEW.chain_id, 'contractAddress', NEW.contract_address,
      'messageId', NEW.id::text, 'action', 'deleted'));
  ELSIF OLD.deleted_at IS NULL THEN
    -- The row went with its account: readers drop it.
    PERFORM live_record('chat', NULL, true, jsonb_build_object(
      'chainId', OLD.chain_id, 'contractAddress', OLD.contract_address,
      'messageId', OLD.id::text, 'action', 'deleted'));
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER live_classic_chat AFTER INSERT OR DELETE ON classic_chat_messages
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION live_classic_chat_changed();
CREATE CONSTRAINT TRIGGER live_classic_chat_deleted AFTER UPDATE OF deleted_at ON classic_chat_messages
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL)
  EXECUTE FUNCTION live_classic_chat_changed();
