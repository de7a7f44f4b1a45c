import {
  boosterDropAbi,
  curveTokenBuyCost,
  deriveRarity,
  dropFactoryAbi,
  liveBoosterDropAbi,
  liveBoosterTokenAbi,
  liveDropCreatorAbi,
  type RarityOdds,
} from "@mkt/chain";
import { defaultGameSlug } from "@mkt/protocol";
import { type Abi, getAbiItem, hexToBigInt } from "viem";
import type { ClassicRole } from "../chains/index.ts";
import { createDropDescriptions, type DropDescription, type DropDescriptions } from "./classic-drops.ts";
import {
  contractHandlers,
  type Discovered,
  dispatchByKind,
  type EventLog,
  eventLog,
  type IndexedLog,
  lowercase,
  type Projection,
  uintOf,
} from "./projection.ts";
import type { BatchStore, Row } from "./store.ts";

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** The events of `abi`, for a decoder: the live fragments carry functions beside them. */
const eventsOf = <const A extends Abi>(abi: A) =>
  abi.filter((item): item is Extract<A[number], { type: "event" }> => item.type === "event");

/** Our extension events, beside the live ones under names the live contracts do not use. */
const dropConfigured = getAbiItem({ abi: dropFactoryAbi, name: "DropConfigured" });
const metadataBaseUriUpdated = getAbiItem({ abi: dropFactoryAbi, name: "MetadataBaseURIUpdated" });
const activeChanged = getAbiItem({ abi: boosterDropAbi, name: "ActiveChanged" });
const merkleRootUpdated = getAbiItem({ abi: boosterDropAbi, name: "MerkleRootUpdated" });

/**
 * The ABIs the classic scope decodes: the live events (`live-abi.ts`), so the same projection reads
 * the dev chain and the live drops on Base, and our extension events.
 */
export const classicFactoryAbi = [
  ...eventsOf(liveDropCreatorAbi),
  dropConfigured,
  metadataBaseUriUpdated,
] as const;
export const classicDropAbi = [...eventsOf(liveBoosterDropAbi), activeChanged, merkleRootUpdated] as const;
export const classicTokenAbi = eventsOf(liveBoosterTokenAbi);

type DropLog<N extends EventLog<typeof classicDropAbi>["event"] = EventLog<typeof classicDropAbi>["event"]> =
  EventLog<typeof classicDropAbi, N>;

/** The packs a drop's log is about: minted, sold, moved or opened. */
function tokenIdsOf(log: DropLog): bigint[] {
  switch (log.event) {
    case "BoosterDropsMinted": {
      const ids: bigint[] = [];
      for (let t = log.args.startTokenId; t <= log.args.endTokenId; t++) ids.push(t);
      return ids;
    }
    case "BoosterDropSold":
    case "Transfer":
      return [log.args.tokenId];
    case "BoosterDropOpened":
    case "BoosterDropSoldBatch":
      return [...log.args.tokenIds];
    default:
      return [];
  }
}

/** The per-pack ETH prices of a mint of `amount` packs that paid `paid` wei: they sum to `paid`. */
function packPrices(paid: bigint, amount: bigint): bigint[] {
  const base = paid / amount;
  const remainder = paid % amount;
  return Array.from({ length: Number(amount) }, (_, i) => (BigInt(i) < remainder ? base + 1n : base));
}

/**
 * The ETH one pack costs now, as the drop's `getMintPrice(1)`: the token's price of `tokensPerMint`
 * tokens, on the curve from the row's curve state, after graduation from the pool's reserves
 * (`pool_eth`, `pool_tokens`: ceil(E * t / (T - t)), as the pool quotes). Without a known
 * `tokensPerMint` or curve (a live drop without our `DropConfigured`), or for an amount the market
 * cannot sell, the caller's `fallback`: the last ETH mint's price per pack.
 */
function currentPackPrice(game: Row, fallback: string): string {
  const tokensPerMint = uintOf(game, "tokens_per_mint");
  if (tokensPerMint === 0n) return fallback;
  if (game["is_graduated"] === true) {
    const poolEth = uintOf(game, "pool_eth");
    const poolTokens = uintOf(game, "pool_tokens");
    if (tokensPerMint >= poolTokens) return fallback;
    const rest = poolTokens - tokensPerMint;
    return ((poolEth * tokensPerMint + rest - 1n) / rest).toString();
  }
  const virtualEth = uintOf(game, "virtual_eth");
  const virtualTokens = uintOf(game, "virtual_tokens");
  if (virtualEth === 0n || virtualTokens === 0n) return fallback;
  const state = {
    virtualEth,
    virtualTokens,
    ethReserve: uintOf(game, "eth_reserve"),
    tokensSold: uintOf(game, "tokens_sold"),
  };
  if (tokensPerMint >= virtualTokens - state.tokensSold) return fallback;
  return curveTokenBuyCost(state, tokensPerMint).toString();
}

/**
 * A game's row as the live contracts define it: its addresses, the drop's description (names, tokens
 * per mint, offers, owner) and, for what only our `DropConfigured` carries, the live defaults: game
 * id 0, no allowlist, the default odds, packs from 1 and no known curve (so its pack price is its
 * last ETH mint's price per pack).
 */
function liveGame(drop: string, token: string, description: DropDescription, creator: string): Row {
  return {
    drop_address: drop,
    game_id: "0",
    token_address: token,
    creator,
    nft_name: description.nftName,
    nft_symbol: description.nftSymbol,
    token_name: description.tokenName,
    token_symbol: description.tokenSymbol,
    price_per_pack: "0",
    tokens_per_mint: description.tokensPerMint.toString(),
    merkle_root: `0x${"0".repeat(64)}`,
    offers: description.offers.map((offer) => offer.toString()),
    odds_bps: [6000, 2500, 1000, 400, 100],
    virtual_eth: "0",
    virtual_tokens: "0",
    graduation_eth: "0",
    first_token_id: "1",
    slug: defaultGameSlug(description.nftName, drop.slice(2, 10)),
    is_active: true,
    eth_reserve: "0",
    tokens_sold: "0",
    is_graduated: false,
    pool_address: null,
    pool_eth: null,
    pool_tokens: null,
    packs_minted: "0",
    packs_opened: "0",
    packs_burned: "0",
    mint_volume: "0",
    mint_payment_tx: null,
    mint_payment_wei: null,
  };
}

/**
 * Classic generation: the creation contract (`DropFactory`) and every booster drop and token it
 * deploys, and the drops listed by address (`classicDrops`) with their tokens, from the live events.
 *
 * What a drop is (names, token, tokens per mint, offers, owner) is read once from its views
 * (`prefetch`, classic-drops.ts) and kept in memory: a game's row starts at `DropCreated` with it,
 * and a listed drop's at the first log of the drop or its token that this projection handles (its
 * creation block and transaction are that log's). Our `DropConfigured`, in `DropCreated`'s
 * transaction, adds what the live contracts do not say (game id, odds, allowlist, curve, first pack
 * id); a live drop keeps the defaults (`liveGame`). Then a game follows its drop (mints, opens,
 * rarity per open batch, sales, pauses) and its token (curve trades, graduation). A pack's rarity is
 * derived from its open batch's `RarityAssigned` random number with the rule of the drop's
 * `deriveRarity`, under the game's odds. The factory's `MetadataBaseURIUpdated` changes no row (it is
 * recorded in chain_events).
 *
 * A listed drop is a contract of the scope from its listed start block, and so is its token
 * (`resolveContracts`, from `boosterTokenAddress()`). Without a factory the scope holds only them.
 */
export function classicProjection(
  { deployment, factory, drops: listedDrops, scope: id, startBlock }: ClassicRole,
  descriptions: DropDescriptions = createDropDescriptions(),
): Projection {
  const chainId = deployment.chainId;
  const listed = new Map(
    listedDrops.map((drop) => [drop.address.toLowerCase(), BigInt(drop.startBlock)] as const),
  );
  /** The description `prefetch` read; applying a drop's log without it is a bug, and fails the write. */
  const described = (drop: string): DropDescription => {
    const found = descriptions.get(drop);
    if (!found) throw new Error(`indexer bug: drop ${drop} was not described before its logs were applied`);
    return found;
  };
  const gameKey = (drop: string) => ({ chain_id: chainId, drop_address: drop });
  const packKey = (drop: string, tokenId: bigint | string) => ({
    chain_id: chainId,
    contract_address: drop,
    token_id: tokenId.toString(),
  });
  const batchKey = (drop: string, batchId: bigint) => ({
    chain_id: chainId,
    drop_address: drop,
    batch_id: batchId.toString(),
  });
  /** The drop a handled log of a listed drop or its token is about, if it is listed. */
  const listedDropOf = (log: IndexedLog, contract: Discovered): string | undefined => {
    const drop = contract.kind === "drop" ? log.address : contract.kind === "token" ? contract.parent : null;
    return drop && listed.has(drop) ? drop : undefined;
  };

  /** What every handler is given: the log's update and creation stamps and the games it changes. */
  const gamesOf = (store: BatchStore, log: IndexedLog, contract: Discovered) => {
    const at = { updated_block: log.blockNumber.toString(), updated_at: log.blockTime };
    const created = {
      created_block: log.blockNumber.toString(),
      created_tx: log.transactionHash,
      created_at: log.blockTime,
    };
    const putGame = (row: Row) => store.put("classic_games", { ...row, ...at }, log.blockNumber);
    /**
     * A game's row; a listed drop without one gets it now, from its description: its first log
     * this projection handles is its creation as far as the projection knows. Its creator is its
     * owner, or the zero address for a drop without an `owner()` view (no `DropCreated` names one).
     */
    const gameOf = (drop: string): Row | undefined => {
      const game = store.get("classic_games", gameKey(drop));
      if (game || listedDropOf(log, contract) !== drop) return game;
      const description = described(drop);
      putGame({
        scope: id,
        chain_id: chainId,
        ...liveGame(drop, description.token, description, description.owner ?? ZERO_ADDRESS),
        ...created,
      });
      return store.get("classic_games", gameKey(drop));
    };
    return { at, created, putGame, gameOf };
  };

  const factoryLogs = contractHandlers({
    abi: classicFactoryAbi,
    context: gamesOf,
    on: {
      DropCreated(_store, log, { putGame, created }) {
        const drop = lowercase(log.args.dropContract);
        // The drop's owner when it says (who `DropConfigured` names too), else the creation's caller.
        const description = described(drop);
        putGame({
          scope: id,
          chain_id: chainId,
          ...liveGame(
            drop,
            lowercase(log.args.tokenContract),
            description,
            description.owner ?? lowercase(log.args.creator),
          ),
          ...created,
        });
      },
      DropConfigured(store, log, { putGame }) {
        const { args } = log;
        const game = store.get("classic_games", gameKey(lowercase(args.dropContract)));
        if (!game) return;
        const { config, extensions } = args;
        const gameId = args.gameId.toString();
        const configured: Row = {
          ...game,
          game_id: gameId,
          // The drop's owner: who may pause it and whose packs the creation bought.
          creator: lowercase(args.owner),
          tokens_per_mint: config.tokensPerMint.toString(),
          merkle_root: lowercase(extensions.merkleRoot),
          offers: [
            config.commonOffer,
            config.rareOffer,
            config.epicOffer,
            config.legendaryOffer,
            config.mythicOffer,
          ].map((offer) => offer.toString()),
          odds_bps: extensions.oddsBps.map(Number),
          virtual_eth: extensions.virtualEth.toString(),
          virtual_tokens: extensions.virtualTokens.toString(),
          graduation_eth: extensions.graduationEth.toString(),
          // As the drop: 0 means 1.
          first_token_id: extensions.firstTokenId === 0n ? "1" : extensions.firstTokenId.toString(),
          slug: defaultGameSlug(String(game["nft_name"]), gameId),
        };
        putGame({ ...configured, price_per_pack: currentPackPrice(configured, "0") });
      },
    },
    creates(log) {
      if (log.event !== "DropCreated") return [];
      const drop = lowercase(log.args.dropContract);
      return [
        { address: drop, kind: "drop" },
        { address: lowercase(log.args.tokenContract), kind: "token", parent: drop },
      ];
    },
    preloads: (log) =>
      log.event === "DropConfigured"
        ? [{ table: "classic_games", key: gameKey(lowercase(log.args.dropContract)) }]
        : [],
  });

  /**
   * A token's trades move its drop's game: a token whose game the projection lacks changes nothing.
   * After graduation trades go through the pool: they move the pool's reserves (as the pool counts
   * them: the ETH paid in, the tokens out) and leave the curve's state alone.
   */
  const tokenContext = (store: BatchStore, log: IndexedLog, contract: Discovered) => {
    const games = gamesOf(store, log, contract);
    const drop = contract.parent;
    const game = drop ? games.gameOf(drop) : undefined;
    if (!drop || !game) return undefined;
    const putPriced = (next: Row) =>
      games.putGame({ ...next, price_per_pack: currentPackPrice(next, String(game["price_per_pack"])) });
    return { drop, game, onCurve: game["is_graduated"] !== true, putPriced };
  };
  const tokenLogs = contractHandlers({
    abi: classicTokenAbi,
    context: tokenContext,
    on: {
      TokensPurchased(_store, log, { drop, game, onCurve, putPriced }) {
        const { amount, ethPaid } = log.args;
        const next: Row = onCurve
          ? {
              ...game,
              eth_reserve: (uintOf(game, "eth_reserve") + ethPaid).toString(),
              tokens_sold: (uintOf(game, "tokens_sold") + amount).toString(),
            }
          : {
              ...game,
              pool_eth: (uintOf(game, "pool_eth") + ethPaid).toString(),
              pool_tokens: (uintOf(game, "pool_tokens") - amount).toString(),
            };
        // The drop buying is an ETH mint: its `BoosterDropsMinted` follows in this transaction.
        if (lowercase(log.args.buyer) === drop) {
          next["mint_payment_tx"] = log.transactionHash;
          next["mint_payment_wei"] = ethPaid.toString();
        }
        putPriced(next);
      },
      TokensSold(_store, log, { game, onCurve, putPriced }) {
        // The declared `TokensSold(from, amount)` (no recipient) is never a trade.
        if (!("recipient" in log.args)) return;
        const { amount, ethReceived } = log.args;
        const next: Row = onCurve
          ? {
              ...game,
              eth_reserve: (uintOf(game, "eth_reserve") - ethReceived).toString(),
              tokens_sold: (uintOf(game, "tokens_sold") - amount).toString(),
            }
          : {
              ...game,
              pool_eth: (uintOf(game, "pool_eth") - ethReceived).toString(),
              pool_tokens: (uintOf(game, "pool_tokens") + amount).toString(),
            };
        putPriced(next);
      },
      MarketGraduated(_store, log, { game, putPriced }) {
        putPriced({
          ...game,
          // The curve's reserve moves into the pool: the token's ethReserve is 0 from here on.
          eth_reserve: "0",
          is_graduated: true,
          pool_address: lowercase(log.args.pool),
          // The pool's reserves, from what graduation seeded it with; its trades move them.
          pool_eth: log.args.ethAmount.toString(),
          pool_tokens: log.args.tokenAmount.toString(),
        });
      },
    },
    preloads: (_log, contract) =>
      contract.parent ? [{ table: "classic_games", key: gameKey(contract.parent) }] : [],
  });

  /** What a drop's handlers share: its game (if the projection has it) and the helpers that change its packs. */
  const dropContext = (store: BatchStore, log: IndexedLog, contract: Discovered) => {
    const games = gamesOf(store, log, contract);
    const game = games.gameOf(log.address);
    /** The transaction, block and time columns of one lifecycle step (`mint`, `rarity`, `opened`, `burn`). */
    const stamp = (step: string) => ({
      [`${step}_tx`]: log.transactionHash,
      [`${step}_block`]: log.blockNumber.toString(),
      [`${step}_time`]: log.blockTime,
    });
    /** Changes one pack, if the projection has it. */
    const updatePack = (tokenId: bigint | string, changes: (pack: Row) => Row) => {
      const pack = store.get("classic_packs", packKey(log.address, tokenId));
      if (pack) store.put("classic_packs", { ...pack, ...changes(pack), ...games.at }, log.blockNumber);
    };
    const burn = (tokenId: bigint, reward: bigint) =>
      updatePack(tokenId, () => ({ status: "burned", reward_amount: reward.toString(), ...stamp("burn") }));
    return { ...games, game, stamp, updatePack, burn };
  };
  const dropLogs = contractHandlers({
    abi: classicDropAbi,
    context: dropContext,
    on: {
      BoosterDropsMinted(store, log, { game, at, stamp, putGame }) {
        const { amount } = log.args;
        const minter = lowercase(log.args.minter);
        // An ETH mint's payment is the drop's `TokensPurchased` of this transaction; a mint without one
        // (`mintWithToken`) paid tokens the drop already held, no ETH.
        const paid =
          game && game["mint_payment_tx"] === log.transactionHash ? uintOf(game, "mint_payment_wei") : 0n;
        const prices = packPrices(paid, amount);
        tokenIdsOf(log).forEach((tokenId, i) => {
          store.put(
            "classic_packs",
            {
              scope: id,
              ...packKey(log.address, tokenId),
              owner: minter,
              status: "minted",
              rarity: 0,
              // The pack's open batch; 0 until opened.
              batch_id: "0",
              token_seed: null,
              random_value: null,
              acquired_price: (prices[i] ?? 0n).toString(),
              reward_amount: null,
              ...stamp("mint"),
              rarity_tx: null,
              rarity_block: null,
              rarity_time: null,
              opened_tx: null,
              opened_block: null,
              opened_time: null,
              burn_tx: null,
              burn_block: null,
              burn_time: null,
              ...at,
            },
            log.blockNumber,
          );
        });
        if (game) {
          const mintPrice = amount > 0n ? (paid / amount).toString() : "0";
          const next: Row = {
            ...game,
            packs_minted: (uintOf(game, "packs_minted") + amount).toString(),
            mint_volume: (uintOf(game, "mint_volume") + paid).toString(),
            mint_payment_tx: null,
            mint_payment_wei: null,
          };
          putGame({
            ...next,
            price_per_pack: currentPackPrice(next, paid > 0n ? mintPrice : String(game["price_per_pack"])),
          });
        }
      },
      BoosterDropOpened(store, log, { game, at, stamp, updatePack, putGame }) {
        const { batchId } = log.args;
        const tokenIds = tokenIdsOf(log);
        // Opening precedes the rarity now: an opened pack has rarity 0 until its batch's `RarityAssigned`.
        for (const tokenId of tokenIds)
          updatePack(tokenId, () => ({
            status: "opened",
            batch_id: batchId.toString(),
            ...stamp("opened"),
          }));
        store.put(
          "classic_open_batches",
          {
            scope: id,
            ...batchKey(log.address, batchId),
            token_ids: tokenIds.map(String),
            random_number: null,
            opened_tx: log.transactionHash,
            ...at,
          },
          log.blockNumber,
        );
        if (game)
          putGame({
            ...game,
            packs_opened: (uintOf(game, "packs_opened") + BigInt(tokenIds.length)).toString(),
          });
      },
      RarityAssigned(store, log, { game, at, stamp, updatePack }) {
        const { batchId, randomNumber } = log.args;
        const batch = store.get("classic_open_batches", batchKey(log.address, batchId));
        if (!batch) return;
        store.put(
          "classic_open_batches",
          { ...batch, random_number: lowercase(randomNumber), ...at },
          log.blockNumber,
        );
        const random = hexToBigInt(randomNumber);
        const odds = (game?.["odds_bps"] ?? [6000, 2500, 1000, 400, 100]) as unknown as RarityOdds;
        for (const tokenId of batch["token_ids"] as string[]) {
          const draw = deriveRarity(random, BigInt(tokenId), odds);
          updatePack(tokenId, (pack) => ({
            // The card is known now: an opened pack's status moves on; a sold one stays burned.
            status: pack["status"] === "opened" ? "rarity_assigned" : pack["status"],
            rarity: draw.rarity,
            token_seed: draw.tokenSeed.toString(),
            random_value: draw.randomValue.toString(),
            ...stamp("rarity"),
          }));
        }
      },
      BoosterDropSold(_store, log, { game, burn, putGame }) {
        burn(log.args.tokenId, log.args.offerAmount);
        if (game) putGame({ ...game, packs_burned: (uintOf(game, "packs_burned") + 1n).toString() });
      },
      BoosterDropSoldBatch(_store, log, { game, burn, putGame }) {
        // Carries only the batch's total: each card's reward is its rarity's offer.
        const { tokenIds, rarities } = log.args;
        const offers = (game?.["offers"] ?? []) as string[];
        tokenIds.forEach((tokenId, i) => {
          const rarity = rarities[i] ?? 0;
          burn(tokenId, rarity > 0 ? BigInt(offers[rarity - 1] ?? "0") : 0n);
        });
        if (game)
          putGame({
            ...game,
            packs_burned: (uintOf(game, "packs_burned") + BigInt(tokenIds.length)).toString(),
          });
      },
      ActiveChanged(_store, log, { game, putGame }) {
        if (game) putGame({ ...game, is_active: log.args.active === true });
      },
      Transfer(_store, log, { updatePack }) {
        // Mints and burns are described by BoosterDropsMinted and BoosterDropSold; a transfer moves ownership.
        const from = lowercase(log.args.from);
        const to = lowercase(log.args.to);
        if (from !== ZERO_ADDRESS && to !== ZERO_ADDRESS) updatePack(log.args.tokenId, () => ({ owner: to }));
      },
      MerkleRootUpdated(_store, log, { game, putGame }) {
        if (game) putGame({ ...game, merkle_root: lowercase(log.args.merkleRoot) });
      },
    },
    preloads(log) {
      const batch =
        log.event === "BoosterDropOpened" || log.event === "RarityAssigned"
          ? [{ table: "classic_open_batches" as const, key: batchKey(log.address, log.args.batchId) }]
          : [];
      return [
        { table: "classic_games", key: gameKey(log.address) },
        ...batch,
        ...tokenIdsOf(log).map((tokenId) => ({
          table: "classic_packs" as const,
          key: packKey(log.address, tokenId),
        })),
      ];
    },
    preloadsAfter(store, log) {
      if (log.event !== "RarityAssigned") return [];
      const batch = store.get("classic_open_batches", batchKey(log.address, log.args.batchId));
      if (!batch) return [];
      return (batch["token_ids"] as string[]).map((tokenId) => ({
        table: "classic_packs" as const,
        key: packKey(log.address, tokenId),
      }));
    },
  });

  return {
    id,
    generation: "classic",
    chainId,
    startBlock: BigInt(startBlock),
    finalityDepth: deployment.finalityDepth,
    contracts: [
      ...(factory ? [{ address: factory.address.toLowerCase(), kind: "factory" }] : []),
      ...[...listed].map(([drop, from]) => ({ address: drop, kind: "drop", from })),
    ],
    async resolveContracts(read) {
      await descriptions.describe(read, listed.keys());
      return [...listed].map(([drop, from]) => ({
        address: described(drop).token,
        kind: "token",
        parent: drop,
        from,
      }));
    },
    async prefetch(logs, read) {
      const drops = new Set<string>();
      for (const { log, contract } of logs) {
        if (contract.kind === "factory") {
          const created = eventLog(classicFactoryAbi, log);
          if (created.event === "DropCreated") drops.add(lowercase(created.args.dropContract));
        }
        const listedDrop = listedDropOf(log, contract);
        if (listedDrop) drops.add(listedDrop);
      }
      if (drops.size > 0) await descriptions.describe(read, drops);
    },
    ...dispatchByKind({ factory: factoryLogs, drop: dropLogs, token: tokenLogs }),
  };
}
