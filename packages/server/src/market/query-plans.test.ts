import { afterAll, beforeAll, expect, it } from "vitest";
import { signIn, testWallet } from "../_test/accounts.ts";
import { setupApp, type TestApp } from "../_test/app.ts";
import { postgresOnly, setupDatabase, type TestDatabase } from "../_test/database.ts";
import {
  type CapturedStatement,
  captureStatements,
  type PlanNode,
  planNodes,
} from "../_test/volume/capture.ts";
import {
  checkMarketClaimsSample,
  loadMarketClaims,
  loadMarketSocial,
  marketCounts,
  marketReadRoutes,
  type VolumeRoute,
  volumeDeployment,
} from "../_test/volume/market.ts";

/** About 200,000 rows in each of the big market tables (claims, DMs), 20,000 accounts. */
const SCALE = 0.2;
/** A table holding more rows than this is large: reading it whole is a plan that does not stay good. */
const LARGE = 5_000;

postgresOnly.describe(
  "market query plans at volume",
  () => {
    let database: TestDatabase;
    let test: TestApp;
    let routes: VolumeRoute[];
    const counts = marketCounts(SCALE);
    const measured = testWallet(0).address.toLowerCase();

    beforeAll(async () => {
      database = await setupDatabase();
      const anchorMs = Math.floor(Date.now() / 1000) * 1000 - 365 * 86_400_000;
      const log = () => {};
      await loadMarketClaims(database.db, { counts, measured, anchorMs, log });
      await loadMarketSocial(database.db, { counts, measured, anchorMs, log });
      await database.db.withConnection((c) => c.exec("ANALYZE"));
      await checkMarketClaimsSample(database.db, { counts, measured });
      test = await setupApp({ database, deployments: [volumeDeployment()] });
      const { key: apiKey } = await test.createKey({ multiplier: 1000 });
      const { headers: session } = await signIn(test, 0, { apiKey });
      routes = await marketReadRoutes({
        counts,
        measured,
        session,
        get: async (path, headers) => {
          const response = await test.app.server.inject({
            method: "GET",
            url: path,
            headers: { "api-key": apiKey, ...headers },
          });
          return { status: response.statusCode, body: response.body };
        },
      });
      // Every route with the key (the session routes carry it already).
      routes = routes.map((route) => ({ ...route, headers: { "api-key": apiKey, ...route.headers } }));
    }, 600_000);
    afterAll(async () => {
      await test?.close();
      await database?.close();
    });

    it("reads no large table whole in any statement a market read runs, first page or deep", async () => {
      const { rows: sizes } = await database.db.withConnection((c) =>
        c.query<{ relname: string; reltuples: number }>(
          "SELECT relname, reltuples FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace",
          [],
        ),
      );
      const large = new Set(sizes.filter((t) => t.reltuples > LARGE).map((t) => t.relname));
      expect([...large]).toEqual(
        expect.arrayContaining([
          "market_claims",
          "dm_messages",
          "accounts",
          "follows",
          "market_board_collectors",
        ]),
      );
      const explained: string[] = [];
      const scans: string[] = [];
      for (const route of routes) {
        // Twice: the second request is what a request costs once the key and session are known;
        // the first also runs what a read-cache miss runs.
        for (let round = 0; round < 2; round++) {
          const { result, statements } = await captureStatements(() =>
            test.app.server.inject({ method: "GET", url: route.path, headers: route.headers ?? {} }),
          );
          expect(result.statusCode, `${route.path}: ${result.body}`).toBe(200);
          for (const statement of statements.filter(isRead)) {
            const plan = await explain(statement);
            explained.push(statement.text);
            for (const node of planNodes(plan)) {
              if (node["Node Type"] === "Seq Scan" && large.has(node["Relation Name"] ?? ""))
                scans.push(
                  `${route.route} (${route.page}) scans ${node["Relation Name"]}: ${statement.text}`,
                );
            }
          }
        }
      }
      expect(scans).toEqual([]);
      // The reads ran SQL to look at: the claims, DMs, follows, releases and board queries among them.
      for (const table of ["market_claims", "dm_messages", "follows", "releases", "market_board_collectors"])
        expect(
          explained.some((text) => text.includes(table)),
          table,
        ).toBe(true);
    }, 600_000);

    const isRead = (statement: CapturedStatement) => /^\s*(select|with)\b/i.test(statement.text);
    const explain = async (statement: CapturedStatement): Promise<PlanNode> => {
      const { rows } = await database.db.withConnection((c) =>
        c.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
          `EXPLAIN (FORMAT JSON) ${statement.text}`,
          statement.values ?? [],
        ),
      );
      return rows[0]!["QUERY PLAN"][0].Plan;
    };
  },
  "seeds about 200,000 rows of market volume and reads PostgreSQL's plans: PostgreSQL only",
);
