// Seeds the classic benchmarks: a classic deployment whose factory scope the server serves without
// indexing (no chain), its head, BENCH_CLASSIC_GAMES games and BENCH_CLASSIC_PACKS packs of the first
// game in every state. GET /classic/games and GET /classic/range read the seeded rows.
import type { ChainDeployment } from "../packages/chain/src/index.ts";
import { chainRoles } from "../packages/server/src/chains/index.ts";
import type { Database } from "../packages/server/src/db/index.ts";
import { benchDeployment, seedHead } from "./claims-seed.ts";

const FACTORY = "0x000000000000000000000000000000000000fac7";
/** The first game's drop: the one whose packs `/classic/range` pages. */
export const BENCH_CLASSIC_DROP = "0x0000000000000000000000000000000000d00001";
const GAMES = 200;
const PACKS = 20_000;

export async function seedClassic(db: Database): Promise<ChainDeployment> {
  const deployment = benchDeployment({ DropFactory: { address: FACTORY, startBlock: 1 } });
  const scope = chainRoles([deployment]).classic!.scope;
  await db.withConnection(async (connection) => {
    await seedHead(connection, scope, deployment);
    await connection.query(
      `INSERT INTO classic_games (scope, chain_id, drop_address, game_id, token_address, creator, nft_name, nft_symbol,
         token_name, token_symbol, price_per_pack, merkle_root, eth_reserve, tokens_sold, is_graduated, packs_minted,
         created_block, created_tx, created_at, updated_block, updated_at,
         offers, odds_bps, virtual_eth, virtual_tokens, graduation_eth, first_token_id, is_active, mint_volume, slug)
       SELECT $1, 8453, '0x' || lpad(to_hex(13631488 + n), 40, '0'), n, '0x' || lpad(to_hex(14680064 + n), 40, '0'),
         '0x' || lpad(to_hex(n % 17 + 1), 40, '0'), 'Bench Game ' || n, 'BG' || n, 'Bench Token ' || n, 'BT' || n,
         10000000000000000, '0x' || repeat('00', 32), 50000000000000000 * (n % 9), 1000000000000000000000 * (n % 9),
         false, CASE WHEN n = 1 THEN $2 ELSE n % 50 END, n, '0x' || lpad(to_hex(n), 64, '0'), now() - make_interval(mins => $3 - n),
         n, now() - make_interval(mins => $3 - n),
         '["2000000000000000","5000000000000000","10000000000000000","30000000000000000","100000000000000000"]',
         '[6000,2500,1000,400,100]', 1000000000000000000, 1000000000000000000000000, 5000000000000000000,
         CASE WHEN n = 1 THEN 18446744073709551617 ELSE 1 END, true, 10000000000000000 * (n % 50), 'bench-game-' || n
       FROM generate_series(1, $3::int) AS n`,
      [scope, PACKS, GAMES],
    );
    // Packs of the first game: minted, assigned, opened and burned ones, token ids above 2^64.
    await connection.query(
      `INSERT INTO classic_packs (scope, chain_id, contract_address, token_id, owner, status, rarity, batch_id,
         token_seed, random_value, acquired_price, reward_amount, mint_tx, mint_block, mint_time,
         rarity_tx, rarity_block, rarity_time, opened_tx, opened_block, opened_time, burn_tx, burn_block, burn_time,
         updated_block, updated_at)
       SELECT $1, 8453, $2, 18446744073709551616 + n, '0x' || lpad(to_hex(n % 997 + 1), 40, '0'),
         (ARRAY['minted','rarity_assigned','opened','burned'])[n % 4 + 1], CASE WHEN n % 4 = 0 THEN 0 ELSE 1 + n % 5 END,
         n / 4, CASE WHEN n % 4 = 0 THEN NULL ELSE 1000000007::numeric * n END, CASE WHEN n % 4 = 0 THEN NULL ELSE n % 10000 END,
         10000000000000000, CASE WHEN n % 4 = 3 THEN 2000000000000000 ELSE NULL END,
         '0x' || lpad(to_hex(n), 64, '0'), n, now() - make_interval(secs => $3 - n),
         CASE WHEN n % 4 = 0 THEN NULL ELSE '0x' || lpad(to_hex(n + 1), 64, '0') END, CASE WHEN n % 4 = 0 THEN NULL ELSE n + 1 END,
         CASE WHEN n % 4 = 0 THEN NULL ELSE now() - make_interval(secs => $3 - n) END,
         CASE WHEN n % 4 >= 2 THEN '0x' || lpad(to_hex(n + 2), 64, '0') END, CASE WHEN n % 4 >= 2 THEN n + 2 END,
         CASE WHEN n % 4 >= 2 THEN now() - make_interval(secs => $3 - n) END,
         CASE WHEN n % 4 = 3 THEN '0x' || lpad(to_hex(n + 3), 64, '0') END, CASE WHEN n % 4 = 3 THEN n + 3 END,
         CASE WHEN n % 4 = 3 THEN now() - make_interval(secs => $3 - n) END,
         n + 3, now() - make_interval(secs => $3 - n)
       FROM generate_series(1, $3::int) AS n`,
      [scope, BENCH_CLASSIC_DROP, PACKS],
    );
  });
  return deployment;
}
