import { sql } from "kysely";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createManualClock } from "../_test/app.ts";
import { insertClassicGame } from "../_test/classic.ts";
import { setupDatabase, type TestDatabase } from "../_test/database.ts";
import { createClassicGameDirectory, createClassicMetadataStore } from "../classic/games/index.ts";
import { fixedPriceSource } from "../classic/price.ts";
import { createImageLinks, createImageProxyPolicy } from "../media/index.ts";
import { createDemoClassicMetadata, startDemoClassicMetadata } from "./classic-metadata.ts";

const PUBLIC = "https://api.mkt.test";
const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

describe("demo classic metadata", () => {
  let database: TestDatabase;
  const clock = createManualClock();
  beforeAll(async () => {
    database = await setupDatabase();
  });
  afterAll(() => database.close());

  it("publishes creator metadata for two of every three new games and features two", async () => {
    const metadata = createClassicMetadataStore({ db: database.db, clock, bump: async () => {} });
    const games = createClassicGameDirectory({
      db: database.db,
      publicUrl: PUBLIC,
      images: createImageLinks({
        publicUrl: PUBLIC,
        key: Buffer.alloc(32, 2),
        policy: createImageProxyPolicy({ hosts: [] }),
      }),
      price: fixedPriceSource("3000"),
      clock,
    });
    for (const id of [1, 2, 3]) {
      await insertClassicGame(database.db, {
        address: address(id),
        gameId: BigInt(id),
        nftName: `Demo ${id}`,
        createdBlock: id,
      });
    }
    const demo = createDemoClassicMetadata({ metadata, publicUrl: PUBLIC });
    expect(await demo.tick()).toEqual([
      { action: "publish", address: address(1), gameId: "1", version: 1 },
      { action: "feature", address: address(1), gameId: "1" },
      { action: "publish", address: address(2), gameId: "2", version: 1 },
      { action: "feature", address: address(2), gameId: "2" },
      { action: "skip", address: address(3), gameId: "3" },
    ]);
    expect(await demo.tick()).toEqual([]);

    await insertClassicGame(database.db, {
      address: address(4),
      gameId: 4n,
      nftName: "Demo 4",
      createdBlock: 4,
    });
    expect(await demo.tick()).toEqual([{ action: "publish", address: address(4), gameId: "4", version: 1 }]);

    const page = await games.list(
      { chainId: 8453, page: 1, limit: 10, includeGraduated: true, featured: true },
      { bypassImageProxy: false },
    );
    expect(page.games.map((game) => [game.dropContractAddress, game.slug, game.version])).toEqual([
      [address(2), "demo-2-c", "1"],
      [address(1), "demo-1-b", "1"],
    ]);
    const catalogue = await games.catalogue(8453, address(2), { bypassImageProxy: false });
    expect(
      catalogue?.cards.map((card) => [card.name, card.rarity, card.startId, card.endId, card.imageUrl]),
    ).toEqual([
      ["Copper Gear", "Common", 1, 3, `${PUBLIC}/classic/art/8453/${address(2)}/1.svg`],
      ["Tin Soldier", "Common", 4, 4, `${PUBLIC}/classic/art/8453/${address(2)}/4.svg`],
      ["Clockwork Owl", "Rare", 5, 6, `${PUBLIC}/classic/art/8453/${address(2)}/5.svg`],
      ["Brass Golem", "Epic", 7, 7, `${PUBLIC}/classic/art/8453/${address(2)}/7.svg`],
      ["Steam Titan", "Legendary", 8, 8, `${PUBLIC}/classic/art/8453/${address(2)}/8.svg`],
      ["Aether Engine", "Mythic", 9, 9, `${PUBLIC}/classic/art/8453/${address(2)}/9.svg`],
    ]);
    // A new demo (a restart) adopts what it finds: nothing is published twice.
    expect(
      (await createDemoClassicMetadata({ metadata, publicUrl: PUBLIC }).tick()).map(
        (report) => report.action,
      ),
    ).toEqual(["skip"]);
  });

  it("walks past the games it leaves on default metadata, more than a query's worth, reading each once", async () => {
    const fresh = await setupDatabase();
    try {
      const store = createClassicMetadataStore({ db: fresh.db, clock, bump: async () => {} });
      const asked: Array<string | undefined> = [];
      const metadata = {
        ...store,
        unpublished: (...args: Parameters<typeof store.unpublished>) => {
          asked.push(args[2]?.address);
          return store.unpublished(...args);
        },
      };
      // 201 games the demo leaves alone (ids divisible by 3), then one it publishes.
      for (let n = 1; n <= 201; n++) {
        await insertClassicGame(fresh.db, {
          address: address(0x1000 + n),
          gameId: BigInt(3 * n),
          nftName: `Plain ${n}`,
          createdBlock: n,
        });
      }
      await insertClassicGame(fresh.db, {
        address: address(0x2000),
        gameId: 1_000n,
        nftName: "Late",
        createdBlock: 500,
      });
      const demo = createDemoClassicMetadata({ metadata, publicUrl: PUBLIC, featured: 0 });
      const first = await demo.tick();
      expect(first.filter((report) => report.action === "skip")).toHaveLength(201);
      expect(first.filter((report) => report.action === "publish")).toEqual([
        { action: "publish", address: address(0x2000), gameId: "1000", version: 1 },
      ]);
      // Two queries: the first 200, then from the 200th on.
      expect(asked).toEqual([undefined, address(0x1000 + 200)]);
      asked.length = 0;
      // The next step starts after the last game handled: the skipped ones are not read again.
      expect(await demo.tick()).toEqual([]);
      expect(asked).toEqual([address(0x2000)]);
    } finally {
      await fresh.close();
    }
  });

  it("steps when the classic scope commits, not on a timer", async () => {
    const fresh = await setupDatabase();
    let onCommit: (() => void) | undefined;
    const run = startDemoClassicMetadata({
      metadata: createClassicMetadataStore({ db: fresh.db, clock, bump: async () => {} }),
      publicUrl: PUBLIC,
      logger: pino({ level: "silent" }),
      commits: async (listener) => {
        onCommit = listener;
        return async () => {
          onCommit = undefined;
        };
      },
      // Far longer than the test: only a commit can make it step again.
      safetyMs: 3_600_000,
    });
    const published = async () =>
      (
        await sql<{ contract_address: string }>`SELECT contract_address FROM classic_metadata`.execute(
          fresh.db.kysely,
        )
      ).rows.map((row) => row.contract_address);
    try {
      await vi.waitFor(() => expect(onCommit).toBeDefined());
      await insertClassicGame(fresh.db, {
        address: address(0x3001),
        gameId: 7n,
        nftName: "Committed",
        createdBlock: 1,
      });
      onCommit!();
      await vi.waitFor(async () => expect(await published()).toEqual([address(0x3001)]), {
        timeout: 5_000,
        interval: 20,
      });
    } finally {
      await run.stop();
      await fresh.close();
    }
    expect(onCommit).toBeUndefined();
  });
});
