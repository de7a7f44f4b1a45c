import { claimDropsAbi } from "@mkt/chain";
import type { MarketRole } from "../chains/index.ts";
import { lower, type Projection, str } from "./projection.ts";

/** Current generation: one scope per runtime, reading its ClaimDrops contract. */
export function runtimeProjections({ deployment, runtimes }: MarketRole): Projection[] {
  return runtimes.map(({ runtime, claimDrops, scope: id }) => {
    const dropKey = (dropId: unknown) => ({ runtime_id: runtime.id, drop_id: str(dropId) });
    return {
      id,
      generation: "runtime",
      chainId: deployment.chainId,
      runtimeId: runtime.id,
      startBlock: BigInt(runtime.startBlock),
      finalityDepth: deployment.finalityDepth,
      contracts: [{ address: claimDrops, kind: "claims" }],
      abis: { claims: claimDropsAbi },
      handles: { claims: ["DropCreated", "Claimed"] },
      creates: () => [],
      preloads: (log) => [{ table: "market_drops", key: dropKey(log.args["dropId"]) }],
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
          return;
        }
        if (log.event !== "Claimed") return;
        // Recorded in market_claims (not chain_events), and the drop's running total.
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
            { ...drop, claimed: str(log.args["totalClaimed"]), updated_block: log.blockNumber.toString() },
            log.blockNumber,
          );
        }
      },
    } satisfies Projection;
  });
}
