import type { Logger } from "pino";
import type { ClassicMetadataStore, StoredCard, UnpublishedPosition } from "../classic/games/index.ts";
import { artUrl } from "../media/index.ts";

/** What one demo step did for one game: logged at debug, and compared by tests. */
export interface DemoClassicReport {
  action: "publish" | "skip" | "feature";
  address: string;
  gameId: string;
  version?: number;
}

export interface DemoClassicMetadataOptions {
  metadata: ClassicMetadataStore;
  /** The base of the generated art URLs (`PUBLIC_URL`). */
  publicUrl: string;
  chainId?: number;
  /** Featured games the demo keeps (the operator's flag), at least. */
  featured?: number;
}

type UnpublishedGame = Awaited<ReturnType<ClassicMetadataStore["unpublished"]>>[number];

/** Games read per query of the unpublished ones. */
const STEP_GAMES = 200;

/** Card names per theme; a game takes the theme of its id. Six cards: two Common, one of each other rarity. */
const THEMES = [
  ["Paper Lantern", "Night Stall", "Noodle Cart", "Fortune Teller", "Moon Gate", "Lantern Dragon"],
  ["Sea Glass", "Harbor Gull", "Lighthouse", "Tall Ship", "Kraken Eye", "Sunken Crown"],
  ["Copper Gear", "Tin Soldier", "Clockwork Owl", "Brass Golem", "Steam Titan", "Aether Engine"],
  ["Cactus Bloom", "Dune Fox", "Sand Glass", "Mirage", "Sun Serpent", "Desert Phoenix"],
] as const;

/** Card ids per card: Common 1..3 and 4, Rare 5..6, Epic 7, Legendary 8, Mythic 9. */
export const DEMO_CARD_LAYOUT: ReadonlyArray<Pick<StoredCard, "rarity" | "startId" | "endId">> = [
  { rarity: 1, startId: 1, endId: 3 },
  { rarity: 1, startId: 4, endId: 4 },
  { rarity: 2, startId: 5, endId: 6 },
  { rarity: 3, startId: 7, endId: 7 },
  { rarity: 4, startId: 8, endId: 8 },
  { rarity: 5, startId: 9, endId: 9 },
];

const slugBase = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60) || "game";
/** `12` → `"bc"`: a suffix of letters, so a creator slug never ends in `-<digits>`. */
export const letters = (value: bigint) => {
  let text = "";
  let rest = value;
  do {
    text = String.fromCharCode(97 + Number(rest % 26n)) + text;
    rest /= 26n;
  } while (rest > 0n);
  return text;
};

/**
 * The demo's classic metadata: as games appear in the projection, two of
 * every three (those whose game id is not a multiple of 3) get creator
 * ("user") metadata through the metadata store, the path the creator
 * routes take: a description, links, a creator slug and six cards with names,
 * rarities, card-id ranges and our generated art. The others keep the
 * default metadata. The first published games are featured until `featured`
 * games are. Idempotent across restarts: a game with a revision is never
 * published again. It walks the games in creation order and remembers where
 * it stopped, so the games it leaves on default metadata are read once per
 * process, not on every step.
 */
export function createDemoClassicMetadata(options: DemoClassicMetadataOptions) {
  const { metadata, publicUrl } = options;
  const chainId = options.chainId ?? 8453;
  const featuredTarget = options.featured ?? 2;
  /** The last game this process handled (published or left on default metadata). */
  let after: UnpublishedPosition | undefined;

  return {
    async tick(): Promise<DemoClassicReport[]> {
      const reports: DemoClassicReport[] = [];
      let featured = await metadata.featuredCount(chainId);
      const handle = async (game: UnpublishedGame) => {
        const id = BigInt(game.gameId);
        if (id % 3n === 0n) {
          reports.push({ action: "skip", address: game.address, gameId: game.gameId });
          return;
        }
        const names = THEMES[Number(id % BigInt(THEMES.length))] ?? THEMES[0];
        const { version } = await metadata.publish(chainId, game.address, {
          game: {
            description: `${game.nftName}: six cards in five rarities, drawn from every pack. A demo game of the dev chain.`,
            imageUrl: artUrl(publicUrl, chainId, game.address, "pack"),
            packImage: artUrl(publicUrl, chainId, game.address, "pack"),
            featuredImageUrl: artUrl(publicUrl, chainId, game.address, 9),
            websiteUrl: null,
            bgColor: ["#1e3a8a", "#14532d", "#7c2d12", "#581c87"][Number(id % 4n)] ?? "#111827",
            links: { twitter: "", website: "", discord: "" },
          },
          cards: DEMO_CARD_LAYOUT.map((slot, index) => ({
            ...slot,
            name: names[index] ?? `Card ${index + 1}`,
            description: `${names[index] ?? "A card"} of ${game.nftName}.`,
            imageUrl: artUrl(publicUrl, chainId, game.address, slot.startId),
            traits: [{ key: "Set", value: game.nftName }],
          })),
          slug: `${slugBase(game.nftName)}-${letters(id)}`,
        });
        reports.push({ action: "publish", address: game.address, gameId: game.gameId, version });
        if (featured < featuredTarget) {
          await metadata.setFlags(chainId, game.address, { isFeatured: true, isVerified: true });
          featured += 1;
          reports.push({ action: "feature", address: game.address, gameId: game.gameId });
        }
      };
      for (;;) {
        const pending = await metadata.unpublished(chainId, STEP_GAMES, after);
        for (const game of pending) {
          await handle(game);
          after = game.position;
        }
        if (pending.length < STEP_GAMES) return reports;
      }
    },
  };
}

export interface DemoClassic {
  stop(): Promise<void>;
}

/** How often the step runs without a commit to wake it (a lost notification, a quiet chain). */
const SAFETY_INTERVAL_MS = 60_000;

/**
 * Runs the demo's classic metadata step at start, then after every commit of
 * the classic indexer scope (`commits`: the database's notification, on every
 * replica), since only a commit adds games; a long safety timer covers a lost
 * notification. Steps never overlap: a commit during a step runs one more
 * after it.
 */
export function startDemoClassicMetadata(
  options: DemoClassicMetadataOptions & {
    logger: Logger;
    /** Calls `onCommit` after every commit of the classic scope; answers how to stop. */
    commits: (onCommit: () => void) => Promise<() => Promise<void>>;
    /** The longest pause between steps (default 60 s). */
    safetyMs?: number;
  },
): DemoClassic {
  const log = options.logger.child({ area: "demo-classic" });
  const demo = createDemoClassicMetadata(options);
  const safetyMs = options.safetyMs ?? SAFETY_INTERVAL_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  const step = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    again = false;
    clearTimeout(timer);
    running = demo
      .tick()
      .then(
        (reports) => {
          for (const report of reports) log.debug({ msg: "demo classic metadata", ...report });
        },
        (error: unknown) =>
          log.warn({
            msg: "demo classic metadata step failed",
            err: error instanceof Error ? error.message : String(error),
          }),
      )
      .finally(() => {
        running = undefined;
        if (stopped) return;
        if (again) step();
        else timer = setTimeout(step, safetyMs);
      });
  };
  const listening = options.commits(step).catch((error: unknown) => {
    log.warn({
      msg: "demo classic metadata cannot listen for commits; it steps at the safety interval",
      err: error instanceof Error ? error.message : String(error),
    });
    return undefined;
  });
  step();
  log.info({ msg: "demo classic metadata started" });
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await (await listening)?.();
      while (running) await running;
    },
  };
}
