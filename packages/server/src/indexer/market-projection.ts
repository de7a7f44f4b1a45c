import { claimDropsAbi, runtimeRegistryAbi } from "@mkt/chain";
import type { MarketRole } from "../chains/index.ts";
import { type Discovered, type IndexedLog, lower, type Preload, type Projection, str } from "./projection.ts";

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
 */
export function marketProjection({ deployment, registry, scope: id }: MarketRole): Projection {
  const chainId = deployment.chainId;
  const runtimeKey = (runtimeId: string) => ({ chain_id: chainId, runtime_id: runtimeId });
  const dropKey = (runtimeId: string, dropId: unknown) => ({
    chain_id: chainId,
    runtime_id: runtimeId,
    drop_id: str(dropId),
  });
  /** The runtime whose catalog row names this ClaimDrops, if any. */
  const runtimeOf = (contract: Discovered) => contract.label ?? undefined;

  return {
    id,
    generation: "runtime",
    chainId,
    startBlock: BigInt(registry.startBlock),
    finalityDepth: deployment.finalityDepth,
    contracts: [{ address: registry.address.toLowerCase(), kind: "registry" }],
    abis: { registry: runtimeRegistryAbi, claims: claimDropsAbi },
    handles: { registry: ["RuntimeRegistered"], claims: ["DropCreated", "Claimed"] },
    creates(log: IndexedLog, contract: Discovered): Discovered[] {
      if (contract.kind !== "registry" || log.event !== "RuntimeRegistered") return [];
      return [
        {
          address: lower(log.args["claimDrops"]),
          kind: "claims",
          parent: contract.address,
          label: String(log.args["id"]),
        },
      ];
    },
    preloads(log: IndexedLog, contract: Discovered): Preload[] {
      if (contract.kind === "registry") {
        return [{ table: "market_runtimes", key: runtimeKey(String(log.args["id"])) }];
      }
      const runtimeId = runtimeOf(contract);
      if (runtimeId === undefined) return [];
      return [
        { table: "market_runtimes", key: runtimeKey(runtimeId) },
        { table: "market_drops", key: dropKey(runtimeId, log.args["dropId"]) },
      ];
    },
    apply(store, log, contract) {
      if (contract.kind === "registry") {
        const runtimeId = String(log.args["id"]);
        if (store.get("market_runtimes", runtimeKey(runtimeId))) return;
        store.put(
          "market_runtimes",
          {
            scope: id,
            ...runtimeKey(runtimeId),
            version: str(log.args["version"]),
            registry: contract.address,
            claim_drops: lower(log.args["claimDrops"]),
            registered_block: log.blockNumber.toString(),
            registered_tx: log.transactionHash,
            registered_at: log.blockTime.toISOString(),
          },
          log.blockNumber,
        );
        return;
      }
      const runtimeId = runtimeOf(contract);
      if (runtimeId === undefined) return;
      const runtime = store.get("market_runtimes", runtimeKey(runtimeId));
      if (runtime?.["claim_drops"] !== contract.address) return;
      const key = dropKey(runtimeId, log.args["dropId"]);
      if (log.event === "DropCreated") {
        store.put(
          "market_drops",
          {
            scope: id,
            ...key,
            contract: contract.address,
            creator: lower(log.args["creator"]),
            price: str(log.args["price"]),
            max_supply: str(log.args["maxSupply"]),
            claimed: "0",
            created_block: log.blockNumber.toString(),
            created_tx: log.transactionHash,
            updated_block: log.blockNumber.toString(),
          },
          log.blockNumber,
        );
        return;
      }
      if (log.event !== "Claimed") return;
      // Recorded in market_claims (not chain_events), and the drop's running total.
      store.append("market_claims", {
        scope: id,
        chain_id: chainId,
        runtime_id: runtimeId,
        block_number: log.blockNumber.toString(),
        log_index: log.logIndex,
        transaction_hash: log.transactionHash,
        block_time: log.blockTime,
        contract: contract.address,
        owner: lower(log.args["owner"]),
        drop_id: str(log.args["dropId"]),
        quantity: str(log.args["quantity"]),
        paid: str(log.args["paid"]),
        total_claimed: str(log.args["totalClaimed"]),
      });
      const drop = store.get("market_drops", key);
      if (drop) {
        store.put(
          "market_drops",
          { ...drop, claimed: str(log.args["totalClaimed"]), updated_block: log.blockNumber.toString() },
          log.blockNumber,
        );
      }
    },
  } satisfies Projection;
}
