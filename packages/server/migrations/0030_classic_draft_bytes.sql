-- The bytes a draft takes as stored: its content and its allowlist as JSON
-- text, UTF-8. The unconfirmed drafts of an account's wallets may take
-- 16 MiB together (`CLASSIC_DRAFT_MAX_ACCOUNT_BYTES` in @mkt/protocol;
-- classic/README.md, "Creator workflow"); the drafts service sums this column
-- under the account's lock before and after each write.
ALTER TABLE classic_drafts ADD COLUMN stored_bytes bigint NOT NULL
  GENERATED ALWAYS AS (octet_length(content::text) + octet_length(allowlist::text)) STORED;
