import { dropFactoryAbi, liveDropCreatorAbi, waitForSuccess } from "@mkt/chain";
import { createMktClient } from "@mkt/client";
import { type Address, type Hex, parseEther, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testWallet } from "../_test/accounts.ts";
import { setupApp, type TestApp } from "../_test/app.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { CLASSIC_INDEXER_SOURCE } from "../classic/routes.ts";

const PUBLIC_URL = "https://api.mkt.test";
/** Dev accounts the simulator never uses here (it does not run): the creator and a second one. */
const CREATOR = 14;
const OTHER = 15;

/**
 * The creator workflow as a client written for the live Classic service runs
 * it, with only its base URLs changed (`/vibe/boosterbox` -> `/classic`,
 * `/vibe/auth` -> `/classic/auth`): live sign-in, generate-slug, the live
 * draft body, a deployment through the drop factory with the draft's
 * `createGame`, confirm with both headers, ready, and the game by its slug.
 */
describe("Classic creator workflow through the live-compatible routes on the dev chain", () => {
  let chain: TestChain;
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;

  const publicClient = () => chain.clients.publicClient;

  const sync = async () => {
    const [counter] = t.app.services.revisions.counters([CLASSIC_INDEXER_SOURCE]);
    const before = counter!.value;
    for (const indexer of t.app.services.indexer!.indexers) await indexer.syncOnce();
    await vi.waitFor(() => expect(counter!.value).toBeGreaterThan(before), { interval: 5, timeout: 10_000 });
  };

  /** A live client's HTTP call: JSON, the key (lowercase header, as some live clients send it), the bearer when given. */
  const live = async (
    method: "GET" | "POST",
    path: string,
    { body, bearer }: { body?: unknown; bearer?: string } = {},
  ) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        "api-key": apiKey,
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: a live client reads untyped JSON; the assertions check every field used
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  beforeAll(async () => {
    chain = await setupDevChain(8453, { metadataBaseUrl: `${PUBLIC_URL}/classic/metadata/` });
    t = await setupApp({ deployments: [chain.deployment] });
    ({ publicUrl: baseUrl } = await t.app.listen());
    apiKey = (await t.createKey({ multiplier: 1000 })).key;
    await sync();
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  it("signs in, drafts, deploys, confirms and reads the game by its slug", async () => {
    const wallet = testWallet(CREATOR);
    const address = wallet.address.toLowerCase();

    // Live sign-in: the message for the address, personal_sign, verify.
    const challenge = await live("GET", `/classic/auth/message/${wallet.address}`);
    expect(challenge.status).toBe(200);
    expect(challenge.body.message.split("\n")).toEqual([
      `Sign in to the mkt Classic API as wallet ${address} on chain 8453.`,
      `Nonce: ${challenge.body.nonce}`,
      `Expires: ${challenge.body.expiresAt}`,
    ]);
    const verified = await live("POST", "/classic/auth/verify-signature", {
      body: {
        address: wallet.address,
        signature: await wallet.signMessage({ message: challenge.body.message }),
      },
    });
    expect(verified.status).toBe(200);
    const token = verified.body.accessToken as string;
    expect(verified.body).toMatchObject({ success: true, address, user: { primaryAddress: address } });

    // The slug, then the live draft body.
    const slug = await live("POST", "/classic/generate-slug", {
      body: { packName: "Live Robots" },
      bearer: token,
    });
    expect(slug).toEqual({ status: 200, body: { success: true, slug: "live-robots" } });
    const items = ["Bolt", "Gear", "Spring", "Dynamo", "Core"].map((name, index) => ({
      name,
      description: `${name} card`,
      imageUrl: `https://img.example/${index + 1}.png`,
      rarity: ["Common", "Rare", "Epic", "Legendary", "Mythic"][index],
      tokenId: index + 1,
    }));
    const drafted = await live("POST", "/classic/metadata/draft", {
      bearer: token,
      body: {
        creator: address,
        owner: address,
        name: "Live Robots",
        symbol: "LIVE",
        description: "Robots, live.",
        slug: slug.body.slug,
        featuredImageUrl: "https://img.example/featured.png",
        metadataItems: items,
        bgColor: "#112233",
        disableFoil: false,
        disableWear: false,
        isNSFW: false,
        twitterLink: "https://x.com/liverobots",
        websiteLink: "",
        packAmount: 1,
      },
    });
    expect(drafted.status).toBe(200);
    const { draftId, createGame } = drafted.body;
    expect(draftId).toMatch(/^[0-9a-f]{24}$/);
    expect(createGame).toEqual({
      chainId: 8453,
      factory: chain.deployment.contracts["DropFactory"]!.address.toLowerCase(),
      nftName: "Live Robots",
      nftSymbol: "LIVE",
      tokenName: "Live Robots Tickets",
      tokenSymbol: "LIVET",
      merkleRoot: `0x${"0".repeat(64)}`,
      oddsBps: [6653, 2400, 900, 45, 2],
    });

    // Deploy with what the draft said, from the creator wallet.
    const hash = await chain.clients.wallet(CREATOR).writeContract({
      address: createGame.factory as Address,
      abi: dropFactoryAbi,
      functionName: "createDropWithExtensions",
      args: [
        createGame.tokenName,
        createGame.tokenSymbol,
        createGame.nftName,
        createGame.nftSymbol,
        chain.clients.accounts[CREATOR]!.address,
        0n,
        {
          baseURI: `${PUBLIC_URL}/classic/metadata/live-robots/`,
          tokensPerMint: parseEther("1000000"),
          commonOffer: 1n,
          rareOffer: 2n,
          epicOffer: 3n,
          legendaryOffer: 4n,
          mythicOffer: 5n,
        },
        {
          merkleRoot: createGame.merkleRoot as Hex,
          oddsBps: createGame.oddsBps as unknown as readonly [number, number, number, number, number],
          firstTokenId: 0n,
          virtualEth: parseEther("1"),
          virtualTokens: parseEther("1000000000"),
          graduationEth: parseEther("10"),
        },
      ],
    });
    const receipt = await waitForSuccess(publicClient(), hash);
    const [event] = parseEventLogs({ abi: liveDropCreatorAbi, logs: receipt.logs, eventName: "DropCreated" });
    const drop = event!.args.dropContract.toLowerCase();

    // Confirm with both headers (the live client sends API-KEY and the bearer): 2xx, success and message.
    const confirmed = await live("POST", "/classic/metadata/confirm", {
      bearer: token,
      body: { draftId, txHash: receipt.transactionHash },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({
      success: true,
      receiptFound: true,
      contractAddress: drop,
      published: false,
    });
    expect(typeof confirmed.body.message).toBe("string");
    const pending = await live("GET", `/classic/contractAddress/${drop}/ready?chainId=8453`);
    expect(pending.body).toMatchObject({ success: true, ready: false });
    expect([0, 50]).toContain(pending.body.progress);

    // Indexed: ready publishes the metadata; the game reads by its slug with the live draft's cards.
    await sync();
    const ready = await live("GET", `/classic/contractAddress/${drop}/ready?chainId=8453`);
    expect(ready).toEqual({
      status: 200,
      body: { success: true, ready: true, progress: 100, status: "ready", metadataSource: "user" },
    });
    const game = await live("GET", "/classic/contractAddress/live-robots?chainId=8453");
    expect(game.status).toBe(200);
    expect(game.body.contractInfo).toMatchObject({
      dropContractAddress: drop,
      slug: "live-robots",
      nftName: "Live Robots",
      nftSymbol: "LIVE",
      description: "Robots, live.",
      imageUrl: "https://img.example/featured.png",
      ownerAddress: address,
    });
    expect(
      game.body.contractInfo.potentialCards.map((card: { name: string; rarityCode: number }) => [
        card.name,
        card.rarityCode,
      ]),
    ).toEqual(items.map((item, index) => [item.name, index + 1]));

    // The slug is taken now: generate-slug moves on.
    const next = await live("POST", "/classic/generate-slug", {
      body: { packName: "Live Robots" },
      bearer: token,
    });
    expect(next.body.slug).toBe("live-robots-v2");
  }, 120_000);

  it("signs in and drafts through the SDK's live-compatible calls", async () => {
    const client = createMktClient({ baseUrl, apiKey, retry: { attempts: 1 } });
    const wallet = testWallet(OTHER);
    const signedIn = await client.classic.auth.signInWithChallenge(wallet);
    expect(signedIn).toMatchObject({
      address: wallet.address.toLowerCase(),
      userId: signedIn.account.id,
      user: { id: signedIn.account.id, wallets: [wallet.address.toLowerCase()] },
    });
    expect(signedIn.expiresAt).toBeGreaterThan(Date.now());
    expect((await client.classic.auth.session()).account.id).toBe(signedIn.userId);
    const slug = await client.classic.creator.generateSlug("Live Robots");
    expect(slug).toBe("live-robots-v2");
    const draft = await client.classic.creator.createLiveDraft({
      creator: wallet.address,
      name: "Other Robots",
      symbol: "OTHER",
      slug,
      metadataItems: [{ name: "Bolt", rarity: "Common", tokenId: 1 }],
    });
    expect(draft.drafts).toEqual([
      {
        cardId: 1,
        tokenId: "1",
        name: "Bolt",
        description: "",
        imageUrl: null,
        rarity: "Common",
        rarityCode: 1,
      },
    ]);
    expect((await client.classic.creator.get(draft.draftId)).slug).toBe("live-robots-v2");
  }, 60_000);
});
