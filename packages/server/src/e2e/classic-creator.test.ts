import {
  boosterDropAbi,
  dropFactoryAbi,
  liveBoosterDropAbi,
  liveDropCreatorAbi,
  waitForSuccess,
} from "@mkt/chain";
import { createMktClient, MktApiError } from "@mkt/client";
import { CLASSIC_ZERO_ROOT, type ClassicCardInput } from "@mkt/protocol";
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { getAddress, type Hex, type Log, parseEther, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testWallet } from "../_test/accounts.ts";
import { setupApp, type TestApp } from "../_test/app.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { CLASSIC_INDEXER_SOURCE } from "../classic/routes.ts";

const PUBLIC_URL = "https://api.mkt.test";
/** Dev accounts the simulator never uses here (it does not run): creator, allowlisted, not listed, rival. */
const CREATOR = 10;
const LISTED = 11;
const NOT_LISTED = 12;
const RIVAL = 13;
const HOUR = 3_600_000;

const cards = (names: string[]): ClassicCardInput[] =>
  names.map((name, index) => ({
    name,
    rarity: Math.min(index + 1, 5),
    startId: index + 1,
    endId: index + 1,
    description: `${name} card`,
    imageUrl: `https://img.example/${index + 1}.png`,
  }));

const expectApiError = async (promise: Promise<unknown>, status: number, code: string) => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(MktApiError);
  expect({ status: (error as MktApiError).status, code: (error as MktApiError).code }).toEqual({
    status,
    code,
  });
};

/**
 * The creator workflow end to end: a creator signs in
 * with the SDK, drafts a game, sets an allowlist, deploys through the drop
 * factory from the linked wallet with the draft's root, an allowlisted wallet
 * mints with our proof and another is refused by the contract, the creator
 * confirms, polls ready, and the game is read with the draft's cards; a
 * revision takes effect at its effectiveFrom; another creator gets 403.
 */
describe("Classic creator workflow end to end on the dev chain", () => {
  let chain: TestChain;
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;

  const publicClient = () => chain.clients.publicClient;
  const factory = () => chain.deployment.contracts["DropFactory"]!.address;
  const send = async (hash: Promise<Hex>) => waitForSuccess(publicClient(), await hash);
  const client = () => createMktClient({ baseUrl, apiKey, retry: { attempts: 1 } });

  const sync = async () => {
    const [counter] = t.app.services.revisions.counters([CLASSIC_INDEXER_SOURCE]);
    const before = counter!.value;
    for (const indexer of t.app.services.indexer!.indexers) await indexer.syncOnce();
    await vi.waitFor(() => expect(counter!.value).toBeGreaterThan(before), { interval: 5, timeout: 10_000 });
  };

  const deploy = (
    wallet: number,
    names: { nftName: string; nftSymbol: string; tokenName: string; tokenSymbol: string },
    merkleRoot: Hex,
  ) =>
    send(
      chain.clients.wallet(wallet).writeContract({
        address: factory(),
        abi: dropFactoryAbi,
        functionName: "createDropWithExtensions",
        args: [
          names.tokenName,
          names.tokenSymbol,
          names.nftName,
          names.nftSymbol,
          chain.clients.accounts[wallet]!.address,
          0n,
          {
            baseURI: `${PUBLIC_URL}/classic/metadata/`,
            tokensPerMint: parseEther("1000000"),
            commonOffer: 1n,
            rareOffer: 2n,
            epicOffer: 3n,
            legendaryOffer: 4n,
            mythicOffer: 5n,
          },
          {
            merkleRoot,
            oddsBps: [6000, 2500, 1000, 400, 100],
            firstTokenId: 0n,
            virtualEth: parseEther("1"),
            virtualTokens: parseEther("1000000000"),
            graduationEth: parseEther("10"),
          },
        ],
      }),
    );

  /** The drop a creation receipt created: the live `DropCreated` and our `DropConfigured`. */
  const createdDrop = (logs: Log[]) => {
    const [live] = parseEventLogs({ abi: liveDropCreatorAbi, logs, eventName: "DropCreated" });
    const [configured] = parseEventLogs({ abi: dropFactoryAbi, logs, eventName: "DropConfigured" });
    return {
      drop: live!.args.dropContract,
      token: live!.args.tokenContract,
      gameId: configured!.args.gameId,
    };
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

  it("drafts, gates, deploys, mints with our proof, confirms, reads, revises; a rival gets 403", async () => {
    const creatorWallet = testWallet(CREATOR);
    const creatorAddress = creatorWallet.address.toLowerCase();
    const listed = getAddress(testWallet(LISTED).address);
    const creator = client();
    const signedIn = await creator.classic.auth.signIn(creatorWallet);
    expect(signedIn.account.wallets).toEqual([creatorAddress]);
    const rival = client();
    await rival.classic.auth.signIn(testWallet(RIVAL));

    // 1. Draft, then an autosave.
    const names = {
      nftName: "Tin Robots Booster",
      nftSymbol: "TINBOX",
      tokenName: "Tin Robots",
      tokenSymbol: "TIN",
    };
    const created = await creator.classic.creator.poll({ revision: 1, creator: creatorAddress, ...names });
    const draftId = created.draft.draftId;
    const firstCards = cards(["Bolt", "Gear", "Spring", "Dynamo", "Core"]);
    const saved = await creator.classic.creator.poll({
      draftId,
      revision: 2,
      creator: creatorAddress,
      ...names,
      slug: "tin-robots",
      game: { description: "Robots of tin.", bgColor: "#334455" },
      cards: firstCards,
    });
    expect(saved.applied).toBe(true);

    // 2. Allowlist: the listed wallet and the creator; finalize.
    const allowlist = await creator.classic.creator.setWhitelist(draftId, true, [
      { address: listed, username: "listed" },
      { address: creatorAddress },
    ]);
    const expectedRoot = StandardMerkleTree.of([[listed], [getAddress(creatorAddress)]], ["address"]).root;
    expect(allowlist).toMatchObject({ merkleRoot: expectedRoot, entriesCount: 2, alreadyExists: false });
    expect((await creator.classic.creator.finalizeWhitelist(draftId)).merkleRoot).toBe(expectedRoot);

    // 3. Deploy from the linked wallet with the draft's root.
    const receipt = await deploy(CREATOR, names, allowlist.merkleRoot as Hex);
    const event = { args: createdDrop(receipt.logs) };
    const drop = event.args.drop.toLowerCase();

    // The allowlisted wallet mints with the proof from our route; a wallet not listed is refused by the drop.
    const proof = await client().classic.creator.proof(draftId, listed);
    expect(proof).toMatchObject({ allowlisted: true, merkleRoot: expectedRoot });
    const price = await publicClient().readContract({
      address: event.args.drop,
      abi: liveBoosterDropAbi,
      functionName: "getMintPrice",
      args: [1n],
    });
    const minted = await send(
      chain.clients.wallet(LISTED).writeContract({
        address: event.args.drop,
        abi: boosterDropAbi,
        functionName: "mintAllowlisted",
        args: [1n, proof.proof as Hex[]],
        value: price,
      }),
    );
    expect(
      parseEventLogs({ abi: liveBoosterDropAbi, logs: minted.logs, eventName: "BoosterDropsMinted" })[0]?.args
        .minter,
    ).toBe(listed);
    const outsider = getAddress(testWallet(NOT_LISTED).address);
    const outsiderProof = await client().classic.creator.proof(draftId, outsider);
    expect(outsiderProof).toMatchObject({ allowlisted: false, proof: [] });
    await expect(
      publicClient().simulateContract({
        account: outsider,
        address: event.args.drop,
        abi: boosterDropAbi,
        functionName: "mintAllowlisted",
        args: [1n, proof.proof as Hex[]],
        value: price,
      }),
    ).rejects.toThrow(/not allowlisted/);

    // 4. Confirm: the rival cannot; before indexing the metadata waits; a hash without a receipt is a 200.
    await expectApiError(rival.classic.creator.confirm(draftId, receipt.transactionHash), 403, "FORBIDDEN");
    const missing = await creator.classic.creator.confirm(draftId, `0x${"ab".repeat(32)}`);
    expect(missing).toMatchObject({ receiptFound: false, contractAddress: null, published: false });
    const confirmed = await creator.classic.creator.confirm(draftId, receipt.transactionHash);
    expect(confirmed).toMatchObject({
      receiptFound: true,
      contractAddress: drop,
      tokenAddress: event.args.token.toLowerCase(),
      gameId: event.args.gameId.toString(),
      merkleRoot: expectedRoot,
      published: false,
      version: null,
    });
    expect((await creator.classic.games.ready(drop)).ready).toBe(false);

    // 5. Indexed: ready publishes the confirmed metadata; the game reads with the draft's cards and slug.
    await sync();
    const ready = await creator.classic.creator.waitUntilReady(drop, { attempts: 3, sleep: async () => {} });
    expect(ready).toMatchObject({ ready: true, progress: 100, metadataSource: "user" });
    const again = await creator.classic.creator.confirm(draftId, receipt.transactionHash);
    expect(again).toMatchObject({ receiptFound: true, contractAddress: drop, published: true, version: 1 });
    await expectApiError(
      creator.classic.creator.confirm(draftId, minted.transactionHash),
      409,
      "DRAFT_CONFIRMED",
    );
    await expectApiError(creator.classic.creator.setWhitelist(draftId, false, []), 409, "DRAFT_CONFIRMED");

    const bySlug = await creator.classic.games.get("tin-robots");
    expect(bySlug.contractInfo).toMatchObject({
      dropContractAddress: drop,
      slug: "tin-robots",
      nftName: names.nftName,
      description: "Robots of tin.",
    });
    expect(
      bySlug.contractInfo.potentialCards.map((card) => [card.name, card.startId, card.rarityCode]),
    ).toEqual(firstCards.map((card) => [card.name, card.startId, card.rarity]));
    const listedGames = await creator.classic.games.list({ limit: 100 });
    expect(listedGames.games.find((game) => game.dropContractAddress === drop)?.slug).toBe("tin-robots");

    // 6. A revision from an hour ahead; the read at a time picks the revision in effect then.
    const now = Date.now();
    const later = cards(["Bolt II", "Gear II", "Spring II", "Dynamo II", "Core II", "Crown"]);
    const revision = await creator.classic.creator.revise(drop, {
      game: { description: "Robots, revised." },
      cards: later,
      effectiveFrom: new Date(now + HOUR).toISOString(),
      version: 2,
    });
    expect(revision).toMatchObject({ version: 2, contractAddress: drop, effectiveUntil: null });
    await expectApiError(
      creator.classic.creator.revise(drop, {
        game: {},
        cards: later,
        effectiveFrom: new Date(now + 2 * HOUR).toISOString(),
        version: 2,
      }),
      409,
      "VERSION_CONFLICT",
    );
    // A bounded revision: in effect in [3h, 4h), then version 2 again.
    await creator.classic.creator.revise(drop, {
      game: {},
      cards: cards(["Promo A", "Promo B", "Promo C", "Promo D", "Promo E"]),
      effectiveFrom: new Date(now + 3 * HOUR).toISOString(),
      effectiveUntil: new Date(now + 4 * HOUR).toISOString(),
      version: 3,
    });
    const namesAt = async (at: number) =>
      (await creator.classic.metadata.cards(drop, { at: new Date(at).toISOString() })).cards.map(
        (card) => card.name,
      );
    expect(await namesAt(now + 1_000)).toEqual(firstCards.map((card) => card.name));
    expect(await namesAt(now + HOUR + 1_000)).toEqual(later.map((card) => card.name));
    expect(await namesAt(now + 3.5 * HOUR)).toEqual(["Promo A", "Promo B", "Promo C", "Promo D", "Promo E"]);
    expect(await namesAt(now + 4.5 * HOUR)).toEqual(later.map((card) => card.name));

    // 7. The rival: 403 on the draft and on a revision of the game.
    await expectApiError(rival.classic.creator.get(draftId), 403, "FORBIDDEN");
    await expectApiError(rival.classic.creator.revise(drop, { game: {}, cards: later }), 403, "FORBIDDEN");
  }, 120_000);

  it("refuses a deployment with another root, one not made by the factory, and a rival's deployment", async () => {
    const creatorWallet = testWallet(CREATOR);
    const creator = client();
    await creator.classic.auth.signIn(creatorWallet);
    const names = {
      nftName: "Paper Boats Booster",
      nftSymbol: "BOATBOX",
      tokenName: "Paper Boats",
      tokenSymbol: "BOAT",
    };
    const { draft } = await creator.classic.creator.poll({
      revision: 1,
      creator: creatorWallet.address.toLowerCase(),
      ...names,
      cards: cards(["One", "Two", "Three", "Four", "Five"]),
    });
    await creator.classic.creator.setWhitelist(draft.draftId, true, [
      { address: testWallet(LISTED).address },
    ]);
    const ungated = await deploy(CREATOR, names, CLASSIC_ZERO_ROOT as Hex);
    await expectApiError(
      creator.classic.creator.confirm(draft.draftId, ungated.transactionHash),
      409,
      "MERKLE_ROOT_MISMATCH",
    );
    const transfer = await send(
      chain.clients.wallet(CREATOR).sendTransaction({ to: testWallet(NOT_LISTED).address, value: 1n }),
    );
    await expectApiError(
      creator.classic.creator.confirm(draft.draftId, transfer.transactionHash),
      409,
      "NOT_A_GAME_DEPLOYMENT",
    );
    const rivals = await deploy(RIVAL, names, CLASSIC_ZERO_ROOT as Hex);
    await expectApiError(
      creator.classic.creator.confirm(draft.draftId, rivals.transactionHash),
      403,
      "FORBIDDEN",
    );
    // Nothing was attached: the draft is still a draft.
    expect((await creator.classic.creator.get(draft.draftId)).status).toBe("draft");
  }, 60_000);
});
