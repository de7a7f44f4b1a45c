import type { ChainDeployment } from "@mkt/chain";
import { MktApiError } from "@mkt/client";
import { CLASSIC_ERROR_CODES, CLASSIC_REACTION_KINDS } from "@mkt/protocol";
import type { LocalAccount } from "viem";
import { createDemoCreatorFlow, type DemoClassicState } from "./classic-creator-flow.ts";
import { CHAT_LINES, type DemoClassicActivityReport } from "./classic-scenario.ts";
import { as, createDemoChain, defaultDemoClassicWallets, demoActors, short } from "./classic-wallets.ts";
import { seededRandom } from "./release-activity.ts";

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

export interface DemoClassicActivity {
  /** Signs every demo wallet in. */
  signIn(): Promise<DemoClassicActivityReport[]>;
  /**
   * The creator workflow, once: the demo game is adopted when this chain has
   * it, else drafted, deployed and confirmed. Resolves when the game is ready.
   */
  setup(): Promise<DemoClassicActivityReport[]>;
  /**
   * One step: the first publishes the revision (once); then a random
   * signed-in wallet posts a chat line in a random game and sets or clears
   * one reaction on a random game or pack; now and then it refreshes the
   * game and reads its `/stats/me`.
   */
  tick(): Promise<DemoClassicActivityReport[]>;
  /** The demo game once set up, and whether its revision is published. */
  state(): DemoClassicState;
}

/**
 * The Classic write side made visible: a creator signs in,
 * drafts a game, sets an allowlist, deploys it through the drop factory on
 * the dev chain, confirms and waits until it is ready; an allowlisted wallet
 * mints packs with the proof from the API; later the creator publishes a
 * revision that takes effect an hour ahead. Then, step by step, signed-in
 * wallets chat, react, refresh and read their statistics. Everything goes
 * through the SDK to the process's own listener, as any client's calls
 * would; the transactions go to the dev chain from the demo's own wallets.
 */
export function createDemoClassicActivity(options: DemoClassicActivityOptions): DemoClassicActivity {
  const { baseUrl, apiKey, deployment, publicUrl } = options;
  const random = options.random ?? seededRandom(14);
  const now = options.now ?? Date.now;
  const refreshChance = options.refreshChance ?? 0.15;
  const statsChance = options.statsChance ?? 0.2;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const wallets = options.wallets ?? defaultDemoClassicWallets();
  const [creatorWallet, minterWallet] = wallets;
  if (!creatorWallet || !minterWallet) throw new Error("the classic demo needs at least two wallets");
  const factory = deployment.contracts["DropFactory"]?.address;
  if (!factory) throw new Error(`chain ${deployment.chainId} has no DropFactory`);

  const actors = demoActors(wallets, { baseUrl, apiKey });
  const state: DemoClassicState = { game: undefined, revised: false };
  const creatorFlow = createDemoCreatorFlow({
    state,
    actors,
    chain: createDemoChain(deployment),
    factory,
    chainId: deployment.chainId,
    publicUrl,
    now,
    sleep,
  });
  let posts = 0;

  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

  return {
    async signIn(): Promise<DemoClassicActivityReport[]> {
      const reports: DemoClassicActivityReport[] = [];
      for (const actor of actors) {
        const { account } = await actor.client.classic.auth.signIn(actor.account);
        reports.push({ action: "sign-in", wallet: short(actor), account: account.id });
      }
      return reports;
    },

    setup: creatorFlow.setup,

    async tick(): Promise<DemoClassicActivityReport[]> {
      const reports: DemoClassicActivityReport[] = [];
      if (state.game && !state.revised) reports.push(await creatorFlow.revise());
      const actor = pick(actors);
      const wallet = short(actor);
      const { games } = await actor.client.classic.games.list({ limit: 20 });
      if (games.length === 0) return reports;
      const target = pick(games).dropContractAddress;

      try {
        const { message } = await as(actor, (client) =>
          client.classic.chat.post(target, CHAT_LINES[posts++ % CHAT_LINES.length] ?? "gm"),
        );
        reports.push({ action: "chat", wallet, game: target, messageId: message.id });
      } catch (error) {
        // The per-account chat limit holds for the demo as for anyone; at a high MKT_DEMO_RATE the
        // wallets reach it, and the step goes on without the line.
        if (!(error instanceof MktApiError && error.code === CLASSIC_ERROR_CODES.chatRateLimited))
          throw error;
        reports.push({ action: "chat", wallet, game: target, limited: true });
      }

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

    state: () => ({ game: state.game, revised: state.revised }),
  };
}
