import {
  boosterDropAbi,
  boosterTokenAbi,
  type ChainDeployment,
  claimDropsAbi,
  dropFactoryAbi,
  marketAbi,
  marketFactoryAbi,
} from "@mkt/chain";
import type { Abi } from "viem";
import type { BatchStore, Row, StateTableName } from "./store.ts";

/** One decoded log, as handlers see it. Addresses are lowercase; uint values bigint. */
export interface IndexedLog {
  address: string;
  event: string;
  args: Record<string, unknown>;
  blockNumber: bigint;
  blockHash: string;
  blockTime: Date;
  logIndex: number;
  transactionHash: string;
}

export interface Discovered {
  address: string;
  kind: string;
  /** The contract this one belongs to (a booster token's drop). */
  parent?: string | null;
}

/** What a scope indexes and how its logs change the projection. */
export interface ScopeDefinition {
  /** Shown as `head.scope`: chain, contract set and runtime. */
  id: string;
  chainId: number;
  startBlock: bigint;
  finalityDepth: number;
  runtimeId?: string;
  /** Contracts known from the deployment, by kind. */
  contracts: Discovered[];
  abis: Record<string, Abi>;
  /** State rows a log reads, loaded in bulk before the batch is applied. */
  reads(log: IndexedLog, contract: Discovered): Array<{ table: StateTableName; key: Row }>;
  /** Applies one log; returns contracts the log created. */
  apply(store: BatchStore, log: IndexedLog, contract: Discovered): Discovered[] | undefined;
}

const lower = (value: unknown) => String(value).toLowerCase();
const str = (value: unknown) => (typeof value === "bigint" ? value.toString() : String(value));
const big = (value: unknown) => BigInt(value as string | bigint);

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** Classic generation: the drop factory and every booster drop and token it deploys. */
export function classicScope(deployment: ChainDeployment): ScopeDefinition {
  const factory = deployment.contracts["DropFactory"];
  if (!factory) throw new Error(`chain ${deployment.chainId} has no DropFactory`);
  const chainId = deployment.chainId;
  const id = `${chainId}:classic:${factory.address.toLowerCase()}`;
  const gameKey = (drop: string) => ({ chain_id: chainId, drop_address: drop });
  const packKey = (drop: string, tokenId: unknown) => ({
    chain_id: chainId,
    contract_address: drop,
    token_id: str(tokenId),
  });
  const tokenIdsOf = (log: IndexedLog): bigint[] => {
    switch (log.event) {
      case "Minted": {
        const ids: bigint[] = [];
        for (let t = big(log.args["startTokenId"]); t <= big(log.args["endTokenId"]); t++) ids.push(t);
        return ids;
      }
      case "RarityAssigned":
      case "SoldBack":
      case "Transfer":
        return [big(log.args["tokenId"])];
      case "Opened":
        return (log.args["tokenIds"] as bigint[]).map(big);
      default:
        return [];
    }
  };
  return {
    id,
    chainId,
    startBlock: BigInt(factory.startBlock),
    finalityDepth: deployment.finalityDepth,
    contracts: [{ address: factory.address.toLowerCase(), kind: "factory" }],
    abis: { factory: dropFactoryAbi, drop: boosterDropAbi, token: boosterTokenAbi },
    reads(log, contract) {
      if (contract.kind === "drop") {
        return [
          { table: "classic_games", key: gameKey(log.address) },
          ...tokenIdsOf(log).map((tokenId) => ({
            table: "classic_packs" as const,
            key: packKey(log.address, tokenId),
          })),
        ];
      }
      if (contract.kind === "token" && contract.parent)
        return [{ table: "classic_games", key: gameKey(contract.parent) }];
      return [];
    },
    apply(store, log, contract) {
      const kind = contract.kind;
      const at = { updated_block: log.blockNumber.toString(), updated_at: log.blockTime };
      if (kind === "factory" && log.event === "GameCreated") {
        const drop = lower(log.args["drop"]);
        const token = lower(log.args["token"]);
        store.put(
          "classic_games",
          {
            scope: id,
            ...gameKey(drop),
            game_id: str(log.args["gameId"]),
            token_address: token,
            creator: lower(log.args["creator"]),
            nft_name: log.args["nftName"],
            nft_symbol: log.args["nftSymbol"],
            token_name: log.args["tokenName"],
            token_symbol: log.args["tokenSymbol"],
            price_per_pack: str(log.args["pricePerPack"]),
            merkle_root: lower(log.args["merkleRoot"]),
            eth_reserve: "0",
            tokens_sold: "0",
            is_graduated: false,
            pool_address: null,
            packs_minted: "0",
            created_block: log.blockNumber.toString(),
            created_tx: log.transactionHash,
            created_at: log.blockTime,
            ...at,
          },
          log.blockNumber,
        );
        return [
          { address: drop, kind: "drop" },
          { address: token, kind: "token", parent: drop },
        ];
      }
      if (kind === "token") {
        const tokenGame = contract.parent ? store.get("classic_games", gameKey(contract.parent)) : undefined;
        if (!tokenGame) return undefined;
        if (log.event === "Purchase" || log.event === "Sale") {
          store.put(
            "classic_games",
            {
              ...tokenGame,
              eth_reserve: str(log.args["ethReserve"]),
              tokens_sold: str(log.args["tokensSold"]),
              ...at,
            },
            log.blockNumber,
          );
        } else if (log.event === "Graduated") {
          store.put(
            "classic_games",
            { ...tokenGame, is_graduated: true, pool_address: lower(log.args["pool"]), ...at },
            log.blockNumber,
          );
        }
        return undefined;
      }
      if (kind !== "drop") return undefined;
      const game = store.get("classic_games", gameKey(log.address));
      /** The transaction, block and time columns of one lifecycle step (`mint`, `rarity`, `opened`, `burn`). */
      const stamp = (step: string) => ({
        [`${step}_tx`]: log.transactionHash,
        [`${step}_block`]: log.blockNumber.toString(),
        [`${step}_time`]: log.blockTime,
      });
      /** Changes one pack, if the projection has it. */
      const updatePack = (tokenId: unknown, changes: (pack: Row) => Row) => {
        const pack = store.get("classic_packs", packKey(log.address, tokenId));
        if (pack) store.put("classic_packs", { ...pack, ...changes(pack), ...at }, log.blockNumber);
      };
      switch (log.event) {
        case "Minted": {
          const minter = lower(log.args["minter"]);
          for (const tokenId of tokenIdsOf(log)) {
            store.put(
              "classic_packs",
              {
                scope: id,
                ...packKey(log.address, tokenId),
                owner: minter,
                status: "minted",
                rarity: 0,
                batch_id: str(log.args["batchId"]),
                token_seed: null,
                random_value: null,
                acquired_price: str(log.args["pricePerPack"]),
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
          }
          if (game) {
            store.put(
              "classic_games",
              {
                ...game,
                packs_minted: (big(game["packs_minted"]) + big(log.args["amount"])).toString(),
                ...at,
              },
              log.blockNumber,
            );
          }
          return undefined;
        }
        case "RarityAssigned": {
          updatePack(log.args["tokenId"], (pack) => ({
            status: pack["status"] === "minted" ? "rarity_assigned" : pack["status"],
            rarity: Number(log.args["rarity"]),
            token_seed: str(log.args["tokenSeed"]),
            random_value: str(log.args["randomValue"]),
            ...stamp("rarity"),
          }));
          return undefined;
        }
        case "Opened": {
          for (const tokenId of tokenIdsOf(log))
            updatePack(tokenId, () => ({ status: "opened", ...stamp("opened") }));
          return undefined;
        }
        case "SoldBack": {
          updatePack(log.args["tokenId"], () => ({
            status: "burned",
            reward_amount: str(log.args["offer"]),
            ...stamp("burn"),
          }));
          return undefined;
        }
        case "Transfer": {
          // Mints and burns are described by Minted and SoldBack; a transfer moves ownership.
          const from = lower(log.args["from"]);
          const to = lower(log.args["to"]);
          if (from !== ZERO_ADDRESS && to !== ZERO_ADDRESS)
            updatePack(log.args["tokenId"], () => ({ owner: to }));
          return undefined;
        }
        case "MerkleRootUpdated": {
          if (game)
            store.put(
              "classic_games",
              { ...game, merkle_root: lower(log.args["merkleRoot"]), ...at },
              log.blockNumber,
            );
          return undefined;
        }
        default:
          return undefined;
      }
    },
  };
}

/** Current generation: one scope per runtime, reading its ClaimDrops contract. */
export function runtimeScopes(deployment: ChainDeployment): ScopeDefinition[] {
  return deployment.runtimes
    .filter((runtime) => runtime.contracts["ClaimDrops"])
    .map((runtime) => {
      const address = runtime.contracts["ClaimDrops"]!.toLowerCase();
      const id = `${deployment.chainId}:runtime:${runtime.id}`;
      const dropKey = (dropId: unknown) => ({ runtime_id: runtime.id, drop_id: str(dropId) });
      return {
        id,
        chainId: deployment.chainId,
        runtimeId: runtime.id,
        startBlock: BigInt(runtime.startBlock),
        finalityDepth: deployment.finalityDepth,
        contracts: [{ address, kind: "claims" }],
        abis: { claims: claimDropsAbi },
        reads: (log) =>
          log.event === "Claimed" || log.event === "DropCreated"
            ? [{ table: "market_drops" as const, key: dropKey(log.args["dropId"]) }]
            : [],
        apply(store, log) {
          if (log.event === "DropCreated") {
            store.put(
              "market_drops",
              {
                scope: id,
                ...dropKey(log.args["dropId"]),
                creator: lower(log.args["creator"]),
                price: str(log.args["price"]),
                max_supply: str(log.args["maxSupply"]),
                claimed: "0",
                created_block: log.blockNumber.toString(),
                updated_block: log.blockNumber.toString(),
              },
              log.blockNumber,
            );
          } else if (log.event === "Claimed") {
            store.append("market_claims", {
              scope: id,
              runtime_id: runtime.id,
              block_number: log.blockNumber.toString(),
              log_index: log.logIndex,
              transaction_hash: log.transactionHash,
              block_time: log.blockTime,
              owner: lower(log.args["owner"]),
              drop_id: str(log.args["dropId"]),
              quantity: str(log.args["quantity"]),
              paid: str(log.args["paid"]),
              total_claimed: str(log.args["totalClaimed"]),
            });
            const drop = store.get("market_drops", dropKey(log.args["dropId"]));
            if (drop) {
              store.put(
                "market_drops",
                {
                  ...drop,
                  claimed: str(log.args["totalClaimed"]),
                  updated_block: log.blockNumber.toString(),
                },
                log.blockNumber,
              );
            }
          }
          return undefined;
        },
      } satisfies ScopeDefinition;
    });
}

/** Prediction feed: the market factory and every market it creates. */
export function predictScope(deployment: ChainDeployment): ScopeDefinition {
  const factory = deployment.contracts["MarketFactory"];
  if (!factory) throw new Error(`chain ${deployment.chainId} has no MarketFactory`);
  const chainId = deployment.chainId;
  const id = `${chainId}:predict:${factory.address.toLowerCase()}`;
  const marketKey = (address: string) => ({ chain_id: chainId, address });
  const positionKey = (market: string, owner: unknown) => ({
    chain_id: chainId,
    market,
    owner: lower(owner),
  });
  const traderOf = (log: IndexedLog) => log.args["buyer"] ?? log.args["seller"] ?? log.args["owner"];
  return {
    id,
    chainId,
    startBlock: BigInt(factory.startBlock),
    finalityDepth: deployment.finalityDepth,
    contracts: [{ address: factory.address.toLowerCase(), kind: "factory" }],
    abis: { factory: marketFactoryAbi, market: marketAbi },
    reads(log, contract) {
      if (contract.kind !== "market") return [];
      const reads: Array<{ table: StateTableName; key: Row }> = [
        { table: "predict_markets", key: marketKey(log.address) },
      ];
      const trader = traderOf(log);
      if (trader !== undefined)
        reads.push({ table: "predict_positions", key: positionKey(log.address, trader) });
      return reads;
    },
    apply(store, log, contract) {
      const at = { updated_block: log.blockNumber.toString(), updated_at: log.blockTime };
      if (contract.kind === "factory") {
        if (log.event !== "MarketCreated") return undefined;
        const address = lower(log.args["market"]);
        const seed = str(log.args["seed"]);
        store.put(
          "predict_markets",
          {
            scope: id,
            ...marketKey(address),
            market_id: str(log.args["marketId"]),
            creator: lower(log.args["creator"]),
            question: log.args["question"],
            seed,
            fee_bps: Number(log.args["feeBps"]),
            yes_pool: seed,
            no_pool: seed,
            backing: seed,
            volume: "0",
            status: "active",
            outcome: null,
            created_block: log.blockNumber.toString(),
            created_at: log.blockTime,
            ...at,
          },
          log.blockNumber,
        );
        return [{ address, kind: "market" }];
      }
      const market = store.get("predict_markets", marketKey(log.address));
      if (!market) return undefined;
      const trade = (
        kind: "buy" | "sell" | "redeem",
        side: number | null,
        weth: bigint,
        fee: bigint,
        shares: bigint,
      ) =>
        store.append("predict_trades", {
          scope: id,
          chain_id: chainId,
          block_number: log.blockNumber.toString(),
          log_index: log.logIndex,
          transaction_hash: log.transactionHash,
          block_time: log.blockTime,
          market: log.address,
          trader: lower(traderOf(log)),
          kind,
          side,
          weth: weth.toString(),
          fee: fee.toString(),
          shares: shares.toString(),
        });
      const position = () => {
        const key = positionKey(log.address, traderOf(log));
        return (
          store.get("predict_positions", key) ?? {
            scope: id,
            ...key,
            yes_shares: "0",
            no_shares: "0",
            redeemed: "0",
            updated_block: "0",
          }
        );
      };
      const pools = { yes: big(market["yes_pool"]), no: big(market["no_pool"]) };
      switch (log.event) {
        case "Buy":
        case "Sell": {
          const side = Number(log.args["side"]);
          const fee = big(log.args["fee"]);
          const own = side === 0 ? "yes" : "no";
          const other = side === 0 ? "no" : "yes";
          let backing = big(market["backing"]);
          let weth: bigint;
          let shares: bigint;
          if (log.event === "Buy") {
            weth = big(log.args["wethIn"]);
            shares = big(log.args["sharesOut"]);
            const invested = weth - fee;
            pools[own] = pools[own] + invested - shares;
            pools[other] = pools[other] + invested;
            backing += invested;
          } else {
            weth = big(log.args["wethOut"]);
            shares = big(log.args["sharesIn"]);
            const gross = weth + fee;
            pools[own] = pools[own] + shares - gross;
            pools[other] = pools[other] - gross;
            backing -= gross;
          }
          trade(log.event === "Buy" ? "buy" : "sell", side, weth, fee, shares);
          const held = position();
          const column = side === 0 ? "yes_shares" : "no_shares";
          const delta = log.event === "Buy" ? shares : -shares;
          store.put(
            "predict_positions",
            {
              ...held,
              [column]: (big(held[column]) + delta).toString(),
              updated_block: log.blockNumber.toString(),
            },
            log.blockNumber,
          );
          store.put(
            "predict_markets",
            {
              ...market,
              yes_pool: pools.yes.toString(),
              no_pool: pools.no.toString(),
              backing: backing.toString(),
              volume: (big(market["volume"]) + weth).toString(),
              ...at,
            },
            log.blockNumber,
          );
          return undefined;
        }
        case "Paused":
        case "Unpaused":
          store.put(
            "predict_markets",
            { ...market, status: log.event === "Paused" ? "paused" : "active", ...at },
            log.blockNumber,
          );
          return undefined;
        case "Resolved":
          store.put(
            "predict_markets",
            { ...market, status: "resolved", outcome: Number(log.args["outcome"]), ...at },
            log.blockNumber,
          );
          return undefined;
        case "Redeemed": {
          const payout = big(log.args["payout"]);
          trade(
            "redeem",
            market["outcome"] === null ? null : Number(market["outcome"]),
            payout,
            0n,
            big(log.args["shares"]),
          );
          const held = position();
          const column = Number(market["outcome"]) === 0 ? "yes_shares" : "no_shares";
          store.put(
            "predict_positions",
            {
              ...held,
              [column]: "0",
              redeemed: (big(held["redeemed"]) + payout).toString(),
              updated_block: log.blockNumber.toString(),
            },
            log.blockNumber,
          );
          store.put(
            "predict_markets",
            { ...market, backing: (big(market["backing"]) - payout).toString(), ...at },
            log.blockNumber,
          );
          return undefined;
        }
        case "LiquidityCollected": {
          const shares = big(log.args["shares"]);
          store.put(
            "predict_markets",
            { ...market, backing: (big(market["backing"]) - shares).toString(), ...at },
            log.blockNumber,
          );
          return undefined;
        }
        default:
          return undefined;
      }
    },
  };
}

/** Every scope of one chain's deployment. */
export function scopesOf(deployment: ChainDeployment): ScopeDefinition[] {
  const scopes: ScopeDefinition[] = [];
  if (deployment.contracts["DropFactory"]) scopes.push(classicScope(deployment));
  if (deployment.contracts["MarketFactory"]) scopes.push(predictScope(deployment));
  else scopes.push(...runtimeScopes(deployment));
  return scopes;
}
