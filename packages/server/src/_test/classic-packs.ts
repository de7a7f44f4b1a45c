import { sql } from "kysely";
import type { Database } from "../db/index.ts";
import { insertClassicGame } from "./classic.ts";

/** Fixture rows of the classic projection (classic_games, classic_packs, chain_events), written straight to the tables. */

export const TEST_SCOPE = "8453:classic:test";
const hex = (n: bigint | number, width: number) => `0x${BigInt(n).toString(16).padStart(width, "0")}`;
export const txHash = (n: number) => hex(n, 64);
export const addressOf = (n: number) => hex(n, 40);

export interface GameFixture {
  chainId?: number;
  drop: string;
  token: string;
  gameId?: string;
  creator?: string;
  nftName?: string;
  slug?: string;
  firstTokenId?: bigint;
  offers?: readonly [bigint, bigint, bigint, bigint, bigint];
  createdBlock?: number;
  createdAt?: Date;
}

/** A game row for the pack reads: the games fixture (`insertClassicGame`) with these defaults. */
export async function insertGame(db: Database, game: GameFixture) {
  const gameId = BigInt(game.gameId ?? "1");
  await insertClassicGame(db, {
    address: game.drop,
    scope: TEST_SCOPE,
    chainId: game.chainId ?? 8453,
    gameId,
    tokenAddress: game.token,
    creator: game.creator ?? addressOf(0xc0),
    nftName: game.nftName ?? `Game ${gameId}`,
    nftSymbol: "PK",
    tokenName: "Tickets",
    tokenSymbol: "TIX",
    pricePerPack: 1000n,
    offers: game.offers ?? [10n, 20n, 30n, 40n, 50n],
    firstTokenId: game.firstTokenId ?? 1n,
    slug: game.slug ?? `game-${gameId}`,
    createdBlock: game.createdBlock ?? 1,
    createdAt: game.createdAt ?? new Date(Date.UTC(2026, 0, 1)),
    createdTx: txHash(1),
  });
}

export interface PackFixture {
  chainId?: number;
  drop: string;
  tokenId: bigint;
  owner: string;
  status?: "minted" | "rarity_assigned" | "opened" | "burned";
  rarity?: number;
  tokenSeed?: bigint;
  randomValue?: bigint;
  rewardAmount?: bigint;
  mintBlock?: number;
  mintTime?: Date;
  /** The mint's transaction (default: the mint block's first). */
  mintTx?: string;
  /** The pack's share of the ETH its mint paid (default 1000 wei). */
  acquiredPrice?: bigint;
  updatedAt?: Date;
  openedTime?: Date;
}

export async function insertPack(db: Database, pack: PackFixture) {
  const mintTime = pack.mintTime ?? new Date(Date.UTC(2026, 0, 2));
  const status = pack.status ?? "minted";
  const rarity = pack.rarity ?? 0;
  const assigned = rarity > 0;
  const opened = status === "opened" || status === "rarity_assigned" || pack.openedTime !== undefined;
  const burned = status === "burned";
  const mintBlock = pack.mintBlock ?? 10;
  await sql`INSERT INTO classic_packs (scope, chain_id, contract_address, token_id, owner, status, rarity, batch_id,
      token_seed, random_value, acquired_price, reward_amount, mint_tx, mint_block, mint_time,
      rarity_tx, rarity_block, rarity_time, opened_tx, opened_block, opened_time, burn_tx, burn_block, burn_time,
      updated_block, updated_at)
    VALUES (${TEST_SCOPE}, ${pack.chainId ?? 8453}, ${pack.drop}, ${pack.tokenId.toString()}, ${pack.owner}, ${status},
      ${rarity}, '1', ${assigned ? (pack.tokenSeed ?? pack.tokenId * 7919n + 13n).toString() : null},
      ${assigned ? (pack.randomValue ?? 42n).toString() : null}, ${(pack.acquiredPrice ?? 1000n).toString()},
      ${pack.rewardAmount === undefined ? null : pack.rewardAmount.toString()},
      ${pack.mintTx ?? txHash(mintBlock)}, ${mintBlock}, ${mintTime},
      ${assigned ? txHash(mintBlock + 1) : null}, ${assigned ? mintBlock + 1 : null}, ${assigned ? mintTime : null},
      ${opened ? txHash(mintBlock + 2) : null}, ${opened ? mintBlock + 2 : null},
      ${opened ? (pack.openedTime ?? mintTime) : null},
      ${burned ? txHash(mintBlock + 3) : null}, ${burned ? mintBlock + 3 : null}, ${burned ? mintTime : null},
      ${mintBlock}, ${pack.updatedAt ?? mintTime})`.execute(db.kysely);
}

export interface EventFixture {
  chainId?: number;
  blockNumber: number;
  logIndex: number;
  blockTime: Date;
  address: string;
  event: string;
  args: Record<string, unknown>;
  /** The log's transaction; by default one of its own per log. Logs of one call (a mint's purchase and its `BoosterDropsMinted`) share one. */
  transactionHash?: string;
}

export async function insertEvent(db: Database, event: EventFixture) {
  await sql`INSERT INTO chain_events (scope, block_number, log_index, chain_id, block_hash, block_time,
      transaction_hash, address, event, args)
    VALUES (${TEST_SCOPE}, ${event.blockNumber}, ${event.logIndex}, ${event.chainId ?? 8453},
      ${txHash(event.blockNumber + 1_000_000)}, ${event.blockTime}, ${event.transactionHash ?? txHash(event.blockNumber * 1000 + event.logIndex)},
      ${event.address}, ${event.event}, ${JSON.stringify(event.args)}::jsonb)`.execute(db.kysely);
}

/** The indexer's head for the fixture scope: `nextBlock - 1` is the last applied block. */
export async function setHead(db: Database, nextBlock: number, chainId = 8453) {
  await sql`INSERT INTO indexer_heads (scope, chain_id, next_block) VALUES (${TEST_SCOPE}, ${chainId}, ${nextBlock})
    ON CONFLICT (scope) DO UPDATE SET next_block = EXCLUDED.next_block`.execute(db.kysely);
}

export interface MintFixture {
  chainId?: number;
  drop: string;
  token: string;
  minter: string;
  firstTokenId: bigint;
  amount: number;
  /** The ETH the mint paid for all its packs (0: a `mintWithToken`, no purchase). */
  paid: bigint;
  blockNumber: number;
  time: Date;
  /** Each pack's state now, in token id order (default: the minter's, unopened). */
  packs?: readonly Pick<PackFixture, "owner" | "status" | "rarity" | "rewardAmount">[];
}

/**
 * One ETH mint as the live drop makes it and the projection records it: in one transaction the drop's
 * `TokensPurchased` (the drop buys its token with the mint's ETH) and its `BoosterDropsMinted`, and a
 * pack row per token carrying its share of the ETH (the first packs take the remainder).
 */
export async function insertMint(db: Database, mint: MintFixture) {
  const transactionHash = txHash(mint.blockNumber * 1000);
  const amount = BigInt(mint.amount);
  const at = {
    chainId: mint.chainId ?? 8453,
    blockNumber: mint.blockNumber,
    blockTime: mint.time,
    transactionHash,
  };
  if (mint.paid > 0n)
    await insertEvent(db, {
      ...at,
      logIndex: 0,
      address: mint.token,
      event: "TokensPurchased",
      args: { buyer: mint.drop, amount: (amount * 1000n).toString(), ethPaid: mint.paid.toString() },
    });
  await insertEvent(db, {
    ...at,
    logIndex: 1,
    address: mint.drop,
    event: "BoosterDropsMinted",
    args: {
      minter: mint.minter,
      amount: amount.toString(),
      startTokenId: mint.firstTokenId.toString(),
      endTokenId: (mint.firstTokenId + amount - 1n).toString(),
    },
  });
  for (let i = 0n; i < amount; i++)
    await insertPack(db, {
      chainId: at.chainId,
      drop: mint.drop,
      tokenId: mint.firstTokenId + i,
      owner: mint.minter,
      ...mint.packs?.[Number(i)],
      mintBlock: mint.blockNumber,
      mintTime: mint.time,
      mintTx: transactionHash,
      acquiredPrice: mint.paid / amount + (i < mint.paid % amount ? 1n : 0n),
    });
}

/** An open batch as `BoosterDropOpened` leaves it: its packs, and its random number once `RarityAssigned` came. */
export async function insertOpenBatch(
  db: Database,
  batch: {
    chainId?: number;
    drop: string;
    batchId: bigint;
    tokenIds: bigint[];
    randomNumber?: string;
    block: number;
  },
) {
  await sql`INSERT INTO classic_open_batches (scope, chain_id, drop_address, batch_id, token_ids, random_number,
      opened_tx, updated_block, updated_at)
    VALUES (${TEST_SCOPE}, ${batch.chainId ?? 8453}, ${batch.drop}, ${batch.batchId.toString()},
      ${JSON.stringify(batch.tokenIds.map(String))}::jsonb, ${batch.randomNumber ?? null}, ${txHash(batch.block)},
      ${batch.block}, ${new Date(Date.UTC(2026, 0, 2))})`.execute(db.kysely);
}
