import {
  boosterDropAbi,
  boosterTokenAbi,
  type ChainDeployment,
  claimDropsAbi,
  dropFactoryAbi,
  liveBoosterDropAbi,
  liveBoosterTokenAbi,
  marketAbi,
  runtimeRegistryAbi,
} from "@mkt/chain";
import { defaultGameSlug, predictPointsOf } from "@mkt/protocol";
import { Registry } from "prom-client";
import { type Address, decodeEventLog, type Hex, hexToBigInt } from "viem";
import { expect } from "vitest";
import { chainRoles } from "../chains/index.ts";
import type { Database } from "../db/index.ts";
import { scopesOf } from "../indexer/projections.ts";
import { finalizedBlock } from "../indexer/ranges.ts";
import { createIndexerService } from "../indexer/service.ts";
import { createLogger } from "../logging/index.ts";
import { systemClock } from "../quotas/limiter.ts";
import { setupDatabase } from "./database.ts";
import type { TestChain } from "./dev-chain.ts";

type Row = Record<string, unknown>;

/** A chain as the check reads it: a test's own dev chain, or one `npm run chain` runs. */
export type IndexedChain = Pick<TestChain, "clients" | "deployment">;

/** Market events recorded in predict_trades. */
const TRADES = new Set(["Buy", "Sell", "Redeemed"]);

/** Event arguments as the projection stores them: addresses lowercase, integers of more than 48 bits as decimal strings, tuples as objects. */
function plain(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string" && /^0x[0-9a-fA-F]{40}$/.test(value)) return value.toLowerCase();
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === "object" && value !== null) return plainArgs(value);
  return value;
}

const plainArgs = (args: unknown) =>
  Object.fromEntries(Object.entries((args ?? {}) as Row).map(([name, value]) => [name, plain(value)]));

/** The projection's tables, as `snapshotProjection` compares them. */
const PROJECTION_TABLES = [
  "classic_games",
  "classic_packs",
  "classic_open_batches",
  "market_runtimes",
  "market_drops",
  "market_claims",
  "market_board_holdings",
  "market_board_collectors",
  "predict_markets",
  "predict_trades",
  "predict_positions",
  "predict_traders",
  "chain_events",
  // The summaries the classic_packs triggers keep: undone with the packs by a reorg.
  "classic_pack_counts",
  "classic_collectors",
  "classic_game_collectors",
  "classic_game_holders",
  "classic_platform_totals",
  "classic_mint_hours",
] as const;

/**
 * Every row of every projection table, as sorted JSON lines per table: two
 * databases that indexed the same chain compare equal (a fresh index against
 * one that went through a fault).
 */
export async function snapshotProjection(db: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of PROJECTION_TABLES) {
    const { rows } = await db.withConnection((c) => c.query(`SELECT * FROM ${table}`));
    out[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return out;
}

/**
 * The projection in `db` equals, row for row, what a fresh index of these deployments writes into
 * a database of its own: what a fault test checks after an outage, a takeover or a hand-off. Unlike
 * `expectProjectionMatchesChain`, this one runs the indexer's code (a second, clean run of it).
 */
export async function expectProjectionEqualsFreshIndex(
  db: Database,
  deployments: readonly ChainDeployment[],
): Promise<void> {
  const reference = await setupDatabase();
  try {
    const fresh = createIndexerService({
      db: reference.db,
      logger: createLogger({ level: "silent" }),
      clock: systemClock,
      deployments: [...deployments],
      registry: new Registry(),
    });
    for (const indexer of fresh.indexers) await indexer.syncOnce();
    await fresh.stop();
    expect(await snapshotProjection(db)).toEqual(await snapshotProjection(reference.db));
  } finally {
    await reference.close();
  }
}

/**
 * Checks an indexed (caught-up) database against the chain, independently of
 * the indexer's code: the chain's logs are read with viem and decoded with
 * viem's decoder, state is read from the contracts with `readContract`.
 *
 * - Every log of every contract of every scope (the deployment's and those
 *   its factories created) is recorded exactly once, in the table that
 *   records it, with the arguments the chain's receipts decode to and its
 *   block's hash and time.
 * - Every state row (drops, games, packs, markets, positions) holds what the
 *   contract reports now.
 * - The classic summaries (pack counts, collectors, holders, platform totals,
 *   mint hours) equal a GROUP BY over the packs.
 */
export async function expectProjectionMatchesChain(db: Database, chain: IndexedChain): Promise<void> {
  const { publicClient } = chain.clients;
  const query = async <T extends Row>(sql: string, params: unknown[] = []) =>
    (await db.withConnection((c) => c.query<T>(sql, params))).rows;
  const latest = await publicClient.getBlockNumber();
  const blockTimes = new Map<bigint, Promise<Date>>();
  const blockTime = (number: bigint) => {
    let time = blockTimes.get(number);
    if (!time) {
      time = publicClient
        .getBlock({ blockNumber: number })
        .then((block) => new Date(Number(block.timestamp) * 1000));
      blockTimes.set(number, time);
    }
    return time;
  };

  // A scope that reads only finalized blocks is the chain at its last final block.
  let predictAt = latest;
  for (const scope of scopesOf([chain.deployment])) {
    const upTo = scope.reads === "finalized" ? finalizedBlock(latest, scope.finalityDepth) : latest;
    if (scope.generation === "predict") predictAt = upTo;
    const [head] = await query<{ next_block: string }>(
      "SELECT next_block FROM indexer_heads WHERE scope = $1",
      [scope.id],
    );
    expect(BigInt(head!.next_block), `${scope.id} is caught up`).toBe(upTo + 1n);
    const created = await query<{ address: string; kind: string; label: string | null }>(
      "SELECT address, kind, label FROM indexer_contracts WHERE scope = $1",
      [scope.id],
    );
    const labelOf = new Map(created.map((contract) => [contract.address, contract.label]));
    // A drop listed by address brings its token, which only the drop's view names; both count from
    // the listed start block.
    const listedTokens = await Promise.all(
      scope.contracts
        .filter((contract) => scope.generation === "classic" && contract.kind === "drop")
        .map(async (drop) => ({
          address: (
            await publicClient.readContract({
              address: drop.address as Address,
              abi: liveBoosterDropAbi,
              functionName: "boosterTokenAddress",
            })
          ).toLowerCase(),
          kind: "token",
          from: drop.from,
        })),
    );
    const known = [...scope.contracts, ...listedTokens, ...created];
    const kindOf = new Map(known.map((contract) => [contract.address, contract.kind]));
    const fromOf = new Map(
      known.map((contract) => [contract.address, "from" in contract ? contract.from : undefined]),
    );
    const chainLogs = (
      await publicClient.getLogs({
        address: [...kindOf.keys()] as Address[],
        fromBlock: scope.startBlock,
        toBlock: upTo,
      })
    ).filter((log) => log.blockNumber >= (fromOf.get(log.address.toLowerCase()) ?? 0n));

    // Every log recorded once: in chain_events, or in the domain table that records it.
    const recorded = new Map<string, { table: string; row: Row }>();
    for (const table of ["chain_events", "market_claims", "predict_trades"]) {
      for (const row of await query(`SELECT * FROM ${table} WHERE scope = $1`, [scope.id])) {
        const key = `${row["block_number"]}:${row["log_index"]}`;
        expect(recorded.has(key), `${key} recorded twice`).toBe(false);
        recorded.set(key, { table, row });
      }
    }
    expect([...recorded.keys()].sort()).toEqual(
      chainLogs.map((log) => `${log.blockNumber}:${log.logIndex}`).sort(),
    );

    // What the prediction projection keeps beside each trade: the trade's ordinal in its market
    // (chain order, 1-based) and each trader's sums and points, recomputed here from the chain's logs.
    const tradeOrdinals = new Map<string, number>();
    const traderSums = new Map<string, { buy: bigint; sell: bigint; redeemed: bigint; trades: number }>();
    for (const log of chainLogs) {
      const kind = kindOf.get(log.address.toLowerCase())!;
      const decoded = decodeEventLog({ abi: scope.abis[kind]!, data: log.data, topics: log.topics });
      const args = plainArgs(decoded.args);
      const { table, row } = recorded.get(`${log.blockNumber}:${log.logIndex}`)!;
      const where = `${scope.id} ${decoded.eventName} at ${log.blockNumber}:${log.logIndex}`;
      expect(row["transaction_hash"], where).toBe(log.transactionHash);
      expect(row["block_time"], where).toEqual(await blockTime(log.blockNumber!));
      if (decoded.eventName === "Claimed") {
        expect({ table, ...row }, where).toMatchObject({
          table: "market_claims",
          runtime_id: labelOf.get(log.address.toLowerCase()),
          chain_id: chain.deployment.chainId,
          contract: log.address.toLowerCase(),
          owner: args["owner"],
          drop_id: args["dropId"],
          quantity: args["quantity"],
          paid: args["paid"],
          total_claimed: args["totalClaimed"],
        });
      } else if (TRADES.has(decoded.eventName ?? "")) {
        const market = log.address.toLowerCase() as Address;
        const expected =
          decoded.eventName === "Buy"
            ? {
                kind: "buy",
                trader: args["buyer"],
                side: args["side"],
                weth: args["wethIn"],
                fee: args["fee"],
                shares: args["sharesOut"],
              }
            : decoded.eventName === "Sell"
              ? {
                  kind: "sell",
                  trader: args["seller"],
                  side: args["side"],
                  weth: args["wethOut"],
                  fee: args["fee"],
                  shares: args["sharesIn"],
                }
              : {
                  kind: "redeem",
                  trader: args["owner"],
                  side: await publicClient.readContract({
                    address: market,
                    abi: marketAbi,
                    functionName: "outcome",
                  }),
                  weth: args["payout"],
                  fee: "0",
                  shares: args["shares"],
                };
        const ordinal = (tradeOrdinals.get(market) ?? 0) + 1;
        tradeOrdinals.set(market, ordinal);
        const sums = traderSums.get(String(expected.trader)) ?? {
          buy: 0n,
          sell: 0n,
          redeemed: 0n,
          trades: 0,
        };
        const weth = BigInt(String(expected.weth));
        if (expected.kind === "buy") sums.buy += weth;
        else if (expected.kind === "sell") sums.sell += weth;
        else sums.redeemed += weth;
        sums.trades += 1;
        traderSums.set(String(expected.trader), sums);
        expect({ table, ...row }, where).toMatchObject({
          table: "predict_trades",
          chain_id: scope.chainId,
          market,
          ...expected,
          market_seq: ordinal,
        });
      } else {
        expect({ table, ...row }, where).toMatchObject({
          table: "chain_events",
          chain_id: scope.chainId,
          address: log.address.toLowerCase(),
          block_hash: log.blockHash,
          event: decoded.eventName,
        });
        expect(row["args"], where).toEqual(args);
      }
    }
    if (scope.generation === "predict") {
      const traders = await query<Row>(
        `SELECT trader, buy_weth::text AS buy_weth, sell_weth::text AS sell_weth,
           redeemed_weth::text AS redeemed_weth, trades, points::text AS points
         FROM predict_traders WHERE scope = $1 ORDER BY trader`,
        [scope.id],
      );
      expect(traders, `${scope.id} traders' sums`).toEqual(
        [...traderSums.entries()]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([trader, sums]) => ({
            trader,
            buy_weth: sums.buy.toString(),
            sell_weth: sums.sell.toString(),
            redeemed_weth: sums.redeemed.toString(),
            trades: sums.trades,
            points: predictPointsOf({
              buyWeth: sums.buy,
              sellWeth: sums.sell,
              redeemedWeth: sums.redeemed,
            }).toString(),
          })),
      );
      const ordinals = await query<{ address: string; trade_seq: number }>(
        "SELECT address, trade_seq FROM predict_markets WHERE scope = $1",
        [scope.id],
      );
      for (const market of ordinals) {
        expect(market.trade_seq, `newest trade ordinal of ${market.address}`).toBe(
          tradeOrdinals.get(market.address) ?? 0,
        );
      }
    }
  }
  await expectStateMatchesContracts(db, chain, predictAt);
}

/** Every state row holds what its contract reports now (prediction markets: at `predictAt`, their scope's head). */
async function expectStateMatchesContracts(
  db: Database,
  chain: IndexedChain,
  predictAt: bigint,
): Promise<void> {
  const { publicClient } = chain.clients;
  const query = async <T extends Row>(sql: string, params: unknown[] = []) =>
    (await db.withConnection((c) => c.query<T>(sql, params))).rows;
  // Only this chain's rows: one database may hold the projections of several chains.
  const scopes = scopesOf([chain.deployment]).map((scope) => scope.id);
  const read = publicClient.readContract as (args: {
    address: Address;
    abi: unknown;
    functionName: string;
    args?: unknown[];
    blockNumber?: bigint;
  }) => Promise<unknown>;

  // The catalog is what the registry lists, in order, one row per id.
  const registry = chain.deployment.contracts["RuntimeRegistry"];
  if (registry && chain.deployment.chainId === 8453) {
    const count = (await read({
      address: registry.address,
      abi: runtimeRegistryAbi,
      functionName: "runtimeCount",
    })) as bigint;
    const listed: Row[] = [];
    for (let i = 0n; i < count; i++) {
      const runtime = (await read({
        address: registry.address,
        abi: runtimeRegistryAbi,
        functionName: "runtimeAt",
        args: [i],
      })) as { id: string; version: bigint; claimDrops: string; registeredAtBlock: bigint };
      listed.push({
        runtime_id: runtime.id,
        version: runtime.version.toString(),
        claim_drops: runtime.claimDrops.toLowerCase(),
        registered_block: runtime.registeredAtBlock.toString(),
      });
    }
    const catalog = await query(
      "SELECT runtime_id, version::text AS version, claim_drops, registered_block::text AS registered_block FROM market_runtimes WHERE scope = ANY($1) ORDER BY version",
      [scopes],
    );
    expect(catalog).toEqual(listed);
  }

  for (const runtime of await query<{ runtime_id: string; claim_drops: Address }>(
    "SELECT runtime_id, claim_drops FROM market_runtimes WHERE scope = ANY($1)",
    [scopes],
  )) {
    const claims = runtime.claim_drops;
    for (const drop of await query("SELECT * FROM market_drops WHERE runtime_id = $1", [
      runtime.runtime_id,
    ])) {
      const [creator, price, maxSupply, claimed] = (await read({
        address: claims,
        abi: claimDropsAbi,
        functionName: "drops",
        args: [BigInt(drop["drop_id"] as string)],
      })) as [string, bigint, bigint, bigint];
      expect(drop, `drop ${drop["drop_id"]}`).toMatchObject({
        creator: creator.toLowerCase(),
        price: price.toString(),
        max_supply: maxSupply.toString(),
        claimed: claimed.toString(),
      });
    }
  }

  /**
   * What each ETH mint of a drop paid, from the chain's logs: the drop's `TokensPurchased` (the drop is
   * the buyer) and the `BoosterDropsMinted` of the same transaction. A mint without a purchase
   * (`mintWithToken`) paid no ETH.
   */
  const mintsOf = async (drop: Address, token: Address) => {
    const [minted, purchases] = await Promise.all([
      publicClient.getContractEvents({
        address: drop,
        abi: liveBoosterDropAbi,
        eventName: "BoosterDropsMinted",
        fromBlock: 0n,
      }),
      publicClient.getContractEvents({
        address: token,
        abi: liveBoosterTokenAbi,
        eventName: "TokensPurchased",
        args: { buyer: drop },
        fromBlock: 0n,
      }),
    ]);
    const paidIn = new Map(purchases.map((event) => [event.transactionHash, event.args.ethPaid!]));
    return minted.map((event) => ({
      start: event.args.startTokenId!,
      end: event.args.endTokenId!,
      amount: event.args.amount!,
      paid: paidIn.get(event.transactionHash) ?? 0n,
    }));
  };

  /**
   * Whether the classic scope's factory emitted our `DropConfigured` for this drop: a drop without it
   * (listed by address, or created by a contract that speaks only the live interface) is projected
   * with what the live contracts tell (game id 0, the default odds, no allowlist, no known curve).
   */
  const factory = chainRoles([chain.deployment]).classic?.factory?.address;
  const configured = async (drop: Address) =>
    factory !== undefined &&
    (
      await publicClient.getContractEvents({
        address: factory,
        abi: dropFactoryAbi,
        eventName: "DropConfigured",
        args: { dropContract: drop },
        fromBlock: 0n,
      })
    ).length > 0;

  const mintsByDrop = new Map<string, Awaited<ReturnType<typeof mintsOf>>>();
  for (const game of await query("SELECT * FROM classic_games WHERE scope = ANY($1)", [scopes])) {
    const drop = game["drop_address"] as Address;
    const onDrop = (functionName: string, args?: unknown[]) =>
      read({ address: drop, abi: boosterDropAbi, functionName, ...(args ? { args } : {}) });
    const [gameId, tokenOfDrop, creator, name, symbol, root, nextTokenId, tokensPerMint] = await Promise.all(
      [
        "gameId",
        "boosterTokenAddress",
        "creator",
        "name",
        "symbol",
        "merkleRoot",
        "nextTokenId",
        "tokensPerMint",
      ].map((functionName) => onDrop(functionName)),
    );
    const token = String(tokenOfDrop) as Address;
    const readToken = (functionName: string) => read({ address: token, abi: boosterTokenAbi, functionName });
    const [firstTokenId, odds, active, packsBurned] = (await Promise.all(
      ["firstTokenId", "oddsBps", "active", "packsBurned"].map((functionName) => onDrop(functionName)),
    )) as [bigint, readonly number[], boolean, bigint];
    const offers = await Promise.all([1, 2, 3, 4, 5].map((rarity) => onDrop("offerOf", [rarity])));
    const [tokenName, tokenSymbol, ethReserve, tokensSold, marketType, pool] = await Promise.all(
      ["name", "symbol", "ethReserve", "tokensSold", "marketType", "poolAddress"].map(readToken),
    );
    const graduated = Number(marketType) === 1;
    const [virtualEth, virtualTokens, graduationEth] = await Promise.all(
      ["virtualEth", "virtualTokens", "graduationEth"].map(readToken),
    );
    // No counter of opened packs onchain: the BoosterDropOpened events, decoded by viem.
    const opened = await publicClient.getContractEvents({
      address: drop,
      abi: liveBoosterDropAbi,
      eventName: "BoosterDropOpened",
      fromBlock: 0n,
    });
    const mints = await mintsOf(drop, token);
    mintsByDrop.set(drop, mints);
    // A pack's ETH price now, on the curve or after graduation on the pool: `getMintPrice(1)`.
    const price = (await onDrop("getMintPrice", [1n])) as bigint;
    // The pool's reserves now: the ETH it holds and its balance of the token.
    const [poolEth, poolTokens] = graduated
      ? await Promise.all([
          publicClient.getBalance({ address: pool as Address }),
          read({ address: token, abi: boosterTokenAbi, functionName: "balanceOf", args: [pool] }),
        ])
      : [null, null];
    const packsMinted = (nextTokenId as bigint) - firstTokenId;
    const ofExtensions = (await configured(drop))
      ? {
          game_id: String(gameId),
          price_per_pack: String(price),
          merkle_root: root,
          odds_bps: [...odds],
          virtual_eth: String(virtualEth),
          virtual_tokens: String(virtualTokens),
          graduation_eth: String(graduationEth),
          first_token_id: String(firstTokenId),
          slug: defaultGameSlug(String(name), String(gameId)),
        }
      : {
          game_id: "0",
          // The curve is unknown: the pool's price once graduated, else the last ETH mint's per pack.
          price_per_pack: graduated
            ? String(price)
            : String(
                mints
                  .filter((mint) => mint.paid > 0n)
                  .map((mint) => mint.paid / mint.amount)
                  .at(-1) ?? 0n,
              ),
          merkle_root: `0x${"0".repeat(64)}`,
          odds_bps: [6000, 2500, 1000, 400, 100],
          virtual_eth: "0",
          virtual_tokens: "0",
          graduation_eth: "0",
          first_token_id: "1",
          slug: defaultGameSlug(String(name), drop.slice(2, 10)),
        };
    expect(game, `game at ${drop}`).toMatchObject({
      ...ofExtensions,
      token_address: token.toLowerCase(),
      creator: String(creator).toLowerCase(),
      nft_name: name,
      nft_symbol: symbol,
      token_name: tokenName,
      token_symbol: tokenSymbol,
      tokens_per_mint: String(tokensPerMint),
      packs_minted: String(packsMinted),
      eth_reserve: String(ethReserve),
      tokens_sold: String(tokensSold),
      is_graduated: graduated,
      pool_address: graduated ? String(pool).toLowerCase() : null,
      offers: offers.map(String),
      is_active: active,
      pool_eth: poolEth === null ? null : String(poolEth),
      pool_tokens: poolTokens === null ? null : String(poolTokens),
      packs_opened: String(opened.reduce((sum, event) => sum + event.args.tokenIds!.length, 0)),
      packs_burned: String(packsBurned),
      mint_volume: String(mints.reduce((sum, mint) => sum + mint.paid, 0n)),
    });
  }

  const packs = await query("SELECT * FROM classic_packs WHERE scope = ANY($1)", [scopes]);
  await Promise.all(
    packs.map(async (pack) => {
      const address = pack["contract_address"] as Address;
      const tokenId = BigInt(pack["token_id"] as string);
      const [batchId, [rarity, randomValue, tokenSeed]] = (await Promise.all([
        read({ address, abi: boosterDropAbi, functionName: "batchOf", args: [tokenId] }),
        read({ address, abi: boosterDropAbi, functionName: "getTokenRarity", args: [tokenId] }),
      ])) as [bigint, [number, bigint, Hex]];
      const owner = await read({
        address,
        abi: boosterDropAbi,
        functionName: "ownerOf",
        args: [tokenId],
      }).then(
        (found) => String(found).toLowerCase(),
        () => undefined,
      );
      // A mint's ETH split over its packs, the first ones taking the remainder: they sum to the payment.
      const mint = mintsByDrop.get(address)?.find((m) => m.start <= tokenId && tokenId <= m.end);
      const acquired = mint
        ? mint.paid / mint.amount + (tokenId - mint.start < mint.paid % mint.amount ? 1n : 0n)
        : undefined;
      const status =
        owner === undefined ? "burned" : rarity > 0 ? "rarity_assigned" : batchId > 0n ? "opened" : "minted";
      expect(pack, `pack ${tokenId} of ${address}`).toMatchObject({
        status,
        rarity,
        batch_id: batchId.toString(),
        token_seed: rarity > 0 ? hexToBigInt(tokenSeed).toString() : null,
        random_value: rarity > 0 ? randomValue.toString() : null,
        acquired_price: String(acquired),
        ...(owner === undefined ? {} : { owner }),
      });
    }),
  );

  // The summaries the classic_packs triggers keep equal a GROUP BY over the packs checked above,
  // whatever path wrote them (batches, recovery, reorg rollbacks, resets).
  const summaries = (view: string) =>
    query<{ row: string }>(
      `SELECT summary || ' ' || key::text || ' ' || value::text AS row FROM ${view} ORDER BY 1`,
    );
  expect((await summaries("classic_summaries_kept")).map(({ row }) => row)).toEqual(
    (await summaries("classic_summaries_recomputed")).map(({ row }) => row),
  );

  for (const market of await query("SELECT * FROM predict_markets WHERE scope = ANY($1)", [scopes])) {
    const address = market["address"] as Address;
    const onMarket = (functionName: string, args?: unknown[]) =>
      read({ address, abi: marketAbi, functionName, blockNumber: predictAt, ...(args ? { args } : {}) });
    const [
      marketId,
      creator,
      question,
      seed,
      feeBps,
      yes,
      no,
      backing,
      paused,
      resolved,
      outcome,
      feesAccrued,
      liquidityCollected,
    ] = await Promise.all([
      onMarket("marketId"),
      onMarket("creator"),
      onMarket("question"),
      onMarket("seed"),
      onMarket("feeBps"),
      onMarket("poolBalances", [0n]),
      onMarket("poolBalances", [1n]),
      onMarket("backing"),
      onMarket("paused"),
      onMarket("resolved"),
      onMarket("outcome"),
      onMarket("feesAccrued"),
      onMarket("liquidityCollected"),
    ]);
    const [volume] = await query<{ volume: string }>(
      `SELECT coalesce(sum(weth), 0)::text AS volume FROM predict_trades WHERE market = '${address}' AND kind <> 'redeem'`,
    );
    expect(market, `market ${address}`).toMatchObject({
      market_id: String(marketId),
      creator: String(creator).toLowerCase(),
      question,
      seed: String(seed),
      fee_bps: Number(feeBps),
      yes_pool: String(yes),
      no_pool: String(no),
      backing: String(backing),
      status: resolved ? "resolved" : paused ? "paused" : "active",
      paused,
      outcome: resolved ? outcome : null,
      fees_accrued: String(feesAccrued),
      liquidity_collected: liquidityCollected,
      volume: volume!.volume,
    });
  }

  for (const position of await query("SELECT * FROM predict_positions WHERE scope = ANY($1)", [scopes])) {
    const [yes, no] = (await read({
      address: position["market"] as Address,
      abi: marketAbi,
      functionName: "sharesOf",
      args: [position["owner"] as Hex],
      blockNumber: predictAt,
    })) as [bigint, bigint];
    expect(position, `position of ${position["owner"]} in ${position["market"]}`).toMatchObject({
      yes_shares: yes.toString(),
      no_shares: no.toString(),
    });
  }
}
