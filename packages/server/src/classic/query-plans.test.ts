import { afterAll, beforeAll, expect } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";
import { postgresOnly, setupDatabase, type TestDatabase } from "../_test/database.ts";
import { captureStatements, type PlanNode, planNodes } from "../_test/volume/capture.ts";
import { loadClassicVolume, volumeDrop, volumeWallet } from "../_test/volume/classic.ts";
import { chainRoles } from "../chains/index.ts";

/** Tables that grow with the chain's history: none of them may be read whole by a hot read. */
const LARGE = new Set([
  "classic_packs",
  "classic_open_batches",
  "chain_events",
  "classic_collectors",
  "classic_game_collectors",
  "classic_mint_hours",
]);

const role = chainRoles([
  {
    chainId: 8453,
    rpcUrl: "http://127.0.0.1:9",
    finalityDepth: 2,
    genesisHash: `0x${"00".repeat(32)}`,
    contracts: { DropFactory: { address: "0x000000000000000000000000000000000000fac7", startBlock: 1 } },
    runtimes: [],
  },
]).classic!;

postgresOnly.describe(
  "classic query plans at volume",
  () => {
    let database: TestDatabase;
    let t: TestApp;
    let key: string;

    beforeAll(async () => {
      database = await setupDatabase();
      t = await setupApp({ database });
      key = (await t.createKey({ multiplier: 100 })).key;
      // About 200,000 packs and half a million logs, with the benchmark's shape.
      await loadClassicVolume({ db: t.db, log: () => {} }, role, {
        games: 100,
        packs: 200_000,
        activity: 500_000,
        wallets: 50_000,
      });
      await t.db.withConnection((c) => c.exec("VACUUM ANALYZE"));
    }, 600_000);
    afterAll(async () => {
      await t?.close();
      await database?.close();
    });

    postgresOnly.it(
      "reads every classic list and read without a sequential scan of a large table",
      async () => {
        const game = volumeDrop(1);
        const whale = volumeWallet(1);
        const [middle] = (
          await t.db.withConnection((c) =>
            c.query<{ block: string; log: number; ms: string; token: string }>(
              `SELECT e.block_number::text AS block, e.log_index AS log,
                      (extract(epoch FROM e.block_time) * 1000)::bigint::text AS ms,
                      (SELECT min(token_id)::text FROM classic_packs WHERE contract_address = $1) AS token
               FROM chain_events e WHERE e.address = $1 ORDER BY e.block_number, e.log_index OFFSET 10000 LIMIT 1`,
              [game],
            ),
          )
        ).rows;
        const objectId = `${BigInt(middle!.block).toString(16).padStart(16, "0")}${middle!.log.toString(16).padStart(8, "0")}`;
        const [opening] = (
          await t.db.withConnection((c) =>
            c.query<{ tx: string }>(
              `SELECT transaction_hash AS tx FROM chain_events WHERE address = $1 AND event = 'BoosterDropOpened'
               ORDER BY block_number, log_index LIMIT 1`,
              [game],
            ),
          )
        ).rows;
        const range = `/classic/range?contractAddress=${game}&limit=50`;
        const paths = [
          "/classic/games?limit=20",
          "/classic/games?limit=20&page=5",
          "/classic/search?q=scale&limit=20",
          "/classic/search?ownerAddress=0xa000000000000000000000000000000000000001",
          "/classic/featured?sortBy=trending",
          "/classic/featured?sortBy=marketCap",
          "/classic/contractAddress/scale-game-1-1",
          `/classic/contractAddress/${game}/ready`,
          `/classic/contractAddress/${game}/all-metadata?includeContractDetails=true`,
          `/classic/metadata/${game}`,
          `/classic/metadata/${game}/cards`,
          `/classic/metadata/${game}/odds`,
          `/classic/metadata/${game}/${middle!.token}`,
          range,
          `${range}&page=200`,
          `${range}&status=burned&page=200`,
          `${range}&status=minted`,
          `${range}&rarity=4&page=100`,
          `${range}&sortBy=tokenId&sortOrder=asc&page=200&includeMetadata=true`,
          `${range}&sortBy=mintedAt&page=200`,
          `${range}&sortBy=rarity&page=200`,
          `${range}&startTokenId=${middle!.token}&endTokenId=${BigInt(middle!.token) + 99n}&sortBy=tokenId`,
          `/classic/owner/${whale}?limit=50`,
          `/classic/owner/${whale}?limit=50&page=100&sortOrder=asc`,
          `/classic/owner/${whale}?limit=50&status=opened`,
          `/classic/collection/${whale}`,
          `/classic/collection/${whale}?limit=100&page=50`,
          `/classic/collection/${whale}?contractAddress=${game}&limit=100&page=10`,
          `/classic/collection/${game}/events?limit=100`,
          `/classic/collection/${game}/events?limit=100&cursor=${middle!.block}:${middle!.log}`,
          "/classic/recent?limit=50",
          `/classic/recent?limit=50&cursor=${middle!.ms}-${objectId}`,
          // Live-compatible pack reads: the box views, one pack, a game's packs, the rarity of an opening.
          `/classic/owner/${whale}?contractAddress=${game}&limit=50&includeMetadata=true`,
          `/classic/owner/${whale}?contractAddress=${game}&limit=50&page=20&sortOrder=asc&status=opened`,
          `/classic/owner/${whale}?rarityGreaterThan=3&limit=50`,
          `/classic/recent?contractAddress=${game}&rarityGreaterThan=2&limit=50&includeMetadata=true`,
          `/classic/recent?contractAddress=${game}&rarityGreaterThan=4&limit=50&page=20`,
          `/classic/recent?contractAddress=${game}&limit=50&page=100&status=burned`,
          "/classic/recent?rarityGreaterThan=3&limit=50",
          "/classic/recent?rarityGreaterThan=0&limit=50&page=100&status=opened",
          `/classic/?tokenId=${middle!.token}&contractAddress=${game}&includeMetadata=true`,
          `/classic/contractAddress/${game}/tokenId/${middle!.token}`,
          `/classic/contractAddress/${game}/all?limit=50`,
          `/classic/contractAddress/${game}/all?limit=50&page=200`,
          `/classic/rarity?transactionHash=${opening!.tx}&contractAddress=${game}`,
          "/classic/leaderboards/collectors?limit=100",
          "/classic/leaderboards/collectors?limit=100&page=50",
          `/classic/leaderboards/collectors?contractAddress=${game}&limit=100&page=20`,
          "/classic/leaderboards/games?sortBy=volume",
          "/classic/leaderboards/games?sortBy=packs&page=4",
          "/classic/stats",
          "/classic/eth-price",
          `/classic/price-chart/${game}?timeframe=1h`,
          `/classic/price-chart/${game}?timeframe=24h&includeStats=true`,
          `/classic/price-chart/${game}?timeframe=30d&includeStats=true`,
          "/classic/price-chart/scale-game-1-1?timeframe=7d",
          `/classic/collection/${game}/stats`,
        ];
        const found: Record<string, string[]> = {};
        for (const path of paths) {
          const { statements } = await captureStatements(async () => {
            const response = await t.app.server.inject({
              method: "GET",
              url: path,
              headers: { "api-key": key },
            });
            expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
          });
          for (const { text, values } of statements) {
            if (!/^\s*(SELECT|WITH)\b/i.test(text)) continue;
            const plan = await t.db.withConnection((c) =>
              c.query<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(`EXPLAIN (FORMAT JSON) ${text}`, values),
            );
            const scans = planNodes(plan.rows[0]!["QUERY PLAN"][0]!.Plan)
              .filter((node) => node["Node Type"] === "Seq Scan" && LARGE.has(node["Relation Name"] ?? ""))
              .map((node) => node["Relation Name"]!);
            if (scans.length > 0) found[`${path}: ${text.replace(/\s+/g, " ").slice(0, 160)}`] = scans;
          }
        }
        expect(found).toEqual({});
      },
      { timeout: 300_000, reason: "query plans of PostgreSQL at volume (PGlite never runs ANALYZE here)" },
    );
  },
  "query plans of PostgreSQL at volume (PGlite never runs ANALYZE here)",
);
