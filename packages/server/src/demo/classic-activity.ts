import {
  boosterDropAbi,
  type ChainDeployment,
  DEFAULT_ODDS_BPS,
  defaultOffers,
  deriveDevAccounts,
  dropFactoryAbi,
} from "@mkt/chain";
import { createMktClient, MktApiError, type MktClient } from "@mkt/client";
import {
  CLASSIC_REACTION_KINDS,
  type ClassicCardInput,
  type ClassicDraftSummary,
  type ClassicGameMetadataInput,
  type CreatedKey,
  type CreateKeyRequest,
} from "@mkt/protocol";
import type { Logger } from "pino";
import {
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  type LocalAccount,
  parseEther,
  parseEventLogs,
} from "viem";
import { artUrl } from "../media/index.ts";
import { DEMO_CARD_LAYOUT, letters } from "./classic-metadata.ts";
import { seededRandom } from "./release-activity.ts";

/**
 * Dev wallets of the classic demo: the mnemonic's accounts 20 to 23, past the
 * 20 the dev chain funds and the simulator and the release demo use
 * (`DEV_ACCOUNT_ROLES`: deployer 0, entropy 1, operator 2, users 3..19;
 * releases 3..6). Nothing else sends from them, so their nonces never race,
 * and nothing else signs in or links them, so the market accounts their
 * sign-ins create are the demo's own. The first is the creator, the second
 * the allowlisted minter; all four chat and react.
 */
export const DEMO_CLASSIC_WALLET_INDICES = [20, 21, 22, 23] as const;

/** The demo game's names (the drafts it looks for at start are those with this `nftName`). */
export const DEMO_CLASSIC_GAME = {
  nftName: "Demo Atelier Booster",
  nftSymbol: "ATLBOX",
  tokenName: "Demo Atelier",
  tokenSymbol: "ATL",
  slug: "demo-atelier",
} as const;

const CARD_NAMES = [
  "Charcoal Sketch",
  "Ink Study",
  "Watercolor Wash",
  "Oil Portrait",
  "Gilded Fresco",
  "Master's Easel",
] as const;

const CHAT_LINES = [
  "gm collectors",
  "just pulled a rare, feeling lucky",
  "who else is holding the mythic?",
  "floor looks healthy today",
  "opening three packs tonight",
  "the card art in this set is lovely",
  "anyone trading commons?",
  "wen graduation",
  "first edition or nothing",
  "this game deserves more attention",
] as const;

const PACK_PRICE = parseEther("0.001");
const MINTED_PACKS = 3n;
const HOUR = 3_600_000;
/** The balance a demo wallet that sends transactions is topped up to on the dev chain. */
const FUNDING = parseEther("10");

/** What one demo action did: logged at debug (ids and names only), compared by tests. */
export interface DemoClassicActivityReport {
  action:
    | "sign-in"
    | "adopt"
    | "draft"
    | "allowlist"
    | "deploy"
    | "confirm"
    | "ready"
    | "mint"
    | "revise"
    | "chat"
    | "react"
    | "refresh"
    | "stats";
  wallet?: string;
  account?: string;
  game?: string;
  draftId?: string;
  [detail: string]: string | number | boolean | undefined;
}

/** A signed-in demo wallet: its own client (one bearer token per client). */
interface Actor {
  account: LocalAccount;
  client: MktClient;
}

export interface DemoClassicActivityOptions {
  /** The app's own listening URL. */
  baseUrl: string;
  /** The demo's API key. */
  apiKey: string;
  /** The classic dev chain's deployment (the one with the DropFactory). */
  deployment: ChainDeployment;
  /** `PUBLIC_URL`: the base of the cards' generated art. */
  publicUrl: string;
  /** Creator, allowlisted minter, then more chatters; default the mnemonic's accounts 20 to 23. */
  wallets?: LocalAccount[];
  random?: () => number;
  now?: () => number;
  /** Chance of a refresh and of a `/stats/me` read in a step. */
  refreshChance?: number;
  statsChance?: number;
  /** Waits between readiness polls; a stopping demo makes it throw. */
  sleep?: (ms: number) => Promise<void>;
}

const errorCode = (error: unknown) => (error instanceof MktApiError ? error.code : undefined);

/**
 * The Classic write side made visible (issue 14): a creator signs in,
 * drafts a game, sets an allowlist, deploys it through the drop factory on
 * the dev chain, confirms and waits until it is ready; an allowlisted wallet
 * mints packs with the proof from the API; later the creator publishes a
 * revision that takes effect an hour ahead. Then, step by step, signed-in
 * wallets chat, react, refresh and read their statistics. Everything goes
 * through the SDK to the process's own listener, as any client's calls
 * would; the transactions go to the dev chain from the demo's own wallets.
 */
export function createDemoClassicActivity(options: DemoClassicActivityOptions) {
  const { baseUrl, apiKey, deployment, publicUrl } = options;
  const random = options.random ?? seededRandom(14);
  const now = options.now ?? Date.now;
  const refreshChance = options.refreshChance ?? 0.15;
  const statsChance = options.statsChance ?? 0.2;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const wallets =
    options.wallets ??
    deriveDevAccounts(undefined, Math.max(...DEMO_CLASSIC_WALLET_INDICES) + 1).filter((_, index) =>
      (DEMO_CLASSIC_WALLET_INDICES as readonly number[]).includes(index),
    );
  const [creatorWallet, minterWallet] = wallets;
  if (!creatorWallet || !minterWallet) throw new Error("the classic demo needs at least two wallets");
  const factory = deployment.contracts["DropFactory"]?.address;
  if (!factory) throw new Error(`chain ${deployment.chainId} has no DropFactory`);
  const chainId = deployment.chainId;

  const chain: Chain = defineChain({
    id: chainId,
    name: `mkt-${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [deployment.rpcUrl] } },
  });
  const transport = http(deployment.rpcUrl, { retryCount: 0 });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 100, cacheTime: 0 });
  const walletClient = (account: LocalAccount) =>
    createWalletClient({ chain, transport, account, pollingInterval: 100 });
  const send = async (hash: Promise<Hex>) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash });
    if (receipt.status !== "success") throw new Error(`transaction ${receipt.transactionHash} reverted`);
    return receipt;
  };
  /** Tops a wallet up on the dev chain (Hardhat's `hardhat_setBalance`): it is past the funded accounts. */
  const fund = async (account: LocalAccount) => {
    if ((await publicClient.getBalance({ address: account.address })) >= FUNDING / 2n) return;
    await createTestClient({ chain, transport, mode: "hardhat" }).setBalance({
      address: account.address,
      value: FUNDING,
    });
  };

  const actors: Actor[] = wallets.map((account) => ({
    account,
    client: createMktClient({ baseUrl, apiKey }),
  }));
  const creator = actors[0] as Actor;
  const minter = actors[1] as Actor;
  const short = (actor: Actor) => actor.account.address.toLowerCase();

  /** The demo game, once confirmed and ready (or adopted). */
  let game: { address: string; slug: string; draftId: string } | undefined;
  let revised = false;
  let posts = 0;

  const cards = (suffix = ""): ClassicCardInput[] =>
    DEMO_CARD_LAYOUT.map((slot, index) => {
      const name = `${CARD_NAMES[index] ?? `Card ${index + 1}`}${suffix}`;
      return {
        ...slot,
        name,
        description: `${name}, a card of the demo atelier.`,
        // The art route draws from any address; the creator's is known before the drop exists.
        imageUrl: artUrl(publicUrl, chainId, short(creator), slot.startId),
        traits: [{ key: "Studio", value: "Demo Atelier" }],
      };
    });
  const gameMetadata = (description: string): ClassicGameMetadataInput => ({
    description,
    imageUrl: artUrl(publicUrl, chainId, short(creator), "pack"),
    packImage: artUrl(publicUrl, chainId, short(creator), "pack"),
    featuredImageUrl: artUrl(publicUrl, chainId, short(creator), 9),
    bgColor: "#3b2f2f",
  });

  /** Runs `call` as `actor`, signing in again once when its token has expired. */
  async function as<T>(actor: Actor, call: (client: MktClient) => Promise<T>): Promise<T> {
    try {
      return await call(actor.client);
    } catch (error) {
      if (!(error instanceof MktApiError) || error.status !== 401 || errorCode(error) !== "UNAUTHORIZED")
        throw error;
      await actor.client.classic.auth.signIn(actor.account);
      return call(actor.client);
    }
  }

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
    const state = await creator.client.classic.creator.waitUntilReady(address, {
      attempts: 40,
      baseDelayMs: 250,
      maxDelayMs: 5_000,
      sleep,
    });
    if (!state.ready) throw new Error(`demo game ${address} is not ready (progress ${state.progress})`);
    return state;
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
        functionName: "createGame",
        args: [
          {
            ...names,
            pricePerPack: PACK_PRICE,
            merkleRoot: allowlist.merkleRoot as Hex,
            offers: defaultOffers(PACK_PRICE),
            // The draft's odds (the default split): confirm compares them.
            oddsBps: DEFAULT_ODDS_BPS,
            virtualEth: parseEther("1"),
            virtualTokens: parseEther("1000000000"),
            graduationEth: parseEther("10"),
            firstTokenId: 0n,
          },
        ],
      }),
    );
    const [created] = parseEventLogs({ abi: dropFactoryAbi, logs: receipt.logs, eventName: "GameCreated" });
    if (!created) throw new Error("createGame emitted no GameCreated event");
    const address = created.args.drop.toLowerCase();
    reports.push({
      action: "deploy",
      draftId,
      game: address,
      gameId: created.args.gameId.toString(),
      txHash: receipt.transactionHash,
    });

    // A restarted dev chain replays the same deployment order: the game may land where an earlier
    // demo game stood. That draft owns the address (and its metadata is kept): adopt it, not confirm.
    const earlier = drafts.find((candidate) => candidate.deployment?.contractAddress === address);
    if (earlier) {
      game = { address, slug: earlier.slug ?? slug, draftId: earlier.draftId };
      reports.push({ action: "adopt", draftId: earlier.draftId, game: address, redeployed: true });
    } else {
      // Confirm at once: the receipt exists, so `receiptFound` is true.
      const confirmed = await as(creator, (client) =>
        client.classic.creator.confirm(draftId, receipt.transactionHash),
      );
      reports.push({ action: "confirm", draftId, game: address, published: confirmed.published });
      game = { address, slug, draftId };
    }

    await fund(minter.account);
    const { proof, allowlisted } = await minter.client.classic.creator.proof(
      game.draftId,
      minter.account.address,
    );
    if (!allowlisted) throw new Error("the demo minter is not on the demo allowlist");
    await send(
      walletClient(minter.account).writeContract({
        address: created.args.drop,
        abi: boosterDropAbi,
        functionName: "mint",
        args: [MINTED_PACKS, proof as Hex[]],
        value: PACK_PRICE * MINTED_PACKS,
      }),
    );
    reports.push({ action: "mint", game: address, wallet: short(minter), packs: Number(MINTED_PACKS) });
    return reports;
  }

  async function revise(): Promise<DemoClassicActivityReport> {
    if (!game) throw new Error("no demo game to revise");
    const address = game.address;
    // The revision in effect far ahead is the latest open one: version 2 or more means an earlier start published it.
    const latest = await creator.client.classic.metadata.cards(address, {
      at: new Date(now() + 365 * 24 * HOUR).toISOString(),
    });
    if (latest.version >= 2) {
      revised = true;
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
      revised = true;
      return { action: "revise", game: address, version: revision.version, effectiveFrom };
    } catch (error) {
      // Published meanwhile (another replica's demo): the revision is there.
      if (errorCode(error) !== "VERSION_CONFLICT") throw error;
      revised = true;
      return { action: "revise", game: address, version: 2, already: true };
    }
  }

  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

  return {
    /** Signs every demo wallet in. */
    async signIn(): Promise<DemoClassicActivityReport[]> {
      const reports: DemoClassicActivityReport[] = [];
      for (const actor of actors) {
        const { account } = await actor.client.classic.auth.signIn(actor.account);
        reports.push({ action: "sign-in", wallet: short(actor), account: account.id });
      }
      return reports;
    },

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
        game = {
          address: found.address.toLowerCase(),
          slug: found.draft.slug ?? DEMO_CLASSIC_GAME.slug,
          draftId: found.draft.draftId,
        };
        reports.push({ action: "adopt", draftId: game.draftId, game: game.address, slug: game.slug });
      } else {
        reports.push(...(await createGame(drafts)));
      }
      const address = (game as { address: string }).address;
      const ready = await waitUntilReady(address);
      reports.push({ action: "ready", game: address, metadataSource: ready.metadataSource ?? "" });
      return reports;
    },

    /**
     * One step: the first publishes the revision (once); then a random
     * signed-in wallet posts a chat line in a random game and sets or clears
     * one reaction on a random game or pack; now and then it refreshes the
     * game and reads its `/stats/me`.
     */
    async tick(): Promise<DemoClassicActivityReport[]> {
      const reports: DemoClassicActivityReport[] = [];
      if (game && !revised) reports.push(await revise());
      const actor = pick(actors);
      const wallet = short(actor);
      const { games } = await actor.client.classic.games.list({ limit: 20 });
      if (games.length === 0) return reports;
      const target = pick(games).dropContractAddress;

      const { message } = await as(actor, (client) =>
        client.classic.chat.post(target, CHAT_LINES[posts++ % CHAT_LINES.length] ?? "gm"),
      );
      reports.push({ action: "chat", wallet, game: target, messageId: message.id });

      const reactOn = pick(games).dropContractAddress;
      const { boosterBoxes } = await actor.client.classic.packs.range({
        contractAddress: reactOn,
        limit: 20,
      });
      const pack = boosterBoxes.length > 0 && random() < 0.5 ? pick(boosterBoxes) : undefined;
      const reactionTarget = { contractAddress: reactOn, ...(pack ? { tokenId: pack.tokenId } : {}) };
      const kind = pick(CLASSIC_REACTION_KINDS);
      const { mine = [] } = await as(actor, (client) => client.classic.tools.myReactions(reactionTarget));
      // Mostly set: a kind already set is cleared, one not set is set.
      const active = !mine.includes(kind);
      const reacted = await as(actor, (client) => client.classic.tools.react(reactionTarget, kind, active));
      reports.push({
        action: "react",
        wallet,
        game: reactOn,
        ...(pack ? { tokenId: pack.tokenId.toString() } : {}),
        kind,
        active,
        total: reacted.total,
      });

      if (random() < refreshChance) {
        const refresh = await as(actor, (client) =>
          client.classic.tools.refresh({ contractAddress: target }),
        );
        reports.push({ action: "refresh", wallet, game: target, refreshed: refresh.refreshed });
      }
      if (random() < statsChance) {
        const { mine: figures, account } = await as(actor, (client) => client.classic.tools.myStats());
        reports.push({
          action: "stats",
          wallet,
          account: account.id,
          packsHeld: figures.packsHeld,
          reactionsMade: figures.reactionsMade,
          gamesCreated: figures.gamesCreated,
        });
      }
      return reports;
    },

    /** The demo game once set up, and whether its revision is published. */
    state: () => ({ game, revised }),
  };
}

export type DemoClassicActivity = ReturnType<typeof createDemoClassicActivity>;

export interface DemoClassicActivityRunOptions extends Omit<DemoClassicActivityOptions, "apiKey" | "sleep"> {
  /** Makes the demo's API key at start and revokes it on stop. */
  keys: {
    create(input: CreateKeyRequest): Promise<CreatedKey>;
    revokeSelf(presented: string): Promise<unknown>;
  };
  logger: Logger;
  /** Pause between steps (default 10 s). */
  intervalMs?: number;
}

export interface DemoClassicActivityRun {
  activity: DemoClassicActivity;
  /** Settles when the creator workflow has finished or failed (failures are logged). */
  ready: Promise<void>;
  /** Stops the workflow or the steps, waits for what is in flight, revokes the key; idempotent. */
  stop(): Promise<void>;
}

class Stopped extends Error {}

/**
 * Starts the classic demo of `npm start`: takes an API key and signs the
 * demo wallets in (resolving then), runs the creator workflow in the
 * background (`ready`), then steps every `intervalMs` until stopped, a step
 * never overlapping the next. Failures are logged and the demo goes on;
 * logs carry ids, addresses and names, never the key, a token or a signature.
 */
export async function startDemoClassicActivity(
  options: DemoClassicActivityRunOptions,
): Promise<DemoClassicActivityRun> {
  const { keys, intervalMs = 10_000 } = options;
  const log = options.logger.child({ area: "demo-classic-activity" });
  const { key } = await keys.create({
    description: "demo classic activity (npm start)",
    email: "demo@example.com",
  });
  let stopped = false;
  const sleepers = new Set<() => void>();
  /** A pause that a stop cuts short, failing the workflow waiting on it. */
  const sleep = (ms: number) =>
    new Promise<void>((resolve, reject) => {
      if (stopped) return reject(new Stopped("stopped"));
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        reject(new Stopped("stopped"));
      };
      const timer = setTimeout(() => {
        sleepers.delete(wake);
        resolve();
      }, ms);
      sleepers.add(wake);
    });
  const activity = createDemoClassicActivity({ ...options, apiKey: key, sleep });
  const logged = (reports: DemoClassicActivityReport[]) => {
    for (const entry of reports) log.debug({ msg: "demo classic", ...entry });
  };
  const warn = (msg: string) => (error: unknown) => {
    if (error instanceof Stopped) return;
    log.warn({ msg, err: error instanceof Error ? error.message : String(error) });
  };

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = activity.tick().then(logged, warn("demo classic step failed")).finally(schedule);
    }, intervalMs);
  };

  const ready = (async () => {
    try {
      logged(await activity.signIn());
      const reports = await activity.setup();
      logged(reports);
      const game = activity.state().game;
      log.info({
        msg: "demo classic game ready",
        game: game?.address,
        slug: game?.slug,
        draftId: game?.draftId,
        adopted: reports.some((entry) => entry.action === "adopt"),
      });
    } catch (error) {
      warn("demo classic setup failed")(error);
    } finally {
      schedule();
    }
  })();

  let stopping: Promise<void> | undefined;
  return {
    activity,
    ready,
    stop() {
      stopping ??= (async () => {
        stopped = true;
        for (const wake of [...sleepers]) wake();
        await ready;
        clearTimeout(timer);
        await running;
        await keys.revokeSelf(key).catch(warn("demo key revocation failed"));
        log.info({ msg: "demo classic activity stopped" });
      })();
      return stopping;
    },
  };
}
