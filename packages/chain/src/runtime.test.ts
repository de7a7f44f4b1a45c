import { type Address, parseEther, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractAddress, setupDevChain, type TestChain } from "./_test/setup.ts";
import { DEV_ACCOUNT_ROLES } from "./accounts.ts";
import { waitForSuccess } from "./clients.ts";
import { CLASSIC_CHAIN_ID, DEV_RUNTIMES, SAMPLE_MAX_DROP_ID } from "./deploy.ts";
import { claimDropsAbi, runtimeRegistryAbi } from "./generated/abis.ts";

let t: TestChain;
beforeAll(async () => {
  t = await setupDevChain(CLASSIC_CHAIN_ID);
});
afterAll(async () => {
  await t?.close();
});

describe("current-generation runtimes", () => {
  it("lists the runtimes onchain with the ids and versions of the deployment", async () => {
    const registry = contractAddress(t.deployment, "RuntimeRegistry");
    const { publicClient } = t.clients;
    expect(
      await publicClient.readContract({
        address: registry,
        abi: runtimeRegistryAbi,
        functionName: "runtimeCount",
      }),
    ).toBe(BigInt(DEV_RUNTIMES.length));
    for (const [index, runtime] of t.deployment.runtimes.entries()) {
      const onchain = await publicClient.readContract({
        address: registry,
        abi: runtimeRegistryAbi,
        functionName: "runtimeAt",
        args: [BigInt(index)],
      });
      expect(onchain).toMatchObject({
        id: runtime.id,
        version: BigInt(runtime.version),
        claimDrops: runtime.contracts["ClaimDrops"],
      });
      const claimDrops = runtime.contracts["ClaimDrops"]!;
      expect(
        await publicClient.readContract({
          address: claimDrops,
          abi: claimDropsAbi,
          functionName: "runtimeId",
        }),
      ).toBe(runtime.id);
      expect(
        await publicClient.readContract({
          address: claimDrops,
          abi: claimDropsAbi,
          functionName: "runtimeVersion",
        }),
      ).toBe(BigInt(runtime.version));
    }
    const latest = await publicClient.readContract({
      address: registry,
      abi: runtimeRegistryAbi,
      functionName: "latest",
    });
    expect(latest.id).toBe(t.deployment.runtimes.at(-1)?.id);
  });

  it("claims a drop whose id has 78 digits and reports uint256 quantities", async () => {
    const claimDrops = t.deployment.runtimes.at(-1)!.contracts["ClaimDrops"]!;
    const claimer = t.clients.wallet(DEV_ACCOUNT_ROLES.firstUser);
    const { publicClient } = t.clients;
    expect(SAMPLE_MAX_DROP_ID.toString()).toHaveLength(78);
    const price = parseEther("0.0001");
    const receipt = await waitForSuccess(
      publicClient,
      await claimer.writeContract({
        address: claimDrops,
        abi: claimDropsAbi,
        functionName: "claim",
        args: [SAMPLE_MAX_DROP_ID, 3n],
        value: price * 3n,
      }),
    );
    expect(parseEventLogs({ abi: claimDropsAbi, logs: receipt.logs, eventName: "Claimed" })[0]?.args).toEqual(
      {
        owner: claimer.account.address,
        dropId: SAMPLE_MAX_DROP_ID,
        quantity: 3n,
        paid: price * 3n,
        totalClaimed: 3n,
      },
    );
    expect(
      await publicClient.readContract({
        address: claimDrops,
        abi: claimDropsAbi,
        functionName: "balanceOf",
        args: [SAMPLE_MAX_DROP_ID, claimer.account.address],
      }),
    ).toBe(3n);
    await expect(
      claimer.writeContract({
        address: claimDrops,
        abi: claimDropsAbi,
        functionName: "claim",
        args: [SAMPLE_MAX_DROP_ID, 998n],
        value: price * 998n,
      }),
    ).rejects.toThrow("Claims: sold out");
    await expect(
      claimer.writeContract({
        address: claimDrops,
        abi: claimDropsAbi,
        functionName: "claim",
        args: [42n, 1n],
      }),
    ).rejects.toThrow("Claims: unknown drop");
  });

  it("airdrops a drop from its creator, one Claimed per owner with running totals, and refuses others", async () => {
    const claimDrops = t.deployment.runtimes.at(-1)!.contracts["ClaimDrops"]!;
    const creator = t.clients.wallet(DEV_ACCOUNT_ROLES.firstUser + 1);
    const stranger = t.clients.wallet(DEV_ACCOUNT_ROLES.firstUser + 2);
    const { publicClient } = t.clients;
    const dropId = 2n ** 200n + 7n;
    await waitForSuccess(
      publicClient,
      await creator.writeContract({
        address: claimDrops,
        abi: claimDropsAbi,
        functionName: "createDrop",
        args: [dropId, parseEther("1"), 10n],
      }),
    );
    // Checksummed, as viem decodes event addresses; the first owner receives twice.
    const owners: Address[] = [
      "0x00000000000000000000000000000000000000A1",
      "0x00000000000000000000000000000000000000A2",
      "0x00000000000000000000000000000000000000A1",
    ];
    const receipt = await waitForSuccess(
      publicClient,
      await creator.writeContract({
        address: claimDrops,
        abi: claimDropsAbi,
        functionName: "airdrop",
        args: [dropId, owners, [2n, 3n, 1n]],
      }),
    );
    expect(
      parseEventLogs({ abi: claimDropsAbi, logs: receipt.logs, eventName: "Claimed" }).map((log) => log.args),
    ).toEqual([
      { owner: owners[0], dropId, quantity: 2n, paid: 0n, totalClaimed: 2n },
      { owner: owners[1], dropId, quantity: 3n, paid: 0n, totalClaimed: 5n },
      { owner: owners[2], dropId, quantity: 1n, paid: 0n, totalClaimed: 6n },
    ]);
    const read = (owner: Address) =>
      publicClient.readContract({
        address: claimDrops,
        abi: claimDropsAbi,
        functionName: "balanceOf",
        args: [dropId, owner],
      });
    expect([await read(owners[0]!), await read(owners[1]!)]).toEqual([3n, 3n]);
    const [, , , claimed] = await publicClient.readContract({
      address: claimDrops,
      abi: claimDropsAbi,
      functionName: "drops",
      args: [dropId],
    });
    expect(claimed).toBe(6n);

    await expect(
      stranger.writeContract({
        address: claimDrops,
        abi: claimDropsAbi,
        functionName: "airdrop",
        args: [dropId, [stranger.account.address], [1n]],
      }),
    ).rejects.toThrow("Claims: not the creator");
    // 6 claimed of 10: five more would exceed maxSupply.
    await expect(
      creator.writeContract({
        address: claimDrops,
        abi: claimDropsAbi,
        functionName: "airdrop",
        args: [dropId, [owners[1]!], [5n]],
      }),
    ).rejects.toThrow("Claims: sold out");
    await expect(
      creator.writeContract({
        address: claimDrops,
        abi: claimDropsAbi,
        functionName: "airdrop",
        args: [dropId, owners, [1n]],
      }),
    ).rejects.toThrow("Claims: length mismatch");
  });
});
