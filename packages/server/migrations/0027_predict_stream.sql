-- Prediction feed V9 stream (issue 15; predict/stream): wakeups of
-- GET /predict/v9/stream, written to the live event log of 0017 by
-- triggers deferred to commit, in the transaction of the indexer commit that
-- changes the projection (like 0017's and 0024's). The hub fans them out to
-- the predict streams only; market and chat streams never get them.
--
-- One kind, `predict`; the payload names the wakeup:
--   {event: "market", chainId, market, marketId, change: "created" | "status", state}
--   {event: "resolution", chainId, market, marketId, outcome}
--   {event: "trade", chainId, market, kind, block}
-- The finalized head moving is the `head` event 0017 already writes for every
-- scope (the hub routes the predict scope's to the predict streams).

ALTER TABLE live_events DROP CONSTRAINT live_events_kind_check;
ALTER TABLE live_events ADD CONSTRAINT live_events_kind_check
  CHECK (kind IN ('head', 'release', 'dm', 'dm-seen', 'chat', 'predict'));

CREATE FUNCTION live_predict_market_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM live_record('predict', NULL, true, jsonb_build_object(
      'event', 'market', 'chainId', NEW.chain_id, 'market', NEW.address,
      'marketId', NEW.market_id::text, 'change', 'created', 'state', NEW.status));
  ELSIF NEW.status = 'resolved' THEN
    PERFORM live_record('predict', NULL, true, jsonb_build_object(
      'event', 'resolution', 'chainId', NEW.chain_id, 'market', NEW.address,
      'marketId', NEW.market_id::text, 'outcome', NEW.outcome));
  ELSE
    PERFORM live_record('predict', NULL, true, jsonb_build_object(
      'event', 'market', 'chainId', NEW.chain_id, 'market', NEW.address,
      'marketId', NEW.market_id::text, 'change', 'status', 'state', NEW.status));
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER live_predict_market_insert AFTER INSERT ON predict_markets
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION live_predict_market_changed();
CREATE CONSTRAINT TRIGGER live_predict_market_status AFTER UPDATE OF status ON predict_markets
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.status IS DISTINCT FROM OLD.status)
  EXECUTE FUNCTION live_predict_market_changed();

CREATE FUNCTION live_predict_trade_recorded() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM live_record('predict', NULL, true, jsonb_build_object(
    'event', 'trade', 'chainId', NEW.chain_id, 'market', NEW.market,
    'kind', NEW.kind, 'block', NEW.block_number::text));
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER live_predict_trade AFTER INSERT ON predict_trades
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION live_predict_trade_recorded();
