// The classic surface of the scale benchmark: its volumes (packages/server/src/_test/volume/classic.ts:
// 1,000 games, 2,000,000 packs, 5,000,000 activity records times SCALE) and every classic list or
// read over them, at the first page and at a deep page: the deepest page a bounded list answers
// (`CLASSIC_MAX_PAGE_DEPTH`), the last page of a short one, the middle of the history for a cursor.
// The two marketplace-standard metadata routes (`/metadata/{addressOrSlug}` and
// `/metadata/{addressOrSlug}/{tokenId}`) are not measured here: they take no key, so 2,000 requests
// a minute per client is their budget whatever the key's multiplier, and a load at 32 connections
// would measure that limiter. Each is one read by primary key (the plan test checks it).
import { CLASSIC_MAX_PAGE_DEPTH } from "@mkt/protocol";
import {
  CLASSIC_VOLUME,
  type ClassicVolume,
  checkClassicSampleVolume,
  loadClassicVolume,
  volumeDrop,
  volumeWallet,
} from "../../packages/server/src/_test/volume/classic.ts";
import { chainRoles } from "../../packages/server/src/chains/index.ts";
import { benchDeployment } from "../claims-seed.ts";
import type { ScaleLoadContext, ScaleRoute, ScaleSurface } from "./surface.ts";

const deployment = benchDeployment({
  DropFactory: { address: "0x000000000000000000000000000000000000fac7", startBlock: 1 },
});
const role = chainRoles([deployment]).classic!;
const n = (value: number) => value.toLocaleString("en");

const volumeAt = (ctx: Pick<ScaleLoadContext, "count">): ClassicVolume => ({
  games: ctx.count(CLASSIC_VOLUME.games),
  packs: ctx.count(CLASSIC_VOLUME.packs),
  activity: ctx.count(CLASSIC_VOLUME.activity),
  wallets: ctx.count(CLASSIC_VOLUME.wallets),
});

/** The deepest page of `total` rows at `limit` a bounded list answers. */
const deepestPage = (total: number, limit: number) =>
  Math.max(1, Math.min(Math.floor(CLASSIC_MAX_PAGE_DEPTH / limit), Math.ceil(total / limit)));

export const classicScale: ScaleSurface = {
  id: "classic",
  deployment,
  load: (ctx) => loadClassicVolume(ctx, role, volumeAt(ctx)),
  checkSample: (ctx) => checkClassicSampleVolume(ctx, role),
  async routes(ctx) {
    const volume = volumeAt(ctx);
    const q = async <T>(text: string, params: unknown[] = []) =>
      (await ctx.db.withConnection((c) => c.query<T & Record<string, unknown>>(text, params))).rows;
    // Game 1 is the largest; wallet 1 the largest holder; a wallet in the middle of the tail.
    const game = volumeDrop(1);
    const whale = volumeWallet(1);
    const [sizes] = await q<{
      packs: string;
      burned: string;
      owned: string;
      games: string;
      collectors: string;
    }>(
      `SELECT (SELECT sum(packs) FROM classic_pack_counts WHERE contract_address = $1)::text AS packs,
              (SELECT sum(packs) FROM classic_pack_counts WHERE contract_address = $1 AND status = 'burned')::text AS burned,
              (SELECT minted + assigned + opened + burned FROM classic_collectors WHERE owner = $2)::text AS owned,
              (SELECT count(*) FROM classic_games)::text AS games,
              (SELECT collectors FROM classic_platform_totals)::text AS collectors`,
      [game, whale],
    );
    const gamePacks = Number(sizes!.packs);
    const owned = Number(sizes!.owned);
    const games = Number(sizes!.games);
    const collectors = Number(sizes!.collectors);
    // Cursors in the middle of the history: the game's activity and everyone's.
    const [middle] = await q<{ block: string; log: number }>(
      `SELECT block_number::text AS block, log_index AS log FROM chain_events
       WHERE address = $1 ORDER BY block_number, log_index OFFSET (SELECT count(*) / 2 FROM chain_events WHERE address = $1) LIMIT 1`,
      [game],
    );
    const [recent] = await q<{ ms: string; block: string; log: number }>(
      `SELECT (extract(epoch FROM block_time) * 1000)::bigint::text AS ms, block_number::text AS block, log_index AS log
       FROM chain_events ORDER BY block_time DESC, block_number DESC, log_index DESC
       OFFSET (SELECT count(*) / 2 FROM chain_events) LIMIT 1`,
    );
    const objectId = `${BigInt(recent!.block).toString(16).padStart(16, "0")}${recent!.log.toString(16).padStart(8, "0")}`;
    const packsOfGame = `${n(gamePacks)} packs of the largest game (${n(volume.packs)} in all)`;
    const packsOfWallet = `${n(owned)} packs of the largest holder (${n(volume.packs)} in all)`;
    const allGames = `${n(games)} games`;
    const allActivity = `${n(volume.activity)} activity records`;
    const routes: ScaleRoute[] = [];
    const add = (route: string, volumeText: string, first: string, deep?: string) => {
      routes.push({ route, page: "first", volume: volumeText, path: first });
      if (deep !== undefined) routes.push({ route, page: "deep", volume: volumeText, path: deep });
    };
    add(
      "GET /classic/games",
      allGames,
      "/classic/games?limit=20",
      `/classic/games?limit=20&page=${Math.ceil(games / 20)}`,
    );
    add(
      "GET /classic/search",
      allGames,
      "/classic/search?q=scale&limit=20",
      `/classic/search?q=scale&limit=20&page=${Math.ceil(games / 20)}`,
    );
    add("GET /classic/featured", allGames, "/classic/featured?sortBy=trending&limit=10");
    add("GET /classic/contractAddress/{addressOrSlug}", allGames, "/classic/contractAddress/scale-game-1-1");
    add(
      "GET /classic/contractAddress/{addressOrSlug}/all-metadata",
      packsOfGame,
      `/classic/contractAddress/${game}/all-metadata?includeContractDetails=true`,
    );
    add("GET /classic/metadata/{addressOrSlug}/cards", allGames, `/classic/metadata/${game}/cards`);
    add("GET /classic/metadata/{addressOrSlug}/odds", allGames, `/classic/metadata/${game}/odds`);
    const range = `/classic/range?contractAddress=${game}&limit=50`;
    add("GET /classic/range", packsOfGame, range, `${range}&page=${deepestPage(gamePacks, 50)}`);
    add(
      "GET /classic/range?status=burned",
      packsOfGame,
      `${range}&status=burned`,
      `${range}&status=burned&page=${deepestPage(Number(sizes!.burned), 50)}`,
    );
    add(
      "GET /classic/range?sortBy=tokenId&includeMetadata=true",
      packsOfGame,
      `${range}&sortBy=tokenId&includeMetadata=true`,
      `${range}&sortBy=tokenId&includeMetadata=true&page=${deepestPage(gamePacks, 50)}`,
    );
    add(
      "GET /classic/owner/{address}",
      packsOfWallet,
      `/classic/owner/${whale}?limit=50`,
      `/classic/owner/${whale}?limit=50&page=${deepestPage(owned, 50)}`,
    );
    add(
      "GET /classic/collection/{ownerAddress}",
      packsOfWallet,
      `/classic/collection/${whale}?limit=100`,
      `/classic/collection/${whale}?limit=100&page=${deepestPage(owned, 100)}`,
    );
    add(
      "GET /classic/collection/{contractAddress}/events",
      allActivity,
      `/classic/collection/${game}/events?limit=100`,
      `/classic/collection/${game}/events?limit=100&cursor=${middle!.block}:${middle!.log}`,
    );
    add(
      "GET /classic/recent",
      allActivity,
      "/classic/recent?limit=50",
      `/classic/recent?limit=50&cursor=${recent!.ms}-${objectId}`,
    );
    add(
      "GET /classic/leaderboards/collectors",
      `${n(collectors)} wallets`,
      "/classic/leaderboards/collectors?limit=100",
      `/classic/leaderboards/collectors?limit=100&page=${deepestPage(collectors, 100)}`,
    );
    add(
      "GET /classic/leaderboards/games",
      allGames,
      "/classic/leaderboards/games?sortBy=volume&limit=100",
      `/classic/leaderboards/games?sortBy=volume&limit=100&page=${Math.ceil(games / 100)}`,
    );
    add("GET /classic/stats", `${n(volume.packs)} packs`, "/classic/stats");
    // Live-compatible pack reads: the box views of /owner and /recent, one pack, a game's packs, /rarity.
    const [live] = await q<{
      owned_in_game: string;
      rare: string;
      rare_all: string;
      token: string;
      tx: string;
    }>(
      `SELECT (SELECT minted + assigned + opened + burned FROM classic_game_collectors
               WHERE contract_address = $1 AND owner = $2)::text AS owned_in_game,
              (SELECT sum(packs) FROM classic_pack_counts WHERE contract_address = $1 AND rarity > 2)::text AS rare,
              (SELECT sum(packs) FROM classic_pack_counts WHERE rarity > 3)::text AS rare_all,
              (SELECT min(token_id) + div(max(token_id) - min(token_id), 2) FROM classic_packs
               WHERE contract_address = $1)::text AS token,
              (SELECT transaction_hash FROM chain_events WHERE address = $1 AND event = 'BoosterDropOpened'
               ORDER BY block_number DESC, log_index DESC LIMIT 1) AS tx`,
      [game, whale],
    );
    const ownedInGame = Number(live!.owned_in_game ?? 0);
    const ownerBoxes = `/classic/owner/${whale}?contractAddress=${game}&limit=50&includeMetadata=true`;
    add(
      "GET /classic/owner/{address}?contractAddress (box view)",
      `${n(ownedInGame)} packs of the largest holder in the largest game`,
      ownerBoxes,
      `${ownerBoxes}&page=${deepestPage(ownedInGame, 50)}`,
    );
    const recentRare = `/classic/recent?contractAddress=${game}&rarityGreaterThan=2&limit=50&includeMetadata=true`;
    add(
      "GET /classic/recent?contractAddress&rarityGreaterThan=2 (box view)",
      `${n(Number(live!.rare ?? 0))} Epic or rarer packs of the largest game`,
      recentRare,
      `${recentRare}&page=${deepestPage(Number(live!.rare ?? 0), 50)}`,
    );
    add(
      "GET /classic/recent?rarityGreaterThan=3 (box view, every game)",
      `${n(Number(live!.rare_all ?? 0))} Legendary or Mythic packs (${n(volume.packs)} in all)`,
      "/classic/recent?rarityGreaterThan=3&limit=50",
      `/classic/recent?rarityGreaterThan=3&limit=50&page=${deepestPage(Number(live!.rare_all ?? 0), 50)}`,
    );
    add(
      "GET /classic/?tokenId&contractAddress",
      packsOfGame,
      `/classic/?tokenId=${live!.token}&contractAddress=${game}&includeMetadata=true`,
    );
    add(
      "GET /classic/contractAddress/{addressOrSlug}/tokenId/{tokenId}",
      packsOfGame,
      `/classic/contractAddress/${game}/tokenId/${live!.token}`,
    );
    add(
      "GET /classic/contractAddress/{addressOrSlug}/all",
      packsOfGame,
      `/classic/contractAddress/${game}/all?limit=50`,
      `/classic/contractAddress/${game}/all?limit=50&page=${deepestPage(gamePacks, 50)}`,
    );
    if (live!.tx)
      add(
        "GET /classic/rarity",
        allActivity,
        `/classic/rarity?transactionHash=${live!.tx}&contractAddress=${game}`,
      );
    // The live-compatible market reads: the chart's widest window (30 daily points over a month of
    // the largest game's mints) is its "deep" page.
    add(
      "GET /classic/price-chart/{address}",
      packsOfGame,
      `/classic/price-chart/${game}?timeframe=24h&includeStats=true`,
      `/classic/price-chart/${game}?timeframe=30d&includeStats=true`,
    );
    add("GET /classic/collection/{address}/stats", packsOfGame, `/classic/collection/${game}/stats`);
    add("GET /classic/eth-price", "one price", "/classic/eth-price");
    return routes;
  },
};
