import { boosterDropAbi, boosterTokenAbi, dropFactoryAbi } from "@mkt/chain";
import { defaultGameSlug } from "@mkt/protocol";
import type { FactoryRole } from "../chains/index.ts";
import { big, type IndexedLog, lower, type Projection, str } from "./projection.ts";
import type { Row } from "./store.ts";

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** `GameCreated`'s `params` tuple as viem decodes it. */
interface GameParams {
  nftName: string;
  nftSymbol: string;
  tokenName: string;
  tokenSymbol: string;
  pricePerPack: bigint;
  merkleRoot: string;
  offers: readonly bigint[];
  oddsBps: readonly number[];
  virtualEth: bigint;
  virtualTokens: bigint;
  graduationEth: bigint;
  firstTokenId: bigint;
}

/**
 * Classic generation: the drop factory and every booster drop and token it
 * deploys. A game's row starts from `GameCreated`'s whole parameter tuple
 * and follows its drop (mints, opens, sell-backs, pauses) and token (curve
 * trades, graduation). The factory's `MetadataBaseURIUpdated` changes no row
 * (it is recorded in chain_events).
 */
export function classicProjection({ deployment, factory, scope: id }: FactoryRole): Projection {
  const chainId = deployment.chainId;
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
    generation: "classic",
    chainId,
    startBlock: BigInt(factory.startBlock),
    finalityDepth: deployment.finalityDepth,
    contracts: [{ address: factory.address.toLowerCase(), kind: "factory" }],
    abis: { factory: dropFactoryAbi, drop: boosterDropAbi, token: boosterTokenAbi },
    handles: {
      factory: ["GameCreated"],
      token: ["Purchase", "Sale", "Graduated"],
      drop: [
        "Minted",
        "RarityAssigned",
        "Opened",
        "SoldBack",
        "Transfer",
        "MerkleRootUpdated",
        "ActiveChanged",
      ],
    },
    creates(log, contract) {
      if (contract.kind !== "factory" || log.event !== "GameCreated") return [];
      const drop = lower(log.args["drop"]);
      return [
        { address: drop, kind: "drop" },
        { address: lower(log.args["token"]), kind: "token", parent: drop },
      ];
    },
    preloads(log, contract) {
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
        const params = log.args["params"] as GameParams;
        const gameId = str(log.args["gameId"]);
        store.put(
          "classic_games",
          {
            scope: id,
            ...gameKey(drop),
            game_id: gameId,
            token_address: token,
            creator: lower(log.args["creator"]),
            nft_name: params.nftName,
            nft_symbol: params.nftSymbol,
            token_name: params.tokenName,
            token_symbol: params.tokenSymbol,
            price_per_pack: str(params.pricePerPack),
            merkle_root: lower(params.merkleRoot),
            offers: params.offers.map(str),
            odds_bps: params.oddsBps.map(Number),
            virtual_eth: str(params.virtualEth),
            virtual_tokens: str(params.virtualTokens),
            graduation_eth: str(params.graduationEth),
            // As the drop: 0 means 1.
            first_token_id: params.firstTokenId === 0n ? "1" : str(params.firstTokenId),
            slug: defaultGameSlug(params.nftName, gameId),
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
            created_block: log.blockNumber.toString(),
            created_tx: log.transactionHash,
            created_at: log.blockTime,
            ...at,
          },
          log.blockNumber,
        );
        return;
      }
      if (kind === "token") {
        const tokenGame = contract.parent ? store.get("classic_games", gameKey(contract.parent)) : undefined;
        if (!tokenGame) return;
        if (log.event === "Purchase" || log.event === "Sale") {
          // A curve trade precedes graduation in its transaction (buy emits Purchase, then Graduated),
          // and the curve closes after it, so no trade ever follows Graduated: its 0 reserve stays.
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
            {
              ...tokenGame,
              // The curve's reserve moves into the pool: the token's ethReserve is 0 from here on.
              eth_reserve: "0",
              is_graduated: true,
              pool_address: lower(log.args["pool"]),
              pool_eth: str(log.args["ethLiquidity"]),
              pool_tokens: str(log.args["tokenLiquidity"]),
              ...at,
            },
            log.blockNumber,
          );
        }
        return;
      }
      if (kind !== "drop") return;
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
                mint_volume: (
                  big(game["mint_volume"]) +
                  big(log.args["pricePerPack"]) * big(log.args["amount"])
                ).toString(),
                ...at,
              },
              log.blockNumber,
            );
          }
          return;
        }
        case "RarityAssigned": {
          updatePack(log.args["tokenId"], (pack) => ({
            status: pack["status"] === "minted" ? "rarity_assigned" : pack["status"],
            rarity: Number(log.args["rarity"]),
            token_seed: str(log.args["tokenSeed"]),
            random_value: str(log.args["randomValue"]),
            ...stamp("rarity"),
          }));
          return;
        }
        case "Opened": {
          const tokenIds = tokenIdsOf(log);
          for (const tokenId of tokenIds)
            updatePack(tokenId, () => ({ status: "opened", ...stamp("opened") }));
          if (game) {
            store.put(
              "classic_games",
              {
                ...game,
                packs_opened: (big(game["packs_opened"]) + BigInt(tokenIds.length)).toString(),
                ...at,
              },
              log.blockNumber,
            );
          }
          return;
        }
        case "SoldBack": {
          updatePack(log.args["tokenId"], () => ({
            status: "burned",
            reward_amount: str(log.args["offer"]),
            ...stamp("burn"),
          }));
          if (game) {
            store.put(
              "classic_games",
              { ...game, packs_burned: (big(game["packs_burned"]) + 1n).toString(), ...at },
              log.blockNumber,
            );
          }
          return;
        }
        case "ActiveChanged": {
          if (game)
            store.put(
              "classic_games",
              { ...game, is_active: log.args["active"] === true, ...at },
              log.blockNumber,
            );
          return;
        }
        case "Transfer": {
          // Mints and burns are described by Minted and SoldBack; a transfer moves ownership.
          const from = lower(log.args["from"]);
          const to = lower(log.args["to"]);
          if (from !== ZERO_ADDRESS && to !== ZERO_ADDRESS)
            updatePack(log.args["tokenId"], () => ({ owner: to }));
          return;
        }
        case "MerkleRootUpdated": {
          if (game)
            store.put(
              "classic_games",
              { ...game, merkle_root: lower(log.args["merkleRoot"]), ...at },
              log.blockNumber,
            );
          return;
        }
        default:
          return;
      }
    },
  };
}
