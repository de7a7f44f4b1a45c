import {
  boosterDropAbi,
  DEFAULT_ODDS_BPS,
  defaultOffers,
  dropFactoryAbi,
  liveDropCreatorAbi,
} from "@mkt/chain";
import type { ClassicDraftSummary } from "@mkt/protocol";
import { type Address, type Hex, parseEther, parseEventLogs } from "viem";
import { letters } from "./classic-metadata.ts";
import {
  DEMO_CLASSIC_GAME,
  type DemoClassicActivityReport,
  demoGameContent,
  HOUR,
  MINTED_PACKS,
  TOKENS_PER_MINT,
} from "./classic-scenario.ts";
import { type Actor, as, type DemoChain, errorCode, short } from "./classic-wallets.ts";

/** What the demo has made so far: its game once confirmed and ready (or adopted), and whether it is revised. */
export interface DemoClassicState {
  game: { address: string; slug: string; draftId: string } | undefined;
  revised: boolean;
}

/**
 * The creator side of the classic demo: find or make the demo game through
 * the drafts API and the drop factory, wait until it is ready, and publish
 * its revision. Writes what it made into `state`.
 */
export function createDemoCreatorFlow({
  state,
  actors,
  chain,
  factory,
  chainId,
  publicUrl,
  now,
  sleep,
}: {
  state: DemoClassicState;
  /** Creator, allowlisted minter, then more chatters. */
  actors: Actor[];
  chain: DemoChain;
  /** The DropFactory's address. */
  factory: string;
  chainId: number;
  publicUrl: string;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}) {
  const creator = actors[0] as Actor;
  const minter = actors[1] as Actor;
  const { publicClient, walletClient, send, fund } = chain;
  const { cards, gameMetadata } = demoGameContent({ publicUrl, chainId, creator: short(creator) });

  /** Every demo draft of the creator's account, newest first. */
  async function demoDrafts(): Promise<ClassicDraftSummary[]> {
    const found: ClassicDraftSummary[] = [];
    for (let page = 1; ; page++) {
      const answer = await as(creator, (client) => client.classic.creator.list({ page, limit: 50 }));
      found.push(...answer.drafts.filter((draft) => draft.nftName === DEMO_CLASSIC_GAME.nftName));
      if (page >= answer.pagination.totalPages) break;
    }
    return found.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /** A confirmed demo draft whose game this chain has, made by the creator wallet. */
  async function adoptable(drafts: ClassicDraftSummary[]) {
    for (const draft of drafts) {
      const address = draft.deployment?.contractAddress;
      if (!address) continue;
      const onChain = await publicClient.getCode({ address: address as Address }).catch(() => undefined);
      if (!onChain || onChain === "0x") continue;
      const deployedBy = await publicClient
        .readContract({ address: address as Address, abi: boosterDropAbi, functionName: "creator" })
        .catch(() => undefined);
      if (deployedBy?.toLowerCase() === short(creator)) return { draft, address };
    }
    return undefined;
  }

  async function waitUntilReady(address: string) {
    const ready = await creator.client.classic.creator.waitUntilReady(address, {
      attempts: 40,
      baseDelayMs: 250,
      maxDelayMs: 5_000,
      sleep,
    });
    if (!ready.ready) throw new Error(`demo game ${address} is not ready (progress ${ready.progress})`);
    return ready;
  }

  /** Drafts, gates, deploys, confirms and mints the demo game; the drafts decide what is left to do. */
  async function createGame(drafts: ClassicDraftSummary[]): Promise<DemoClassicActivityReport[]> {
    const reports: DemoClassicActivityReport[] = [];
    const generation = drafts.filter((draft) => draft.status === "confirmed").length;
    // A dev chain restarted under a kept database has lost the earlier demo game; its slug stays taken.
    const slug =
      generation === 0 ? DEMO_CLASSIC_GAME.slug : `${DEMO_CLASSIC_GAME.slug}-${letters(BigInt(generation))}`;
    const { slug: _, ...names } = DEMO_CLASSIC_GAME;
    const creatorAddress = short(creator);
    // An unconfirmed demo draft (a start stopped before confirming) is taken up again.
    const draft =
      drafts.find((candidate) => candidate.status === "draft") ??
      (
        await as(creator, (client) =>
          client.classic.creator.poll({ revision: 1, creator: creatorAddress, ...names }),
        )
      ).draft;
    const { draftId } = draft;
    // The autosave with the whole content: description, slug and cards.
    await as(creator, (client) =>
      client.classic.creator.poll({
        draftId,
        revision: draft.revision + 1,
        creator: creatorAddress,
        ...names,
        slug,
        game: gameMetadata(
          "Six cards from a painter's studio, in five rarities. The dev chain's demo of the creator workflow: drafted, allowlisted, deployed and confirmed through the API.",
        ),
        cards: cards(),
      }),
    );
    reports.push({ action: "draft", draftId, name: names.nftName, slug, wallet: creatorAddress });

    const listed = actors.slice(0, 3).map((actor) => actor.account.address);
    const allowlist = await as(creator, (client) =>
      client.classic.creator.setWhitelist(
        draftId,
        true,
        listed.map((address, index) => ({ address, username: `demo-${index + 1}` })),
      ),
    );
    await as(creator, (client) => client.classic.creator.finalizeWhitelist(draftId));
    reports.push({
      action: "allowlist",
      draftId,
      entries: allowlist.entriesCount,
      root: allowlist.merkleRoot,
    });

    await fund(creator.account);
    const receipt = await send(
      walletClient(creator.account).writeContract({
        address: factory as Address,
        abi: dropFactoryAbi,
        functionName: "createDropWithExtensions",
        args: [
          names.tokenName,
          names.tokenSymbol,
          names.nftName,
          names.nftSymbol,
          creator.account.address,
          0n,
          (() => {
            const [commonOffer, rareOffer, epicOffer, legendaryOffer, mythicOffer] =
              defaultOffers(TOKENS_PER_MINT);
            return {
              baseURI: `${publicUrl}/classic/metadata/${slug}/`,
              tokensPerMint: TOKENS_PER_MINT,
              commonOffer,
              rareOffer,
              epicOffer,
              legendaryOffer,
              mythicOffer,
            };
          })(),
          {
            merkleRoot: allowlist.merkleRoot as Hex,
            // The draft's odds (the default split): confirm compares them.
            oddsBps: DEFAULT_ODDS_BPS,
            firstTokenId: 0n,
            virtualEth: parseEther("1"),
            virtualTokens: parseEther("1000000000"),
            graduationEth: parseEther("10"),
          },
        ],
      }),
    );
    const [created] = parseEventLogs({
      abi: liveDropCreatorAbi,
      logs: receipt.logs,
      eventName: "DropCreated",
    });
    const [configured] = parseEventLogs({
      abi: dropFactoryAbi,
      logs: receipt.logs,
      eventName: "DropConfigured",
    });
    if (!created || !configured) throw new Error("createDropWithExtensions emitted no DropCreated event");
    const address = created.args.dropContract.toLowerCase();
    reports.push({
      action: "deploy",
      draftId,
      game: address,
      gameId: configured.args.gameId.toString(),
      txHash: receipt.transactionHash,
    });

    // A restarted dev chain replays the same deployment order: the game may land where an earlier
    // demo game stood. That draft owns the address (and its metadata is kept): adopt it, not confirm.
    const earlier = drafts.find((candidate) => candidate.deployment?.contractAddress === address);
    let game: NonNullable<DemoClassicState["game"]>;
    if (earlier) {
      game = { address, slug: earlier.slug ?? slug, draftId: earlier.draftId };
      state.game = game;
      reports.push({ action: "adopt", draftId: earlier.draftId, game: address, redeployed: true });
    } else {
      // Confirm at once: the receipt exists, so `receiptFound` is true.
      const confirmed = await as(creator, (client) =>
        client.classic.creator.confirm(draftId, receipt.transactionHash),
      );
      reports.push({ action: "confirm", draftId, game: address, published: confirmed.published });
      game = { address, slug, draftId };
      state.game = game;
    }

    await fund(minter.account);
    const { proof, allowlisted } = await minter.client.classic.creator.proof(
      game.draftId,
      minter.account.address,
    );
    if (!allowlisted) throw new Error("the demo minter is not on the demo allowlist");
    // Allowlisted drops take their mints through `mintAllowlisted`, at the curve's `getMintPrice`.
    const price = await publicClient.readContract({
      address: created.args.dropContract,
      abi: boosterDropAbi,
      functionName: "getMintPrice",
      args: [MINTED_PACKS],
    });
    await send(
      walletClient(minter.account).writeContract({
        address: created.args.dropContract,
        abi: boosterDropAbi,
        functionName: "mintAllowlisted",
        args: [MINTED_PACKS, proof as Hex[]],
        value: price,
      }),
    );
    reports.push({ action: "mint", game: address, wallet: short(minter), packs: Number(MINTED_PACKS) });
    return reports;
  }

  return {
    /**
     * The creator workflow, once: a confirmed demo draft whose game this
     * chain has is adopted (a restart on the same database and chain);
     * otherwise the game is drafted and deployed, and confirmed unless it
     * landed at an earlier demo draft's address (a dev chain restarted under
     * a kept database replays the deployment order), which is adopted.
     * Resolves when the game is ready.
     */
    async setup(): Promise<DemoClassicActivityReport[]> {
      const drafts = await demoDrafts();
      const found = await adoptable(drafts);
      const reports: DemoClassicActivityReport[] = [];
      if (found) {
        state.game = {
          address: found.address.toLowerCase(),
          slug: found.draft.slug ?? DEMO_CLASSIC_GAME.slug,
          draftId: found.draft.draftId,
        };
        reports.push({
          action: "adopt",
          draftId: state.game.draftId,
          game: state.game.address,
          slug: state.game.slug,
        });
      } else {
        reports.push(...(await createGame(drafts)));
      }
      const address = (state.game as { address: string }).address;
      const ready = await waitUntilReady(address);
      reports.push({ action: "ready", game: address, metadataSource: ready.metadataSource ?? "" });
      return reports;
    },

    /** Publishes the demo game's revision, taking effect an hour ahead; one an earlier start published counts. */
    async revise(): Promise<DemoClassicActivityReport> {
      if (!state.game) throw new Error("no demo game to revise");
      const address = state.game.address;
      // The revision in effect far ahead is the latest open one: version 2 or more means an earlier start published it.
      const latest = await creator.client.classic.metadata.cards(address, {
        at: new Date(now() + 365 * 24 * HOUR).toISOString(),
      });
      if (latest.version >= 2) {
        state.revised = true;
        return { action: "revise", game: address, version: latest.version, already: true };
      }
      const effectiveFrom = new Date(Math.ceil((now() + HOUR) / 60_000) * 60_000).toISOString();
      try {
        const revision = await as(creator, (client) =>
          client.classic.creator.revise(address, {
            game: gameMetadata("Second season of the demo atelier: every card restored and reframed."),
            cards: cards(" (Restored)"),
            effectiveFrom,
            version: 2,
          }),
        );
        state.revised = true;
        return { action: "revise", game: address, version: revision.version, effectiveFrom };
      } catch (error) {
        // Published meanwhile (another replica's demo): the revision is there.
        if (errorCode(error) !== "VERSION_CONFLICT") throw error;
        state.revised = true;
        return { action: "revise", game: address, version: 2, already: true };
      }
    },
  };
}
