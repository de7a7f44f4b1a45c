-- Creator URLs are web URLs only (classic/README.md, "Creator URLs";
-- `CLASSIC_CREATOR_URL` in @mkt/protocol): `http://` or `https://` in any
-- letter case, then at least one character, none of them whitespace or an
-- ASCII control character, or the empty string. Earlier builds stored any
-- string, so a `javascript:`, `data:` or `file:` value could reach the public
-- token and contract JSON. This neutralises every stored value outside the
-- rule, in the same places the schema checks (`CLASSIC_CREATOR_URL_FIELDS`):
-- a game's imageUrl, websiteUrl, featuredImageUrl, packImage (to null) and
-- links.twitter, links.website, links.discord (to ""); a card's imageUrl,
-- unopenedImageUrl, firstEditionImageUrl, externalLink (to null); an
-- allowlist entry's profileImage (removed). Published revisions
-- (classic_metadata) and drafts (classic_drafts) alike; every other field is
-- kept. Plain http values are kept: whether they are accepted is a per-server
-- rule (dev chains only), checked when they are written.

CREATE FUNCTION mkt_0029_url_ok(value jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT value IS NULL OR jsonb_typeof(value) = 'null'
      OR (jsonb_typeof(value) = 'string'
          AND (value #>> '{}') ~ '^(?:|[hH][tT][tT][pP][sS]?://[^\x01-\x20\x7f]+)$')
$$;

-- `item` with each of `fields` that breaks the rule set to `replacement`.
CREATE FUNCTION mkt_0029_clean(item jsonb, fields text[], replacement jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(item) = 'object' THEN
    item || coalesce((SELECT jsonb_object_agg(f, replacement) FROM unnest(fields) AS f
                       WHERE item ? f AND NOT mkt_0029_url_ok(item -> f)), '{}'::jsonb)
  ELSE item END
$$;

CREATE FUNCTION mkt_0029_game(game jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(cleaned -> 'links') = 'object' THEN
    jsonb_set(cleaned, '{links}', mkt_0029_clean(cleaned -> 'links', '{twitter,website,discord}', '""'))
  ELSE cleaned END
  FROM (SELECT mkt_0029_clean(game, '{imageUrl,websiteUrl,featuredImageUrl,packImage}', 'null') AS cleaned) AS g
$$;

CREATE FUNCTION mkt_0029_cards(cards jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(cards) = 'array' THEN
    coalesce((SELECT jsonb_agg(
                mkt_0029_clean(card, '{imageUrl,unopenedImageUrl,firstEditionImageUrl,externalLink}', 'null')
                ORDER BY position)
              FROM jsonb_array_elements(cards) WITH ORDINALITY AS e(card, position)), '[]'::jsonb)
  ELSE cards END
$$;

CREATE FUNCTION mkt_0029_allowlist(entries jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(entries) = 'array' THEN
    coalesce((SELECT jsonb_agg(
                CASE WHEN jsonb_typeof(entry) = 'object' AND NOT mkt_0029_url_ok(entry -> 'profileImage')
                     THEN entry - 'profileImage' ELSE entry END
                ORDER BY position)
              FROM jsonb_array_elements(entries) WITH ORDINALITY AS e(entry, position)), '[]'::jsonb)
  ELSE entries END
$$;

UPDATE classic_metadata
   SET game = mkt_0029_game(game), cards = mkt_0029_cards(cards)
 WHERE game IS DISTINCT FROM mkt_0029_game(game) OR cards IS DISTINCT FROM mkt_0029_cards(cards);

UPDATE classic_drafts
   SET content = content
         || CASE WHEN content ? 'game' THEN jsonb_build_object('game', mkt_0029_game(content -> 'game'))
            ELSE '{}'::jsonb END
         || CASE WHEN content ? 'cards' THEN jsonb_build_object('cards', mkt_0029_cards(content -> 'cards'))
            ELSE '{}'::jsonb END,
       allowlist = mkt_0029_allowlist(allowlist)
 WHERE mkt_0029_game(content -> 'game') IS DISTINCT FROM content -> 'game'
    OR mkt_0029_cards(content -> 'cards') IS DISTINCT FROM content -> 'cards'
    OR mkt_0029_allowlist(allowlist) IS DISTINCT FROM allowlist;

DROP FUNCTION mkt_0029_allowlist(jsonb);
DROP FUNCTION mkt_0029_cards(jsonb);
DROP FUNCTION mkt_0029_game(jsonb);
DROP FUNCTION mkt_0029_clean(jsonb, text[], jsonb);
DROP FUNCTION mkt_0029_url_ok(jsonb);
