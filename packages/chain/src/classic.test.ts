import type { Address, Hex } from "viem";
import { parseEther, parseEventLogs, zeroAddress, zeroHash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  contractAddress,
  readGame,
  setupDevChain,
  type TestChain,
  waitForBlockNumber,
} from "./_test/setup.ts";
import { DEV_ACCOUNT_ROLES } from "./accounts.ts";
import { buildAllowlist } from "./allowlist.ts";
import type { RarityOdds } from "./classic-math.ts";
import {
  curveQuoteBuy,
  curveQuoteSell,
  DEFAULT_ODDS_BPS,
  defaultOffers,
  deriveRarity,
  graduationTokenLiquidity,
} from "./classic-math.ts";
import { waitForSuccess } from "./clients.ts";
import {
  CLASSIC_CHAIN_ID,
  DEFAULT_METADATA_BASE_URI,
  devAllowlist,
  SAMPLE_BIG_FIRST_TOKEN_ID,
} from "./deploy.ts";
import { fulfilEntropy, startEntropyFulfiller } from "./entropy.ts";
import { boosterDropAbi, boosterTokenAbi, dropFactoryAbi, entropyProviderAbi } from "./generated/abis.ts";

let t: TestChain;
beforeAll(async () => {
  t = await setupDevChain(CLASSIC_CHAIN_ID);
});
afterAll(async () => {
  await t?.close();
});

const user = DEV_ACCOUNT_ROLES.firstUser;
const outsider = 15;

async function mint(drop: Address, accountIndex: number, amount: bigint, proof: Hex[] = []) {
  const wallet = t.clients.wallet(accountIndex);
  const price = await t.clients.publicClient.readContract({
    address: drop,
    abi: boosterDropAbi,
    functionName: "pricePerPack",
  });
  const hash = await wallet.writeContract({
    address: drop,
    abi: boosterDropAbi,
    functionName: "mint",
    args: [amount, proof],
    value: price * amount,
  });
  return waitForSuccess(t.clients.publicClient, hash);
}

describe("booster drop lifecycle", () => {
  it("mint -> randomness -> rarity -> open -> sell back emits the expected events", async () => {
    const { drop } = await readGame(t, 1n);
    const { publicClient } = t.clients;
    const buyer = t.clients.wallet(user);
    const price = parseEther("0.001");

    const minted = await mint(drop, user, 3n);
    const mintEvents = parseEventLogs({ abi: boosterDropAbi, logs: minted.logs });
    const mintedEvent = mintEvents.find((e) => e.eventName === "Minted");
    expect(mintedEvent?.args).toEqual({
      minter: buyer.account.address,
      amount: 3n,
      startTokenId: 1n,
      endTokenId: 3n,
      batchId: 1n,
      pricePerPack: price,
    });
    const transfers = mintEvents.filter((e) => e.eventName === "Transfer");
    expect(transfers.map((e) => e.args)).toEqual(
      [1n, 2n, 3n].map((tokenId) => ({ from: zeroAddress, to: buyer.account.address, tokenId })),
    );
    const requested = mintEvents.find((e) => e.eventName === "RandomnessRequested");
    expect(requested?.args.batchId).toBe(1n);
    const requestId = requested?.args.requestId;
    expect(requestId).toBeDefined();
    expect(
      (
        await publicClient.readContract({
          address: drop,
          abi: boosterDropAbi,
          functionName: "packs",
          args: [1n],
        })
      )[1],
    ).toBe(0);

    const entropyProvider = contractAddress(t.deployment, "EntropyProvider");
    const [fulfilment] = await fulfilEntropy({ clients: t.clients, entropyProvider, seed: 7n });
    expect(fulfilment?.requestId).toBe(requestId);
    const fulfilReceipt = fulfilment!.receipt;
    const fulfilEvents = parseEventLogs({ abi: boosterDropAbi, logs: fulfilReceipt.logs });
    expect(fulfilEvents.find((e) => e.eventName === "RandomnessFulfilled")?.args).toEqual({
      batchId: 1n,
      randomNumber: fulfilment!.randomNumber,
    });
    const assigned = fulfilEvents.flatMap((e) => (e.eventName === "RarityAssigned" ? [e.args] : []));
    expect(assigned).toEqual(
      [1n, 2n, 3n].map((tokenId) => {
        const draw = deriveRarity(fulfilment!.randomNumber, tokenId);
        return {
          tokenId,
          batchId: 1n,
          rarity: draw.rarity,
          tokenSeed: draw.tokenSeed,
          randomValue: draw.randomValue,
        };
      }),
    );
    const providerEvents = parseEventLogs({ abi: entropyProviderAbi, logs: fulfilReceipt.logs });
    expect(providerEvents.map((e) => e.eventName)).toEqual(["EntropyFulfilled"]);
    expect(await fulfilEntropy({ clients: t.clients, entropyProvider })).toEqual([]);

    const opened = await waitForSuccess(
      publicClient,
      await buyer.writeContract({
        address: drop,
        abi: boosterDropAbi,
        functionName: "open",
        args: [[1n, 2n]],
      }),
    );
    expect(parseEventLogs({ abi: boosterDropAbi, logs: opened.logs, eventName: "Opened" })[0]?.args).toEqual({
      owner: buyer.account.address,
      tokenIds: [1n, 2n],
      batchId: 1n,
    });

    const rarity = assigned[0]!.rarity;
    const offer = defaultOffers(price)[rarity - 1]!;
    const balanceBefore = await publicClient.getBalance({ address: buyer.account.address });
    const soldBack = await waitForSuccess(
      publicClient,
      await buyer.writeContract({ address: drop, abi: boosterDropAbi, functionName: "sellBack", args: [1n] }),
    );
    const soldEvents = parseEventLogs({ abi: boosterDropAbi, logs: soldBack.logs });
    expect(soldEvents.map((e) => [e.eventName, e.args])).toEqual([
      ["Transfer", { from: buyer.account.address, to: zeroAddress, tokenId: 1n }],
      ["SoldBack", { owner: buyer.account.address, tokenId: 1n, rarity, offer }],
    ]);
    const gas = soldBack.gasUsed * soldBack.effectiveGasPrice;
    expect(await publicClient.getBalance({ address: buyer.account.address })).toBe(
      balanceBefore + offer - gas,
    );
    expect(
      await publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "totalSupply" }),
    ).toBe(2n);
  });

  it("refuses to open a pack whose rarity is pending, and to sell back an unopened pack", async () => {
    const { drop } = await readGame(t, 1n);
    const minted = await mint(drop, user + 1, 1n);
    const [event] = parseEventLogs({ abi: boosterDropAbi, logs: minted.logs, eventName: "Minted" });
    const tokenId = event!.args.startTokenId;
    const wallet = t.clients.wallet(user + 1);
    await expect(
      wallet.writeContract({ address: drop, abi: boosterDropAbi, functionName: "open", args: [[tokenId]] }),
    ).rejects.toThrow("Drop: rarity pending");
    await fulfilEntropy({
      clients: t.clients,
      entropyProvider: contractAddress(t.deployment, "EntropyProvider"),
    });
    await expect(
      wallet.writeContract({ address: drop, abi: boosterDropAbi, functionName: "sellBack", args: [tokenId] }),
    ).rejects.toThrow("Drop: not opened");
  });
});

describe("allowlisted mint", () => {
  it("accepts a StandardMerkleTree proof built offchain and rejects wrong ones", async () => {
    const { drop } = await readGame(t, 2n);
    const allowlist = devAllowlist(t.clients);
    const root = await t.clients.publicClient.readContract({
      address: drop,
      abi: boosterDropAbi,
      functionName: "merkleRoot",
    });
    expect(root).toBe(allowlist.root);

    const member = t.clients.accounts[user]!.address;
    const receipt = await mint(drop, user, 2n, allowlist.proofFor(member));
    expect(parseEventLogs({ abi: boosterDropAbi, logs: receipt.logs, eventName: "Minted" })).toHaveLength(1);

    const otherMember = t.clients.accounts[user + 1]!.address;
    await expect(mint(drop, user, 1n, allowlist.proofFor(otherMember))).rejects.toThrow(
      "Drop: not allowlisted",
    );
    await expect(mint(drop, outsider, 1n, [])).rejects.toThrow("Drop: not allowlisted");
    const foreignTree = buildAllowlist([t.clients.accounts[outsider]!.address, member]);
    await expect(
      mint(drop, outsider, 1n, foreignTree.proofFor(t.clients.accounts[outsider]!.address)),
    ).rejects.toThrow("Drop: not allowlisted");
  });

  it("lets the creator replace the root with a new offchain tree", async () => {
    const { drop } = await readGame(t, 2n);
    const creator = t.clients.wallet(DEV_ACCOUNT_ROLES.deployer);
    const outsiderAddress = t.clients.accounts[outsider]!.address;
    const next = buildAllowlist([outsiderAddress]);
    const receipt = await waitForSuccess(
      t.clients.publicClient,
      await creator.writeContract({
        address: drop,
        abi: boosterDropAbi,
        functionName: "setMerkleRoot",
        args: [next.root],
      }),
    );
    expect(
      parseEventLogs({ abi: boosterDropAbi, logs: receipt.logs, eventName: "MerkleRootUpdated" })[0]?.args,
    ).toEqual({
      merkleRoot: next.root,
    });
    // A single-leaf tree has an empty proof: the leaf itself is the root.
    expect(next.proofFor(outsiderAddress)).toEqual([]);
    await mint(drop, outsider, 1n, []);
  });
});

describe("game creation and bonding curve", () => {
  it("creates a game whose token follows the curve math and graduates at its threshold", async () => {
    const { publicClient } = t.clients;
    const creator = t.clients.wallet(user + 2);
    const factory = contractAddress(t.deployment, "DropFactory");
    const params = {
      nftName: "Test Booster",
      nftSymbol: "TBOX",
      tokenName: "Test",
      tokenSymbol: "TST",
      pricePerPack: parseEther("0.01"),
      merkleRoot: zeroHash,
      offers: defaultOffers(parseEther("0.01")),
      oddsBps: [6000, 2500, 1000, 400, 100] as const,
      virtualEth: parseEther("1"),
      virtualTokens: parseEther("1000000"),
      graduationEth: parseEther("0.5"),
      firstTokenId: 0n,
    };
    const created = await waitForSuccess(
      publicClient,
      await creator.writeContract({
        address: factory,
        abi: dropFactoryAbi,
        functionName: "createGame",
        args: [params],
      }),
    );
    const [gameCreated] = parseEventLogs({
      abi: dropFactoryAbi,
      logs: created.logs,
      eventName: "GameCreated",
    });
    expect(gameCreated?.args).toMatchObject({ gameId: 4n, creator: creator.account.address, params });
    const token = gameCreated!.args.token;
    expect(
      await publicClient.readContract({
        address: gameCreated!.args.drop,
        abi: boosterDropAbi,
        functionName: "token",
      }),
    ).toBe(token);

    let state = {
      virtualEth: params.virtualEth,
      virtualTokens: params.virtualTokens,
      ethReserve: 0n,
      tokensSold: 0n,
    };
    const ethIn = parseEther("0.2");
    const expectedOut = curveQuoteBuy(state, ethIn);
    expect(
      await publicClient.readContract({
        address: token,
        abi: boosterTokenAbi,
        functionName: "quoteBuy",
        args: [ethIn],
      }),
    ).toBe(expectedOut);
    const bought = await waitForSuccess(
      publicClient,
      await creator.writeContract({
        address: token,
        abi: boosterTokenAbi,
        functionName: "buy",
        args: [0n],
        value: ethIn,
      }),
    );
    state = { ...state, ethReserve: ethIn, tokensSold: expectedOut };
    expect(
      parseEventLogs({ abi: boosterTokenAbi, logs: bought.logs, eventName: "Purchase" })[0]?.args,
    ).toEqual({
      buyer: creator.account.address,
      ethIn,
      tokensOut: expectedOut,
      ethReserve: ethIn,
      tokensSold: expectedOut,
    });

    const tokensIn = expectedOut / 3n;
    const expectedEth = curveQuoteSell(state, tokensIn);
    const sold = await waitForSuccess(
      publicClient,
      await creator.writeContract({
        address: token,
        abi: boosterTokenAbi,
        functionName: "sell",
        args: [tokensIn, 0n],
      }),
    );
    state = { ...state, ethReserve: state.ethReserve - expectedEth, tokensSold: state.tokensSold - tokensIn };
    expect(
      parseEventLogs({ abi: boosterTokenAbi, logs: sold.logs, eventName: "Sale" })[0]?.args,
    ).toMatchObject({
      tokensIn,
      ethOut: expectedEth,
    });

    const crossing = parseEther("0.45");
    const tokensOut = curveQuoteBuy(state, crossing);
    state = { ...state, ethReserve: state.ethReserve + crossing, tokensSold: state.tokensSold + tokensOut };
    const graduating = await waitForSuccess(
      publicClient,
      await creator.writeContract({
        address: token,
        abi: boosterTokenAbi,
        functionName: "buy",
        args: [0n],
        value: crossing,
      }),
    );
    const [graduated] = parseEventLogs({
      abi: boosterTokenAbi,
      logs: graduating.logs,
      eventName: "Graduated",
    });
    expect(graduated?.args).toMatchObject({
      ethLiquidity: state.ethReserve,
      tokenLiquidity: graduationTokenLiquidity(state),
    });
    expect(await publicClient.getBalance({ address: graduated!.args.pool })).toBe(state.ethReserve);
    await expect(
      creator.writeContract({
        address: token,
        abi: boosterTokenAbi,
        functionName: "buy",
        args: [0n],
        value: 1n,
      }),
    ).rejects.toThrow("Token: graduated");
  });
});

/** Creates a game from `creatorIndex` with the given odds and first token id; returns its drop and id. */
async function createGame(
  creatorIndex: number,
  { oddsBps = DEFAULT_ODDS_BPS, firstTokenId = 0n }: { oddsBps?: RarityOdds; firstTokenId?: bigint } = {},
) {
  const pricePerPack = parseEther("0.001");
  const receipt = await waitForSuccess(
    t.clients.publicClient,
    await t.clients.wallet(creatorIndex).writeContract({
      address: contractAddress(t.deployment, "DropFactory"),
      abi: dropFactoryAbi,
      functionName: "createGame",
      args: [
        {
          nftName: "Odds Booster",
          nftSymbol: "ODDBOX",
          tokenName: "Odds",
          tokenSymbol: "ODD",
          pricePerPack,
          merkleRoot: zeroHash,
          offers: defaultOffers(pricePerPack),
          oddsBps,
          virtualEth: parseEther("1"),
          virtualTokens: parseEther("1000000"),
          graduationEth: 0n,
          firstTokenId,
        },
      ],
    }),
  );
  const [created] = parseEventLogs({ abi: dropFactoryAbi, logs: receipt.logs, eventName: "GameCreated" });
  return { drop: created!.args.drop, gameId: created!.args.gameId, params: created!.args.params };
}

/** Mints `amount` packs, answers the randomness and returns the RarityAssigned events and the random number. */
async function mintAndFulfil(drop: Address, amount: bigint) {
  const minted = await mint(drop, user, amount);
  const [event] = parseEventLogs({ abi: boosterDropAbi, logs: minted.logs, eventName: "Minted" });
  const fulfilled = await fulfilEntropy({
    clients: t.clients,
    entropyProvider: contractAddress(t.deployment, "EntropyProvider"),
  });
  const fulfilment = fulfilled.at(-1)!;
  const assigned = parseEventLogs({
    abi: boosterDropAbi,
    logs: fulfilment.receipt.logs,
    eventName: "RarityAssigned",
  }).filter((log) => log.address.toLowerCase() === drop.toLowerCase());
  return {
    minted: event!.args,
    randomNumber: fulfilment.randomNumber,
    assigned: assigned.map((e) => e.args),
  };
}

describe("rarity odds", () => {
  it("assigns rarities by the game's own odds, as deriveRarity computes them", async () => {
    const odds: RarityOdds = [1000, 1000, 1000, 1000, 6000];
    const { drop, params } = await createGame(user + 4, { oddsBps: odds });
    expect(params.oddsBps).toEqual(odds);
    expect(
      await t.clients.publicClient.readContract({
        address: drop,
        abi: boosterDropAbi,
        functionName: "oddsBps",
      }),
    ).toEqual(odds);
    const { minted, randomNumber, assigned } = await mintAndFulfil(drop, 20n);
    const expected = Array.from({ length: 20 }, (_, i) => {
      const tokenId = minted.startTokenId + BigInt(i);
      const draw = deriveRarity(randomNumber, tokenId, odds);
      return { tokenId, rarity: draw.rarity, tokenSeed: draw.tokenSeed, randomValue: draw.randomValue };
    });
    expect(assigned).toMatchObject(expected);
    // With 60% Mythic, 20 packs all drawn under the default odds (1% Mythic) would differ somewhere.
    expect(expected.map((e) => e.rarity)).not.toEqual(
      expected.map((e) => deriveRarity(randomNumber, e.tokenId).rarity),
    );
  });

  it("never draws a tier with 0 bps, and the contract's deriveRarity view agrees offchain", async () => {
    const odds: RarityOdds = [0, 0, 10000, 0, 0];
    const { drop } = await createGame(user + 4, { oddsBps: odds });
    const { assigned } = await mintAndFulfil(drop, 5n);
    expect(assigned.map((e) => e.rarity)).toEqual([3, 3, 3, 3, 3]);
    const skewed: RarityOdds = [2500, 0, 2500, 0, 5000];
    const { drop: skewedDrop } = await createGame(user + 4, { oddsBps: skewed });
    for (const [randomNumber, tokenId] of [
      [1n, 1n],
      [2n ** 255n + 17n, 99n],
      [123456789n, 2n ** 64n + 1n],
      [7n, 3n],
      [8n, 4n],
    ] as const) {
      const [tokenSeed, randomValue, rarity] = await t.clients.publicClient.readContract({
        address: skewedDrop,
        abi: boosterDropAbi,
        functionName: "deriveRarity",
        args: [randomNumber, tokenId],
      });
      expect({ tokenSeed, randomValue, rarity }).toEqual(deriveRarity(randomNumber, tokenId, skewed));
      expect([1, 3, 5]).toContain(rarity);
    }
  });

  it("refuses odds that do not sum to 10000", async () => {
    await expect(createGame(user + 4, { oddsBps: [6000, 2500, 1000, 400, 99] })).rejects.toThrow(
      "Factory: odds must sum to 10000",
    );
  });
});

describe("token and contract metadata URIs", () => {
  it("point under the factory's base URI, with the drop's lowercase address and the decimal id", async () => {
    const { publicClient } = t.clients;
    const { drop } = await readGame(t, 1n);
    const base = await publicClient.readContract({
      address: contractAddress(t.deployment, "DropFactory"),
      abi: dropFactoryAbi,
      functionName: "metadataBaseURI",
    });
    expect(base).toBe(DEFAULT_METADATA_BASE_URI);
    await mint(drop, user, 1n);
    const tokenId =
      (await publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "nextTokenId" })) -
      1n;
    expect(
      await publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "contractURI" }),
    ).toBe(`${DEFAULT_METADATA_BASE_URI}${drop.toLowerCase()}`);
    expect(
      await publicClient.readContract({
        address: drop,
        abi: boosterDropAbi,
        functionName: "tokenURI",
        args: [tokenId],
      }),
    ).toBe(`${DEFAULT_METADATA_BASE_URI}${drop.toLowerCase()}/${tokenId}`);
    await expect(
      publicClient.readContract({
        address: drop,
        abi: boosterDropAbi,
        functionName: "tokenURI",
        args: [10n ** 30n],
      }),
    ).rejects.toThrow("ERC721: nonexistent token");
    for (const [interfaceId, supported] of [
      ["0x01ffc9a7", true],
      ["0x80ac58cd", true],
      ["0x5b5e139f", true],
      ["0xffffffff", false],
    ] as const) {
      expect(
        await publicClient.readContract({
          address: drop,
          abi: boosterDropAbi,
          functionName: "supportsInterface",
          args: [interfaceId],
        }),
      ).toBe(supported);
    }
  });

  it("follow the base URI its owner sets, which no one else may change", async () => {
    const { publicClient } = t.clients;
    const factory = contractAddress(t.deployment, "DropFactory");
    const { drop } = await readGame(t, 1n);
    await expect(
      t.clients.wallet(user).writeContract({
        address: factory,
        abi: dropFactoryAbi,
        functionName: "setMetadataBaseURI",
        args: ["https://evil.example/"],
      }),
    ).rejects.toThrow("Factory: not owner");
    const next = "https://api.example.com/classic/metadata/";
    const receipt = await waitForSuccess(
      publicClient,
      await t.clients.wallet(DEV_ACCOUNT_ROLES.deployer).writeContract({
        address: factory,
        abi: dropFactoryAbi,
        functionName: "setMetadataBaseURI",
        args: [next],
      }),
    );
    expect(
      parseEventLogs({ abi: dropFactoryAbi, logs: receipt.logs, eventName: "MetadataBaseURIUpdated" }).map(
        (e) => e.args,
      ),
    ).toEqual([{ metadataBaseURI: next }]);
    expect(
      await publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "contractURI" }),
    ).toBe(`${next}${drop.toLowerCase()}`);
    await waitForSuccess(
      publicClient,
      await t.clients.wallet(DEV_ACCOUNT_ROLES.deployer).writeContract({
        address: factory,
        abi: dropFactoryAbi,
        functionName: "setMetadataBaseURI",
        args: [DEFAULT_METADATA_BASE_URI],
      }),
    );
  });
});

describe("pausing a drop", () => {
  it("lets only the creator pause and resume minting", async () => {
    const { publicClient } = t.clients;
    const { drop } = await createGame(user + 5);
    expect(
      await publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "active" }),
    ).toBe(true);
    await expect(
      t.clients.wallet(user).writeContract({
        address: drop,
        abi: boosterDropAbi,
        functionName: "setActive",
        args: [false],
      }),
    ).rejects.toThrow("Drop: not creator");
    const creator = t.clients.wallet(user + 5);
    const paused = await waitForSuccess(
      publicClient,
      await creator.writeContract({
        address: drop,
        abi: boosterDropAbi,
        functionName: "setActive",
        args: [false],
      }),
    );
    expect(
      parseEventLogs({ abi: boosterDropAbi, logs: paused.logs, eventName: "ActiveChanged" }).map(
        (e) => e.args,
      ),
    ).toEqual([{ active: false }]);
    expect(
      await publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "active" }),
    ).toBe(false);
    await expect(mint(drop, user, 1n)).rejects.toThrow("Drop: not active");
    await waitForSuccess(
      publicClient,
      await creator.writeContract({
        address: drop,
        abi: boosterDropAbi,
        functionName: "setActive",
        args: [true],
      }),
    );
    const minted = await mint(drop, user, 1n);
    expect(parseEventLogs({ abi: boosterDropAbi, logs: minted.logs, eventName: "Minted" })).toHaveLength(1);
  });
});

describe("pack ids past 2^64", () => {
  it("mints, assigns and names exact ids from the sample game's first token id", async () => {
    const { publicClient } = t.clients;
    const { drop } = await readGame(t, 3n);
    expect(
      await publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "firstTokenId" }),
    ).toBe(SAMPLE_BIG_FIRST_TOKEN_ID);
    const { minted, randomNumber, assigned } = await mintAndFulfil(drop, 3n);
    const ids = [0n, 1n, 2n].map((i) => SAMPLE_BIG_FIRST_TOKEN_ID + i);
    expect([minted.startTokenId, minted.endTokenId]).toEqual([ids[0], ids[2]]);
    expect(ids[0]!.toString()).toBe("18446744073709551617");
    const odds = await publicClient.readContract({
      address: drop,
      abi: boosterDropAbi,
      functionName: "oddsBps",
    });
    expect(assigned.map((e) => [e.tokenId, e.rarity])).toEqual(
      ids.map((tokenId) => [tokenId, deriveRarity(randomNumber, tokenId, odds).rarity]),
    );
    const batch = await publicClient.readContract({
      address: drop,
      abi: boosterDropAbi,
      functionName: "batches",
      args: [minted.batchId],
    });
    expect(batch[1]).toBe(ids[0]);
    expect(
      await publicClient.readContract({
        address: drop,
        abi: boosterDropAbi,
        functionName: "ownerOf",
        args: [ids[2]!],
      }),
    ).toBe(t.clients.accounts[user]!.address);
    expect(
      await publicClient.readContract({
        address: drop,
        abi: boosterDropAbi,
        functionName: "tokenURI",
        args: [ids[1]!],
      }),
    ).toBe(`${DEFAULT_METADATA_BASE_URI}${drop.toLowerCase()}/18446744073709551618`);
    expect(
      await publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "totalSupply" }),
    ).toBe(3n);
  });
});

describe("startEntropyFulfiller", () => {
  it("assigns rarities to packs minted while it runs, until stopped", async () => {
    const { drop } = await readGame(t, 1n);
    const { publicClient } = t.clients;
    const entropyProvider = contractAddress(t.deployment, "EntropyProvider");
    const fulfiller = startEntropyFulfiller({ clients: t.clients, entropyProvider, intervalMs: 5 });
    try {
      const minted = await mint(drop, user + 3, 2n);
      const [event] = parseEventLogs({ abi: boosterDropAbi, logs: minted.logs, eventName: "Minted" });
      // Interval mining is off here, so each new block is one of the fulfiller's transactions; it
      // answers older pending requests first.
      const batchFulfilled = async () => {
        const batch = await publicClient.readContract({
          address: drop,
          abi: boosterDropAbi,
          functionName: "batches",
          args: [event!.args.batchId],
        });
        return batch[3];
      };
      let fulfilled = false;
      for (let block = minted.blockNumber + 1n; !fulfilled && block <= minted.blockNumber + 5n; block++) {
        await waitForBlockNumber(publicClient, block);
        fulfilled = await batchFulfilled();
      }
      expect(fulfilled).toBe(true);
    } finally {
      await fulfiller.stop();
    }
    const pending = await publicClient.readContract({
      address: entropyProvider,
      abi: entropyProviderAbi,
      functionName: "oldestPending",
    });
    const count = await publicClient.readContract({
      address: entropyProvider,
      abi: entropyProviderAbi,
      functionName: "requestCount",
    });
    expect(pending).toBe(count + 1n);
  });
});
