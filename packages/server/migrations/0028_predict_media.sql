-- Prediction feed V9 market media (issue 15, item 6; predict/media): the
-- operator's image of a market, set on the admin listener
-- (`PUT /admin/predict/markets/{address}/media`). No row: the market shows
-- only the generated art. The URL is stored as the operator gave it (its host
-- allowlisted when set) and served only as a signed image-proxy URL.
CREATE TABLE predict_market_media (
  chain_id    integer     NOT NULL,
  address     text        NOT NULL CHECK (address ~ '^0x[0-9a-f]{40}$'),
  image_url   text        NOT NULL,
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (chain_id, address)
);
