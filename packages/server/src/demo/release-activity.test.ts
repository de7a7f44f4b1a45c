import { deriveDevAccounts } from "@mkt/chain";
import { createMktClient, type MktClient, type Release } from "@mkt/client";
import { type LocalAccount, toAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogCapture, setupApp, type TestApp } from "../_test/app.ts";
import { createLogger } from "../logging/index.ts";
import { createDemoReleaseActivity, seededRandom, startDemoReleases } from "./release-activity.ts";
import { demoReleaseDraft } from "./release-designs.ts";

const accounts = deriveDevAccounts(undefined, 10);
const signatures: string[] = [];
/** A dev wallet whose signatures the test keeps, to check that no log carries one. */
const recorded = (index: number): LocalAccount => {
  const account = accounts[index]!;
  return toAccount({
    ...account,
    async signMessage(args) {
      const signature = await account.signMessage(args);
      signatures.push(signature);
      return signature;
    },
  });
};

describe("demo release activity against the app", () => {
  let t: TestApp;
  let baseUrl: string;
  let releases: MktClient["market"]["releases"];
  beforeAll(async () => {
    t = await setupApp();
    ({ publicUrl: baseUrl } = await t.app.listen());
    const { key } = await t.createKey({ multiplier: 100 });
    releases = createMktClient({ baseUrl, apiKey: key }).market.releases;
  });
  afterAll(() => t.close());

  const listedBy = async (wallets: LocalAccount[]) => {
    const owners = new Set(wallets.map((wallet) => wallet.address.toLowerCase()));
    const out: Release[] = [];
    for await (const release of releases.iterate()) if (owners.has(release.owner)) out.push(release);
    return out;
  };

  it("announces releases at start through the API, moves a revision on a step, and stops cleanly", async () => {
    const wallets = [recorded(3), recorded(4), recorded(5)];
    const logs = createLogCapture();
    let demoKey = "";
    const keys = {
      create: async (input: Parameters<typeof t.app.services.keys.create>[0]) => {
        const created = await t.app.services.keys.create(input);
        demoKey = created.key;
        return created;
      },
      revokeSelf: (presented: string) => t.app.services.keys.revokeSelf(presented),
    };
    const started = Date.now();
    const demo = await startDemoReleases({
      baseUrl,
      keys,
      wallets,
      logger: createLogger({ level: "debug", destination: logs.stream }),
      random: seededRandom(7),
      // No step runs by itself in this test: it calls tick().
      intervalMs: 3_600_000,
      cancelChance: 0,
      rescheduleChance: 0,
    });

    const seeded = await listedBy(wallets);
    expect(seeded.map((release) => release.name).sort()).toEqual(
      [0, 1, 2, 3].map((index) => demoReleaseDraft(index).name).sort(),
    );
    for (const release of seeded) {
      expect(release).toMatchObject({ status: "announced", revision: 2, cardsOmitted: true });
      expect(release.launchAt).toBeGreaterThan(started + 86_400_000 - 1);
    }
    // The owners are the dev wallets, in turn.
    expect(new Set(seeded.map((release) => release.owner))).toEqual(
      new Set(wallets.map((wallet) => wallet.address.toLowerCase())),
    );
    const full = await releases.get(seeded[0]!.id);
    expect(full.design.cardsByRarity.map((tier) => tier.length)).toEqual([4, 2, 1]);

    const [step] = await demo.activity.tick();
    expect(step).toMatchObject({ action: "edit", revision: 3 });
    const edited = (await listedBy(wallets)).find((release) => release.id === step!.releaseId);
    expect(edited).toMatchObject({ status: "announced", revision: 3 });
    expect((await releases.get(step!.releaseId)).description).toMatch(/\n\nUpdate: /);

    await demo.stop();
    await demo.stop();
    // The demo's key is revoked on stop.
    const refused = await fetch(`${baseUrl}/market/releases`, { headers: { "api-key": demoKey } });
    expect(refused.status).toBe(401);
    const ready = logs.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(ready.find((line) => line["msg"] === "demo releases ready")).toMatchObject({
      announced: 4,
      created: 4,
    });
    expect(ready.filter((line) => line["msg"] === "demo release").map((line) => line["action"])).toEqual([
      "create",
      "announce",
      "create",
      "announce",
      "create",
      "announce",
      "create",
      "announce",
    ]);
    expect(signatures.length).toBeGreaterThanOrEqual(9);
    for (const signature of signatures) {
      expect(logs.text()).not.toContain(signature.slice(2, 40));
      expect(t.logs.text()).not.toContain(signature.slice(2, 40));
    }
    expect(logs.text()).not.toContain(demoKey.slice(4));
  });

  it("cancels and replaces until the cap, then only edits; a restart adopts instead of adding", async () => {
    const wallets = [recorded(7), recorded(8)];
    const options = {
      releases,
      wallets,
      random: seededRandom(3),
      announced: 2,
      cancelled: 1,
      cancelChance: 1,
      rescheduleChance: 0,
    };
    const activity = createDemoReleaseActivity(options);
    expect((await activity.seed()).map((entry) => entry.action)).toEqual([
      "create",
      "announce",
      "create",
      "announce",
    ]);

    const replaced = await activity.tick();
    expect(replaced.map((entry) => [entry.action, entry.revision])).toEqual([
      ["cancel", 3],
      ["create", 1],
      ["announce", 2],
    ]);
    const cancelledId = replaced[0]!.releaseId;
    const afterCancel = await listedBy(wallets);
    expect(afterCancel.find((release) => release.id === cancelledId)?.status).toBe("cancelled");
    expect(afterCancel.filter((release) => release.status === "announced")).toHaveLength(2);
    // The replacement is a design that was not announced.
    const names = afterCancel.map((release) => release.name);
    expect(new Set(names).size).toBe(3);

    // The cap is reached: the same roll edits.
    const [edited] = await activity.tick();
    expect(edited?.action).toBe("edit");
    expect((await listedBy(wallets)).map((release) => release.id).sort()).toEqual(
      afterCancel.map((release) => release.id).sort(),
    );

    const restarted = createDemoReleaseActivity(options);
    expect(await restarted.seed()).toEqual([]);
    expect(restarted.state().cancelled).toBe(1);
    expect(
      restarted
        .state()
        .announced.map((release) => release.id)
        .sort(),
    ).toEqual(
      afterCancel
        .filter((release) => release.status === "announced")
        .map((release) => release.id)
        .sort(),
    );
  });
});
