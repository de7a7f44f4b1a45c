import { type Repeating, startEntropyFulfiller, waitForSuccess } from "@mkt/chain";
import type {
  ClassicGamesPage,
  ClassicHoldings,
  ClassicOwnerPage,
  ClassicRangePage,
  ClassicTokenMetadata,
} from "@mkt/protocol";
import { type Address, createWalletClient, type Hex, http, parseAbi, parseEther, parseEventLogs } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { CLASSIC_INDEXER_SOURCE } from "../classic/routes.ts";

/**
 * A client written for the live Classic contracts, run against the dev chain and mkt: it knows
 * only the ABI fragments of the live contracts' public interfaces (copied below from the facts
 * about them, not taken from our compiled ABIs), creates a drop with `createDropWithConfig`, buys
 * a pack with `mint(1)` at `getMintPrice(1)`, opens it paying `getEntropyFee()`, waits for its
 * rarity, and sells it with `sellAndClaimOffer`; after each step the Classic API shows that step.
 */

const creationAbi = parseAbi([
  "function createDropWithConfig(string tokenName, string tokenSymbol, string nftName, string nftSymbol, address owner, uint256 packAmount, (string baseURI, uint256 tokensPerMint, uint256 commonOffer, uint256 rareOffer, uint256 epicOffer, uint256 legendaryOffer, uint256 mythicOffer) config) payable returns (address tokenContract, address dropContract)",
  "event DropCreated(address indexed creator, address indexed dropContract, address indexed tokenContract, string nftName, string nftSymbol, string tokenName, string tokenSymbol)",
]);
const dropAbi = parseAbi([
  "function mint(uint256 amount) payable",
  "function open(uint256[] tokenIds) payable",
  "function sellAndClaimOffer(uint256 tokenId)",
  "function getMintPrice(uint256 amount) view returns (uint256)",
  "function getEntropyFee() view returns (uint256)",
  "function getTokenRarity(uint256 tokenId) view returns (uint8 rarity, uint256 randomValue, bytes32 tokenSpecificRandomness)",
  "function boosterTokenAddress() view returns (address)",
  "function COMMON_OFFER() view returns (uint256)",
  "function RARE_OFFER() view returns (uint256)",
  "function EPIC_OFFER() view returns (uint256)",
  "function LEGENDARY_OFFER() view returns (uint256)",
  "function MYTHIC_OFFER() view returns (uint256)",
  "event BoosterDropsMinted(address indexed minter, uint256 amount, uint256 startTokenId, uint256 endTokenId)",
  "event BoosterDropOpened(address indexed from, uint256[] tokenIds, uint256 batchId)",
  "event BoosterDropSold(address indexed burner, uint256 tokenId, uint8 rarity, uint256 offerAmount)",
]);
const tokenAbi = parseAbi(["function balanceOf(address owner) view returns (uint256)"]);

const OFFER_VIEWS = ["COMMON_OFFER", "RARE_OFFER", "EPIC_OFFER", "LEGENDARY_OFFER", "MYTHIC_OFFER"] as const;
const RARITY_NAMES = ["NOT_ASSIGNED", "Common", "Rare", "Epic", "Legendary", "Mythic"];
const PUBLIC_URL = "https://api.mkt.test";

describe("a live-contract client's flow on the dev chain, seen through the Classic API", () => {
  let chain: TestChain;
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;
  let fulfiller: Repeating;
  const creator = privateKeyToAccount(generatePrivateKey());
  const collector = privateKeyToAccount(generatePrivateKey());

  const publicClient = () => chain.clients.publicClient;
  const walletOf = (account: typeof creator) =>
    createWalletClient({
      account,
      chain: chain.clients.chain,
      transport: http(chain.clients.chain.rpcUrls.default.http[0]),
    });
  const mined = async (hash: Promise<Hex>) => waitForSuccess(publicClient(), await hash);

  /** Indexes to the chain's head and waits until the read cache has seen the commit. */
  const sync = async () => {
    const [counter] = t.app.services.revisions.counters([CLASSIC_INDEXER_SOURCE]);
    const before = counter!.value;
    for (const indexer of t.app.services.indexer!.indexers) await indexer.syncOnce();
    await vi.waitFor(() => expect(counter!.value).toBeGreaterThan(before), { interval: 5, timeout: 10_000 });
  };
  const ok = async <T>(path: string, key = true): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`, { headers: key ? { "api-key": apiKey } : {} });
    const text = await response.text();
    expect(response.status, `${path}: ${text.slice(0, 300)}`).toBe(200);
    return JSON.parse(text) as T;
  };

  beforeAll(async () => {
    chain = await setupDevChain(8453, { metadataBaseUrl: `${PUBLIC_URL}/classic/metadata/` });
    for (const account of [creator, collector])
      await publicClient().request({
        method: "hardhat_setBalance" as never,
        params: [account.address, `0x${parseEther("100").toString(16)}`] as never,
      });
    // The entropy service's part: pending randomness is answered a little later, as on Base.
    fulfiller = startEntropyFulfiller({
      clients: chain.clients,
      entropyProvider: chain.deployment.contracts["EntropyProvider"]!.address,
      intervalMs: 100,
    });
    t = await setupApp({ deployments: [chain.deployment] });
    ({ publicUrl: baseUrl } = await t.app.listen());
    apiKey = (await t.createKey({ multiplier: 100 })).key;
  }, 120_000);

  afterAll(async () => {
    await fulfiller?.stop();
    await t?.close();
    await chain?.close();
  });

  let drop: Address;
  let token: Address;
  let slug: string;
  let packId: bigint;
  let openTx: Hex;

  it("creates a drop with createDropWithConfig: it is listed with the creator's packs", async () => {
    const offers = [10_000n, 115_000n, 400_000n, 4_000_000n, 20_000_000n].map((n) => n * 10n ** 18n);
    const created = await mined(
      walletOf(creator).writeContract({
        address: chain.deployment.contracts["DropFactory"]!.address,
        abi: creationAbi,
        functionName: "createDropWithConfig",
        args: [
          "Flow Tickets",
          "FLOW",
          "Flow Robots",
          "FLOWBOX",
          creator.address,
          2n,
          {
            baseURI: `${PUBLIC_URL}/classic/metadata/flow-robots/`,
            tokensPerMint: 100_000n * 10n ** 18n,
            commonOffer: offers[0]!,
            rareOffer: offers[1]!,
            epicOffer: offers[2]!,
            legendaryOffer: offers[3]!,
            mythicOffer: offers[4]!,
          },
        ],
        // More than two packs cost: the creation contract refunds the rest.
        value: parseEther("1"),
      }),
    );
    const [event] = parseEventLogs({ abi: creationAbi, logs: created.logs, eventName: "DropCreated" });
    drop = event!.args.dropContract;
    token = event!.args.tokenContract;
    expect(
      await publicClient().readContract({ address: drop, abi: dropAbi, functionName: "boosterTokenAddress" }),
    ).toBe(token);
    const [minted] = parseEventLogs({ abi: dropAbi, logs: created.logs, eventName: "BoosterDropsMinted" });
    expect(minted!.args.amount).toBe(2n);
    await sync();

    const games = await ok<ClassicGamesPage>("/classic/games?limit=100");
    const game = games.games.find((entry) => entry.dropContractAddress === drop.toLowerCase());
    expect(game).toMatchObject({
      tokenAddress: token.toLowerCase(),
      nftName: "Flow Robots",
      tokenName: "Flow Tickets",
      ownerAddress: creator.address.toLowerCase(),
      pricePerPack: (
        await publicClient().readContract({
          address: drop,
          abi: dropAbi,
          functionName: "getMintPrice",
          args: [1n],
        })
      ).toString(),
    });
    slug = game!.slug;
    const held = await ok<ClassicOwnerPage>(`/classic/owner/${creator.address}?chainId=8453`);
    expect(
      held.boosterBoxes.map((pack) => [pack.tokenIdString ?? String(pack.tokenId), pack.status]),
    ).toEqual(
      [minted!.args.startTokenId, minted!.args.endTokenId].map((id) => [id.toString(), "minted"]).reverse(),
    );
  });

  it("buys a pack with mint(1) paying getMintPrice(1): the API shows it minted at that price", async () => {
    const price = await publicClient().readContract({
      address: drop,
      abi: dropAbi,
      functionName: "getMintPrice",
      args: [1n],
    });
    const receipt = await mined(
      walletOf(collector).writeContract({
        address: drop,
        abi: dropAbi,
        functionName: "mint",
        args: [1n],
        value: price,
      }),
    );
    const [minted] = parseEventLogs({ abi: dropAbi, logs: receipt.logs, eventName: "BoosterDropsMinted" });
    packId = minted!.args.startTokenId;
    expect(minted!.args).toMatchObject({ amount: 1n, endTokenId: packId });
    await sync();

    const page = await ok<ClassicOwnerPage>(`/classic/owner/${collector.address}?chainId=8453`);
    expect(page.boosterBoxes).toHaveLength(1);
    expect(page.boosterBoxes[0]).toMatchObject({
      tokenIdString: packId.toString(),
      owner: collector.address.toLowerCase(),
      status: "minted",
      rarity: 0,
      rarityName: "NOT_ASSIGNED",
      acquiredAtPackPrice: price.toString(),
      mintTxHash: receipt.transactionHash,
    });
  });

  it("opens it with open([id]) paying getEntropyFee(), waits for its rarity, and reads the card", async () => {
    const fee = await publicClient().readContract({
      address: drop,
      abi: dropAbi,
      functionName: "getEntropyFee",
    });
    expect(fee).toBeGreaterThan(0n);
    const receipt = await mined(
      walletOf(collector).writeContract({
        address: drop,
        abi: dropAbi,
        functionName: "open",
        args: [[packId]],
        value: fee,
      }),
    );
    openTx = receipt.transactionHash;
    const [opened] = parseEventLogs({ abi: dropAbi, logs: receipt.logs, eventName: "BoosterDropOpened" });
    expect(opened!.args.tokenIds).toEqual([packId]);

    // The rarity arrives in a later transaction, the entropy service's callback.
    const [rarity, randomValue] = await vi.waitFor(
      async () => {
        const read = await publicClient().readContract({
          address: drop,
          abi: dropAbi,
          functionName: "getTokenRarity",
          args: [packId],
        });
        expect(read[0]).toBeGreaterThan(0);
        return read;
      },
      { timeout: 30_000, interval: 100 },
    );
    await sync();

    const page = await ok<ClassicOwnerPage>(`/classic/owner/${collector.address}?chainId=8453`);
    expect(page.boosterBoxes[0]).toMatchObject({
      tokenIdString: packId.toString(),
      status: "rarity_assigned",
      rarity,
      rarityName: RARITY_NAMES[rarity],
      randomValue: randomValue.toString(),
    });
    const [holding] = (
      await ok<ClassicHoldings>(
        `/classic/collection/${collector.address}?contractAddress=${drop}&chainId=8453`,
      )
    ).boxes;
    expect(holding).toMatchObject({ status: "rarity_assigned", rarity, openedTxHash: openTx });
    // The callback's transaction, a later one than the opening.
    expect(holding!.rarityAssignedTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(holding!.rarityAssignedTxHash).not.toBe(openTx);
    const metadata = await ok<ClassicTokenMetadata>(`/classic/metadata/${slug}/${packId}`, false);
    const trait = (name: string) => metadata.attributes.find((entry) => entry.trait_type === name)?.value;
    expect(trait("Rarity")).toBe(RARITY_NAMES[rarity]);
    expect(trait("Status")).toBe("rarity_assigned");
    expect(metadata.name).toMatch(new RegExp(` #${packId}$`));
    // The rarity by the open transaction, as the live clients ask for it.
    const byTx = await ok<{ rarity: number; tokenId: number | string }>(
      `/classic/rarity?transactionHash=${openTx}&contractAddress=${drop}`,
    );
    expect(byTx.rarity).toBe(rarity);
  });

  it("sells it with sellAndClaimOffer(id): the offer is minted in the drop's token and the pack reads burned", async () => {
    const [rarity] = await publicClient().readContract({
      address: drop,
      abi: dropAbi,
      functionName: "getTokenRarity",
      args: [packId],
    });
    const offer = await publicClient().readContract({
      address: drop,
      abi: dropAbi,
      functionName: OFFER_VIEWS[rarity - 1]!,
    });
    const balance = () =>
      publicClient().readContract({
        address: token,
        abi: tokenAbi,
        functionName: "balanceOf",
        args: [collector.address],
      });
    const before = await balance();
    const receipt = await mined(
      walletOf(collector).writeContract({
        address: drop,
        abi: dropAbi,
        functionName: "sellAndClaimOffer",
        args: [packId],
      }),
    );
    const [sold] = parseEventLogs({ abi: dropAbi, logs: receipt.logs, eventName: "BoosterDropSold" });
    expect(sold!.args).toMatchObject({ tokenId: packId, rarity, offerAmount: offer });
    expect((await balance()) - before).toBe(offer);
    await sync();

    const range = await ok<ClassicRangePage>(
      `/classic/range?contractAddress=${drop}&tokenIds=${packId}&chainId=8453`,
    );
    expect(range.boosterBoxes).toHaveLength(1);
    expect(range.boosterBoxes[0]).toMatchObject({
      status: "burned",
      rarity,
      tokenIdString: packId.toString(),
    });
    const [holding] = (
      await ok<ClassicHoldings>(
        `/classic/collection/${collector.address}?contractAddress=${drop}&chainId=8453`,
      )
    ).boxes;
    expect(holding).toMatchObject({
      status: "burned",
      rewardAmount: offer.toString(),
      burnTxHash: receipt.transactionHash,
    });
    // Every pack the address ever held, with the sold one burned.
    const page = await ok<ClassicOwnerPage>(`/classic/owner/${collector.address}?chainId=8453`);
    expect(page.boosterBoxes.map((pack) => pack.status)).toEqual(["burned"]);
  });
});
