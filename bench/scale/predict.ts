// The prediction feed's surface of the scale benchmark: its volumes (markets, trades, positions:
// packages/server/src/_test/volume/predict.ts) and every read of /predict/v9 over them, at the first
// page and a deep page (for one-record reads: the newest or lightest record, and the busiest).
import {
  checkPredictVolumeSample,
  loadPredictVolume,
  PREDICT_VOLUME_DEPLOYMENT,
  PREDICT_VOLUME_SCOPE,
  predictVolumeAt,
} from "../../packages/server/src/_test/volume/predict.ts";
import type { Database } from "../../packages/server/src/db/index.ts";
import type { ScaleRoute, ScaleSurface } from "./surface.ts";

const n = (value: number) => value.toLocaleString("en");
const FEED = "/predict/v9";

/**
 * Keeps the loaded head fresh the way a running indexer on a quiet chain does (observed now, its
 * newest finalized block's time now), so the feed's freshness gate lets the benchmark through
 * however long it runs; no block is added, so kept answers stay valid.
 */
function keepHeadFresh(db: Database, everyMs = 5_000): () => void {
  const touch = () =>
    db
      .withConnection((connection) =>
        connection.query(
          "UPDATE indexer_heads SET observed_at = now(), block_time = now() WHERE scope = $1",
          [PREDICT_VOLUME_SCOPE],
        ),
      )
      .catch(() => {});
  void touch();
  const timer = setInterval(touch, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

interface Landmarks {
  newest: { address: string; id: string };
  oldestId: string;
  busiest: { address: string; id: string; trades: number };
  busiestOpen: { address: string };
  newestOpen: { address: string };
  whale: { owner: string; positions: number; lastPageCursor: string };
  light: { trader: string };
  heaviest: { trader: string; trades: number };
}

/** The records the routes read: newest, oldest and busiest markets, the biggest and a small holder. */
async function landmarks(db: Database): Promise<Landmarks> {
  return db.withConnection(async (connection) => {
    const one = async <T>(sql: string, params: unknown[] = []) => {
      const { rows } = await connection.query<T>(sql, [PREDICT_VOLUME_SCOPE, ...params]);
      if (!rows[0]) throw new Error(`predict scale: nothing for ${sql}`);
      return rows[0];
    };
    const newest = await one<{ address: string; id: string }>(
      "SELECT address, market_id::text AS id FROM predict_markets WHERE scope = $1 ORDER BY market_id DESC LIMIT 1",
    );
    const { id: oldestId } = await one<{ id: string }>(
      "SELECT market_id::text AS id FROM predict_markets WHERE scope = $1 ORDER BY market_id LIMIT 1",
    );
    const busiest = await one<{ address: string; id: string; trades: number }>(
      "SELECT address, market_id::text AS id, trade_seq AS trades FROM predict_markets WHERE scope = $1 ORDER BY trade_seq DESC, market_id LIMIT 1",
    );
    const busiestOpen = await one<{ address: string }>(
      "SELECT address FROM predict_markets WHERE scope = $1 AND status = 'active' ORDER BY trade_seq DESC, market_id LIMIT 1",
    );
    const newestOpen = await one<{ address: string }>(
      "SELECT address FROM predict_markets WHERE scope = $1 AND status = 'active' ORDER BY market_id DESC LIMIT 1",
    );
    const whale = await one<{ owner: string; positions: number }>(
      "SELECT owner, count(*)::int AS positions FROM predict_positions WHERE scope = $1 GROUP BY owner ORDER BY 2 DESC, owner LIMIT 1",
    );
    // The portfolio's last page of 100: the positions after the (count - 100)th market address.
    const { cursor } = await one<{ cursor: string }>(
      `SELECT market AS cursor FROM predict_positions WHERE scope = $1 AND owner = $2
       ORDER BY market OFFSET $3 LIMIT 1`,
      [whale.owner, Math.max(0, whale.positions - 101)],
    );
    const heaviest = await one<{ trader: string; trades: number }>(
      "SELECT trader, trades FROM predict_traders WHERE scope = $1 ORDER BY trades DESC, trader LIMIT 1",
    );
    const light = await one<{ trader: string }>(
      "SELECT trader FROM predict_traders WHERE scope = $1 ORDER BY trades, trader LIMIT 1",
    );
    return {
      newest,
      oldestId,
      busiest,
      busiestOpen,
      newestOpen,
      whale: { ...whale, lastPageCursor: cursor },
      light,
      heaviest,
    };
  });
}

export const predictScale: ScaleSurface = {
  id: "predict",
  deployment: PREDICT_VOLUME_DEPLOYMENT,
  async load(ctx) {
    await loadPredictVolume(ctx.db, predictVolumeAt(ctx.count), ctx.log);
  },
  async checkSample(ctx) {
    await checkPredictVolumeSample(ctx.db, predictVolumeAt(ctx.count));
  },
  serve: (db) => keepHeadFresh(db),
  async routes(ctx) {
    const volume = predictVolumeAt(ctx.count);
    const at = await landmarks(ctx.db);
    const markets = `${n(volume.markets)} markets`;
    const trades = `${n(volume.trades)} trades`;
    const positions = `${n(volume.positions)} positions`;
    const marketPages = Math.ceil(volume.markets / 100);
    const tradePages = Math.max(1, Math.ceil(at.busiest.trades / 100));
    const amount = "10000000000000000";
    const route = (name: string, page: ScaleRoute["page"], volumeText: string, path: string): ScaleRoute => ({
      route: `GET ${FEED}${name}`,
      page,
      volume: volumeText,
      path: `${FEED}${path}`,
    });
    return [
      route("/runtime", "first", markets, "/runtime"),
      route("/health", "first", markets, "/health"),
      route("/markets", "first", markets, "/markets?limit=100"),
      // The oldest 100 markets: the end of a walk by nextCursor.
      route("/markets", "deep", markets, `/markets?limit=100&cursor=${BigInt(at.oldestId) + 100n}`),
      route("/markets/{address}", "first", markets, `/markets/${at.newest.address}`),
      route("/markets/{address}", "deep", `${markets}, ${trades}`, `/markets/${at.busiest.address}`),
      route("/markets/{address}/media", "first", markets, `/markets/${at.newest.address}/media`),
      route("/markets/{address}/media", "deep", markets, `/markets/${at.busiest.address}/media`),
      route("/quote", "first", markets, `/quote?market=${at.newestOpen.address}&side=yes&amount=${amount}`),
      route("/quote", "deep", markets, `/quote?market=${at.busiestOpen.address}&side=no&amount=${amount}`),
      route("/portfolio/{address}", "first", positions, `/portfolio/${at.whale.owner}?limit=100`),
      route(
        "/portfolio/{address}",
        "deep",
        positions,
        `/portfolio/${at.whale.owner}?limit=100&cursor=${at.whale.lastPageCursor}`,
      ),
      route("/points/{address}", "first", trades, `/points/${at.light.trader}`),
      route("/points/{address}", "deep", trades, `/points/${at.heaviest.trader}`),
      route("/points", "first", trades, "/points?limit=100"),
      route("/legacy/markets", "first", markets, "/legacy/markets?page=1&per_page=100"),
      route("/legacy/markets", "deep", markets, `/legacy/markets?page=${marketPages}&per_page=100`),
      route("/legacy/markets/{id}", "first", markets, `/legacy/markets/${at.newest.id}`),
      route("/legacy/markets/{id}", "deep", markets, `/legacy/markets/${at.busiest.id}`),
      route(
        "/legacy/markets/{id}/trades",
        "first",
        trades,
        `/legacy/markets/${at.busiest.id}/trades?page=1&per_page=100`,
      ),
      route(
        "/legacy/markets/{id}/trades",
        "deep",
        trades,
        `/legacy/markets/${at.busiest.id}/trades?page=${tradePages}&per_page=100`,
      ),
    ];
  },
};
