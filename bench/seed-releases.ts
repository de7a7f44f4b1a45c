import { deriveDevAccounts } from "@mkt/chain";
import { createMktClient } from "@mkt/client";
import { demoReleaseDraft } from "../packages/server/src/demo/index.ts";

const DAY = 86_400_000;

/**
 * Seeds `count` announced releases the way a client makes them: each one a
 * `create` and an `announce` signed by one of ten dev wallets and sent through
 * the SDK, so the server verifies every signature and writes through its
 * release service. The drafts are the demo's (three tiers of cards, strokes,
 * tier images), each with its own name. Resolves once the public list shows
 * them all.
 */
export async function seedReleases({ baseUrl, apiKey }: { baseUrl: string; apiKey: string }, count = 100) {
  const { releases } = createMktClient({ baseUrl, apiKey }).market;
  const wallets = deriveDevAccounts(undefined, 10);
  const launchAt = Date.now() + 7 * DAY;
  const names = new Set<string>();
  // A few at a time: the server verifies each signature; the wallets sign in this process.
  for (let start = 0; start < count; start += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, count - start) }, async (_, offset) => {
        const index = start + offset;
        const wallet = wallets[index % wallets.length]!;
        const draft = demoReleaseDraft(index);
        const name = `${draft.name} ${index + 1}`;
        names.add(name);
        const created = await releases.create(wallet, { ...draft, name });
        await releases.announce(wallet, created.id, created.revision, launchAt + index * 60_000);
      }),
    );
  }
  const listed = new Set<string>();
  for await (const release of releases.iterate()) {
    if (release.status === "announced") listed.add(release.name);
  }
  const missing = [...names].filter((name) => !listed.has(name));
  if (listed.size !== count || missing.length > 0) {
    throw new Error(
      `seeded ${count} releases but the list shows ${listed.size}; missing ${missing.join(", ")}`,
    );
  }
}
