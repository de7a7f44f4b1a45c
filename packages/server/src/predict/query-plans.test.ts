// The prediction feed's plans at volume: every hot read's SQL, captured from the real routes over
// about 200,000 trades (and 20,000 positions, 5,000 markets and traders) loaded through the
// projection, must read no large table sequentially once the planner has statistics.
import { afterAll, beforeAll, expect } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";
import { postgresOnly, setupDatabase } from "../_test/database.ts";
import { captureStatements, type PlanNode, planNodes } from "../_test/volume/capture.ts";
import {
  loadPredictVolume,
  PREDICT_VOLUME_DEPLOYMENT,
  PREDICT_VOLUME_SCOPE,
  type PredictVolume,
  volumeMarketAddress,
} from "../_test/volume/predict.ts";
import { rollbackScope } from "../indexer/reorg.ts";

const VOLUME: PredictVolume = { markets: 5_000, trades: 200_000, positions: 20_000, traders: 5_000 };
/** The tables that grow with the chain's history: a sequential scan of one grows with it. */
const LARGE = new Set([
  "predict_markets",
  "predict_trades",
  "predict_positions",
  "predict_traders",
  "chain_events",
  "indexer_contracts",
]);
const REASON = "plans need PostgreSQL's planner and statistics (PGlite never analyses on its own)";

postgresOnly.describe(
  "prediction feed query plans at volume",
  () => {
    let t: TestApp;
    let key: string;
    let routes: string[];

    beforeAll(async () => {
      const database = await setupDatabase();
      await loadPredictVolume(database.db, VOLUME);
      t = await setupApp({
        database,
        deployments: [PREDICT_VOLUME_DEPLOYMENT],
        // The loaded head's block time is the load's; the test may outlast the documented bound.
        predictFreshness: { maxObservationAgeMs: 86_400_000, maxBlockAgeMs: 86_400_000 },
      });
      key = (await t.createKey({ multiplier: 100 })).key;
      const { rows } = await t.db.withConnection((connection) =>
        connection.query<{ busiest: string; id: string; trades: number; owner: string; trader: string }>(
          `SELECT m.address AS busiest, m.market_id::text AS id, m.trade_seq AS trades,
             (SELECT owner FROM predict_positions GROUP BY owner ORDER BY count(*) DESC, owner LIMIT 1) AS owner,
             (SELECT trader FROM predict_traders ORDER BY trades DESC, trader LIMIT 1) AS trader
           FROM predict_markets m WHERE m.scope = $1 AND m.status = 'active'
           ORDER BY m.trade_seq DESC LIMIT 1`,
          [PREDICT_VOLUME_SCOPE],
        ),
      );
      const at = rows[0]!;
      const deep = Math.ceil(at.trades / 100);
      routes = [
        "/markets?limit=100",
        "/markets?limit=100&cursor=101",
        `/markets/${at.busiest}`,
        `/markets/${at.busiest}/media`,
        `/quote?market=${at.busiest}&side=yes&amount=1000000000000000`,
        `/portfolio/${at.owner}?limit=100`,
        `/portfolio/${at.owner}?limit=100&cursor=${volumeMarketAddress(VOLUME.markets / 2)}`,
        `/points/${at.trader}`,
        "/points?limit=100",
        "/legacy/markets?page=1&per_page=100",
        `/legacy/markets?page=${VOLUME.markets / 100}&per_page=100`,
        `/legacy/markets/${at.id}`,
        `/legacy/markets/${at.id}/trades?page=1&per_page=100`,
        `/legacy/markets/${at.id}/trades?page=${deep}&per_page=100`,
      ];
    }, 600_000);

    afterAll(async () => {
      await t?.close();
    });

    postgresOnly.it(
      "reads no large table sequentially on any route, first page or deep",
      async () => {
        const scans: string[] = [];
        let explained = 0;
        for (const route of routes) {
          const url = `/predict/v9${route}`;
          let status = 0;
          const { statements } = await captureStatements(async () => {
            status = (await t.app.server.inject({ method: "GET", url, headers: { "api-key": key } }))
              .statusCode;
          });
          expect(status, url).toBe(200);
          const reads = statements.filter(({ text }) => /^\s*(SELECT|WITH)\b/i.test(text));
          expect(reads.length, `${url} reads the projection`).toBeGreaterThan(0);
          explained += reads.length;
          for (const { text, values } of reads) {
            const { rows } = await t.db.withConnection((connection) =>
              connection.query<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(
                `EXPLAIN (FORMAT JSON) ${text}`,
                values,
              ),
            );
            for (const node of planNodes(rows[0]!["QUERY PLAN"][0]!.Plan)) {
              if (node["Node Type"] === "Seq Scan" && LARGE.has(node["Relation Name"] ?? "")) {
                scans.push(`${url}: Seq Scan on ${node["Relation Name"]} in ${text.replace(/\s+/g, " ")}`);
              }
            }
          }
        }
        expect(scans).toEqual([]);
        expect(explained).toBeGreaterThanOrEqual(routes.length);
      },
      { timeout: 120_000, reason: REASON },
    );

    postgresOnly.it(
      "rolls a shallow reorg back without reading a large table whole",
      async () => {
        const statements = await t.db.withConnection(async (connection) => {
          const { rows } = await connection.query<{ top: string }>(
            "SELECT max(block_number)::text AS top FROM predict_trades WHERE scope = $1",
            [PREDICT_VOLUME_SCOPE],
          );
          // Captured inside a transaction that is rolled back: the statements a reorg of the last
          // three blocks runs, without keeping its deletions.
          await connection.query("BEGIN");
          try {
            const { statements } = await captureStatements(() =>
              rollbackScope(connection, PREDICT_VOLUME_SCOPE, BigInt(rows[0]!.top) - 3n),
            );
            return statements;
          } finally {
            await connection.query("ROLLBACK");
          }
        });
        const deletes = statements.filter(({ text }) => /^\s*DELETE\b/i.test(text));
        expect(deletes.map(({ text }) => /DELETE FROM "?(\w+)"?/.exec(text)?.[1])).toEqual(
          expect.arrayContaining(["predict_trades", "chain_events", "market_claims"]),
        );
        // Each large table is reached through an index on its scope (and block), never read whole:
        // not by a sequential scan, and not by a full scan of an index keyed by something else with
        // the block as a filter on every entry.
        const scans: string[] = [];
        for (const { text, values } of deletes) {
          const { rows } = await t.db.withConnection((connection) =>
            connection.query<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(
              `EXPLAIN (FORMAT JSON) ${text}`,
              values,
            ),
          );
          for (const node of planNodes(rows[0]!["QUERY PLAN"][0]!.Plan)) {
            const relation = node["Relation Name"] ?? "";
            if (node["Node Type"] === "ModifyTable" || !LARGE.has(relation)) continue;
            const condition = node["Index Cond"] ?? node["Recheck Cond"] ?? "";
            if (!condition.includes("scope")) {
              scans.push(
                `${node["Node Type"]} on ${relation} (${condition || "no condition"}) in ${text.replace(/\s+/g, " ")}`,
              );
            }
          }
        }
        expect(scans).toEqual([]);
      },
      { timeout: 120_000, reason: REASON },
    );
  },
  REASON,
);
