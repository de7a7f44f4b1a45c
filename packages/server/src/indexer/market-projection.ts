import { claimDropsAbi, runtimeRegistryAbi } from "@mkt/chain";
import type { MarketRole } from "../chains/index.ts";
import {
  contractHandlers,
  type Discovered,
  dispatchByKind,
  lowercase,
  type Preload,
  type Projection,
} from "./projection.ts";

/** The sum of a stored uint (a decimal string; absent = 0) and another, as a decimal string. */
const plus = (stored: unknown, add: string) =>
  (BigInt((stored as string | undefined) ?? "0") + BigInt(add)).toString();

/**
 * Current generation: one scope per RuntimeRegistry. `RuntimeRegistered`
 * puts the runtime in the catalog (`market_runtimes`) and creates its
 * ClaimDrops contract (labelled with the runtime id), whose logs are read
 * from the range of the registration on: drops in `market_drops`, claims in
 * `market_claims`, every row keyed with the chain id.
 *
 * The first registration of an id defines the runtime; a later one reusing
 * the id is only recorded in `chain_events`, and its contract's logs are
 * not projected (the catalog names one ClaimDrops per id).
 *
 * Each claim also moves the board's all-time summaries (migration 0031), so
 * the board never aggregates every claim: the drop's claim figures, the
 * wallet's holding of the drop (`market_board_holdings`) and the wallet's
 * collector rows (`market_board_collectors`), one for its runtime and one for
 * every runtime of the chain (`runtime_id = ''`).
 */
export function marketProjection({ deployment, registry, scope: id }: MarketRole): Projection {
  const chainId = deployment.chainId;
  const runtimeKey = (runtimeId: string) => ({ chain_id: chainId, runtime_id: runtimeId });
  const dropKey = (runtimeId: string, dropId: bigint) => ({
    chain_id: chainId,
    runtime_id: runtimeId,
    drop_id: dropId.toString(),
  });
  const holdingKey = (runtimeId: string, owner: string, dropId: bigint) => ({
    chain_id: chainId,
    runtime_id: runtimeId,
    owner,
    drop_id: dropId.toString(),
  });
  /** A wallet's collector row in one runtime, or over every runtime of the chain (`''`). */
  const collectorKey = (runtimeId: string, owner: string) => ({
    chain_id: chainId,
    runtime_id: runtimeId,
    owner,
  });
  const ALL_RUNTIMES = "";
  /** The runtime whose catalog row names this ClaimDrops, if any. */
  const runtimeOf = (contract: Discovered) => contract.label ?? undefined;

  const registryLogs = contractHandlers({
    abi: runtimeRegistryAbi,
    context: (_store, _log, contract: Discovered) => contract,
    on: {
      RuntimeRegistered(store, log, contract) {
        const runtimeId = log.args.id;
        if (store.get("market_runtimes", runtimeKey(runtimeId))) return;
        store.put(
          "market_runtimes",
          {
            scope: id,
            ...runtimeKey(runtimeId),
            version: log.args.version.toString(),
            registry: contract.address,
            claim_drops: lowercase(log.args.claimDrops),
            registered_block: log.blockNumber.toString(),
            registered_tx: log.transactionHash,
            registered_at: log.blockTime.toISOString(),
          },
          log.blockNumber,
        );
      },
    },
    creates: (log, contract) =>
      log.event === "RuntimeRegistered"
        ? [
            {
              address: lowercase(log.args.claimDrops),
              kind: "claims",
              parent: contract.address,
              label: log.args.id,
            },
          ]
        : [],
    preloads: (log) =>
      log.event === "RuntimeRegistered" ? [{ table: "market_runtimes", key: runtimeKey(log.args.id) }] : [],
  });
  /** A ClaimDrops' logs change its runtime's rows only if the catalog names it. */
  const claimsLogs = contractHandlers({
    abi: claimDropsAbi,
    context(store, _log, contract: Discovered) {
      const runtimeId = runtimeOf(contract);
      if (runtimeId === undefined) return undefined;
      const runtime = store.get("market_runtimes", runtimeKey(runtimeId));
      if (runtime?.["claim_drops"] !== contract.address) return undefined;
      return { runtimeId, contract };
    },
    on: {
      DropCreated(store, log, { runtimeId, contract }) {
        store.put(
          "market_drops",
          {
            scope: id,
            ...dropKey(runtimeId, log.args.dropId),
            contract: contract.address,
            creator: lowercase(log.args.creator),
            price: log.args.price.toString(),
            max_supply: log.args.maxSupply.toString(),
            claimed: "0",
            created_block: log.blockNumber.toString(),
            created_tx: log.transactionHash,
            updated_block: log.blockNumber.toString(),
            claims: "0",
            volume: "0",
            holders: 0,
            creator_holders: 0,
            chain_holders: 0,
            last_claim_at: null,
          },
          log.blockNumber,
        );
      },
      Claimed(store, log, { runtimeId, contract }) {
        // Recorded in market_claims (not chain_events), and the drop's running total.
        const owner = lowercase(log.args.owner);
        const quantity = log.args.quantity.toString();
        const paid = log.args.paid.toString();
        const block = log.blockNumber;
        store.append("market_claims", {
          scope: id,
          chain_id: chainId,
          runtime_id: runtimeId,
          block_number: block.toString(),
          log_index: log.logIndex,
          transaction_hash: log.transactionHash,
          block_time: log.blockTime,
          contract: contract.address,
          owner,
          drop_id: log.args.dropId.toString(),
          quantity,
          paid,
          total_claimed: log.args.totalClaimed.toString(),
        });
        // The board's summaries: the wallet's holding of the drop, its collector rows, the drop's figures.
        const holding = holdingKey(runtimeId, owner, log.args.dropId);
        const held = store.get("market_board_holdings", holding);
        store.put(
          "market_board_holdings",
          {
            scope: id,
            ...holding,
            claims: plus(held?.["claims"], "1"),
            packs: plus(held?.["packs"], quantity),
            volume: plus(held?.["volume"], paid),
          },
          block,
        );
        const drop = store.get("market_drops", dropKey(runtimeId, log.args.dropId));
        const creator = drop ? String(drop["creator"]) : undefined;
        /** Whether this is the wallet's first claim from the drop's creator, in the runtime and in the chain. */
        const firstFromCreator: Record<string, boolean> = {};
        for (const level of [runtimeId, ALL_RUNTIMES]) {
          const collector = collectorKey(level, owner);
          const row = store.get("market_board_collectors", collector);
          const creators = (row?.["creators"] as string[] | undefined) ?? [];
          const first = creator !== undefined && !creators.includes(creator);
          firstFromCreator[level] = first;
          store.put(
            "market_board_collectors",
            {
              scope: id,
              ...collector,
              claims: plus(row?.["claims"], "1"),
              packs: plus(row?.["packs"], quantity),
              volume: plus(row?.["volume"], paid),
              drops: Number(row?.["drops"] ?? 0) + (held ? 0 : 1),
              creators: first ? [...creators, creator] : creators,
              last_claim_at: log.blockTime,
            },
            block,
          );
        }
        if (drop) {
          store.put(
            "market_drops",
            {
              ...drop,
              claimed: log.args.totalClaimed.toString(),
              updated_block: block.toString(),
              claims: plus(drop["claims"], "1"),
              volume: plus(drop["volume"], paid),
              holders: Number(drop["holders"]) + (held ? 0 : 1),
              creator_holders: Number(drop["creator_holders"]) + (firstFromCreator[runtimeId] ? 1 : 0),
              chain_holders: Number(drop["chain_holders"]) + (firstFromCreator[ALL_RUNTIMES] ? 1 : 0),
              last_claim_at: log.blockTime,
            },
            block,
          );
        }
      },
    },
    preloads(log, contract) {
      const runtimeId = runtimeOf(contract);
      if (runtimeId === undefined) return [];
      const preloads: Preload[] = [
        { table: "market_runtimes", key: runtimeKey(runtimeId) },
        { table: "market_drops", key: dropKey(runtimeId, log.args.dropId) },
      ];
      if (log.event === "Claimed") {
        const owner = lowercase(log.args.owner);
        preloads.push(
          { table: "market_board_holdings", key: holdingKey(runtimeId, owner, log.args.dropId) },
          { table: "market_board_collectors", key: collectorKey(runtimeId, owner) },
          { table: "market_board_collectors", key: collectorKey(ALL_RUNTIMES, owner) },
        );
      }
      return preloads;
    },
  });

  return {
    id,
    generation: "runtime",
    chainId,
    startBlock: BigInt(registry.startBlock),
    finalityDepth: deployment.finalityDepth,
    contracts: [{ address: registry.address.toLowerCase(), kind: "registry" }],
    ...dispatchByKind({ registry: registryLogs, claims: claimsLogs }),
  } satisfies Projection;
}
