-- A wishlist names releases that exist (the release list's `wishlist` and
-- `wishedReleases`, market-api.md section 2). Ids that name no release are
-- dropped, and a release that goes (a draft deleted by its owner, every
-- release of a deleted account) leaves every wishlist with it. Rows still go
-- with their own account (ON DELETE CASCADE of 0010).
--
-- The cap went from 500 to 100 ids (PROFILE_LIMITS.wishlist): rows past it
-- are kept; the reads show the 100 oldest and adding waits until the list is
-- under the cap again.
DELETE FROM wishlists
WHERE NOT EXISTS (SELECT 1 FROM releases WHERE releases.id = wishlists.release_id);

ALTER TABLE wishlists
  ADD CONSTRAINT wishlists_release_fk FOREIGN KEY (release_id) REFERENCES releases (id) ON DELETE CASCADE;

-- The order of a wishlist is the order of its wishes: `created_at`, then
-- `seq` for wishes made within one millisecond.
ALTER TABLE wishlists ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;

-- The cascade looks wishlists up by release.
CREATE INDEX wishlists_release ON wishlists (release_id);
