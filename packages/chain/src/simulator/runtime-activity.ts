import type { Address } from "viem";
import { parseEther, zeroAddress } from "viem";
import type { RuntimeDeployment } from "../chain-config.ts";
import { claimDropsAbi } from "../generated/abis.ts";
import type { ActionChoice, ActionReport, Activity, SimulationContext } from "./context.ts";

interface Drop {
  runtimeId: string;
  claimDrops: Address;
  dropId: bigint;
  price: bigint;
  maxSupply: bigint;
  claimed: bigint;
}

const MAX_DROPS = 12;

/** Current-generation traffic: drops created with ids across the whole uint256 range, and claims. */
export function createRuntimeActivity(
  context: SimulationContext,
  runtimes: readonly RuntimeDeployment[],
): Activity {
  const { clients, prng, users } = context;
  const { publicClient } = clients;
  const targets = runtimes.flatMap((runtime) => {
    const claimDrops = runtime.contracts["ClaimDrops"];
    return claimDrops === undefined ? [] : [{ runtime, claimDrops }];
  });
  const drops: Drop[] = [];

  async function loadDrop(runtimeId: string, claimDrops: Address, dropId: bigint): Promise<Drop> {
    const [, price, maxSupply, claimed] = await publicClient.readContract({
      address: claimDrops,
      abi: claimDropsAbi,
      functionName: "drops",
      args: [dropId],
    });
    return { runtimeId, claimDrops, dropId, price, maxSupply, claimed };
  }

  const claimable = () => drops.filter((drop) => drop.maxSupply === 0n || drop.claimed < drop.maxSupply);

  async function createDrop(): Promise<ActionReport> {
    // The newest runtime gets most of the traffic, as it would after a release.
    const latest = targets.at(-1);
    const target = latest !== undefined && prng.chance(0.8) ? latest : prng.pick(targets);
    const dropId = prng.chance(0.5) ? prng.uint256() : BigInt(prng.int(1, 1_000_000));
    const [creator] = await publicClient.readContract({
      address: target.claimDrops,
      abi: claimDropsAbi,
      functionName: "drops",
      args: [dropId],
    });
    if (dropId === 0n || creator !== zeroAddress) return { action: "createDrop", skipped: true };
    const price = parseEther(prng.pick(["0", "0.0001", "0.001"]));
    const maxSupply = BigInt(prng.pick([0, 100, 1000]));
    await context.send(
      clients.wallet(prng.pick(users)).writeContract({
        address: target.claimDrops,
        abi: claimDropsAbi,
        functionName: "createDrop",
        args: [dropId, price, maxSupply],
      }),
    );
    drops.push({
      runtimeId: target.runtime.id,
      claimDrops: target.claimDrops,
      dropId,
      price,
      maxSupply,
      claimed: 0n,
    });
    return { action: "createDrop", runtime: target.runtime.id, dropId: dropId.toString() };
  }

  async function claim(): Promise<ActionReport> {
    const drop = prng.pick(claimable());
    let quantity = BigInt(prng.int(1, 5));
    if (drop.maxSupply !== 0n && drop.claimed + quantity > drop.maxSupply)
      quantity = drop.maxSupply - drop.claimed;
    const claimer = prng.pick(users);
    await context.send(
      clients.wallet(claimer).writeContract({
        address: drop.claimDrops,
        abi: claimDropsAbi,
        functionName: "claim",
        args: [drop.dropId, quantity],
        value: drop.price * quantity,
      }),
    );
    drop.claimed += quantity;
    return {
      action: "claim",
      runtime: drop.runtimeId,
      dropId: drop.dropId.toString(),
      claimer,
      quantity: quantity.toString(),
    };
  }

  return {
    async init() {
      for (const { runtime, claimDrops } of targets) {
        const created = await publicClient.getContractEvents({
          address: claimDrops,
          abi: claimDropsAbi,
          eventName: "DropCreated",
          fromBlock: BigInt(runtime.startBlock),
        });
        for (const event of created) {
          if (event.args.dropId !== undefined)
            drops.push(await loadDrop(runtime.id, claimDrops, event.args.dropId));
        }
      }
    },

    choices(): ActionChoice[] {
      return [
        {
          action: "createDrop",
          weight: targets.length > 0 && drops.length < MAX_DROPS ? 2 : 0,
          run: createDrop,
        },
        { action: "claim", weight: claimable().length > 0 ? 12 : 0, run: claim },
      ];
    },
  };
}
