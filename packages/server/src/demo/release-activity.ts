import { createPrng } from "@mkt/chain";
import { createMktClient, type MktClient, type Release } from "@mkt/client";
import type { CreatedKey, CreateKeyRequest, ReleaseDraftInput } from "@mkt/protocol";
import type { Logger } from "pino";
import type { LocalAccount } from "viem";
import { DEMO_ACCENTS, DEMO_DESIGN_COUNT, DEMO_UPDATES, demoReleaseDraft } from "./release-designs.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** What one demo step did: logged at debug, and compared by tests. */
export interface DemoReleaseReport {
  action: "create" | "announce" | "edit" | "reschedule" | "cancel";
  releaseId: string;
  name: string;
  revision: number;
}

export interface DemoReleaseActivityOptions {
  /** The SDK's release catalog, against the app's public URL. */
  releases: MktClient["market"]["releases"];
  /** Dev wallets that own and sign the demo releases. */
  wallets: readonly LocalAccount[];
  /** Uniform in [0, 1); seeded so a run can be replayed. */
  random?: () => number;
  now?: () => number;
  /** Announced demo releases kept in the catalog. */
  announced?: number;
  /**
   * Cancelled demo releases at most. A cancelled release is final and stays
   * listed, so once this many exist the demo edits and reschedules only: the
   * demo never holds more than `announced + cancelled` public releases.
   */
  cancelled?: number;
  /** Chance that a step cancels a release and announces a new one (while `cancelled` allows). */
  cancelChance?: number;
  /** Chance that a step reschedules instead of editing. */
  rescheduleChance?: number;
}

/** A small seeded PRNG (mulberry32, the chain simulator's): the demo takes the same steps on every fresh start. */
export function seededRandom(seed: number): () => number {
  return createPrng(seed).next;
}

export interface DemoReleaseActivity {
  /** Adopts the demo releases already listed and announces new ones up to the target. */
  seed(): Promise<DemoReleaseReport[]>;
  /**
   * One step: a release whose launch has come is rescheduled; otherwise a
   * release is cancelled and replaced (while the cap allows), rescheduled
   * or, most often, edited. After a refused action (someone else signed
   * with a dev wallet) the state is read again from the list.
   */
  tick(): Promise<DemoReleaseReport[]>;
  /** The announced demo releases as last seen, and how many are cancelled. */
  state(): { announced: Release[]; cancelled: number };
}

/**
 * The demo's release catalog: a few releases signed by dev wallets and
 * announced, then, step by step, edited (the revision moves), rescheduled,
 * and now and then cancelled and replaced by a new one. Every change is a
 * signed action through the SDK, the path a real client takes; the demo
 * learns the catalog's state from the public list, so a restart on a kept
 * database adopts the releases it finds instead of adding more.
 */
export function createDemoReleaseActivity(options: DemoReleaseActivityOptions): DemoReleaseActivity {
  const { releases, wallets } = options;
  const random = options.random ?? seededRandom(1);
  const now = options.now ?? Date.now;
  const target = options.announced ?? 4;
  const maxCancelled = options.cancelled ?? 3;
  const cancelChance = options.cancelChance ?? 0.15;
  const rescheduleChance = options.rescheduleChance ?? 0.2;
  if (wallets.length === 0) throw new Error("the demo needs at least one wallet");
  const signers = new Map(wallets.map((wallet) => [wallet.address.toLowerCase(), wallet]));

  /** Announced demo releases by id, as last seen. */
  const live = new Map<string, Release>();
  let cancelledCount = 0;
  let nextDesign = 0;
  let nextWallet = 0;
  let edits = 0;

  const signerOf = (release: Release): LocalAccount => {
    const signer = signers.get(release.owner);
    if (!signer) throw new Error(`release ${release.id} is not owned by a demo wallet`);
    return signer;
  };
  const report = (action: DemoReleaseReport["action"], release: Release): DemoReleaseReport => ({
    action,
    releaseId: release.id,
    name: release.name,
    revision: release.revision,
  });
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  /** A launch one to fourteen days after `from`, on the hour. */
  const launchAfter = (from: number) => Math.ceil((from + DAY + random() * 13 * DAY) / HOUR) * HOUR;

  /** Reads the demo's releases from the public list (every page). */
  async function sync(): Promise<void> {
    live.clear();
    cancelledCount = 0;
    for await (const release of releases.iterate()) {
      if (!signers.has(release.owner)) continue;
      if (release.status === "announced") live.set(release.id, release);
      if (release.status === "cancelled") cancelledCount++;
    }
  }

  /** Creates the next design not currently announced, and announces it. */
  async function announceNew(): Promise<DemoReleaseReport[]> {
    const names = new Set([...live.values()].map((release) => release.name));
    let draft: ReleaseDraftInput = demoReleaseDraft(nextDesign);
    for (let tries = 0; tries < DEMO_DESIGN_COUNT && names.has(draft.name); tries++) {
      nextDesign++;
      draft = demoReleaseDraft(nextDesign);
    }
    nextDesign++;
    const wallet = wallets[nextWallet++ % wallets.length]!;
    const created = await releases.create(wallet, draft);
    const announced = await releases.announce(wallet, created.id, created.revision, launchAfter(now()));
    live.set(announced.id, announced);
    return [report("create", created), report("announce", announced)];
  }

  async function edit(release: Release): Promise<DemoReleaseReport> {
    // An edit replaces the whole draft: start from the complete release.
    const full = await releases.get(release.id);
    // The description's first paragraph is the design's; an edit replaces the update note below it.
    const description = `${full.description.split("\n\n")[0] ?? ""}\n\n${DEMO_UPDATES[edits % DEMO_UPDATES.length]}`;
    const accent = DEMO_ACCENTS[edits % DEMO_ACCENTS.length]!;
    edits++;
    const { name, symbol, image, color, baseURI, links, design } = full;
    const edited = await releases.edit(signerOf(full), full.id, full.revision, {
      name,
      symbol,
      image,
      color,
      baseURI,
      links,
      description,
      design: { ...design, accent },
    });
    live.set(edited.id, edited);
    return report("edit", edited);
  }

  async function reschedule(release: Release): Promise<DemoReleaseReport> {
    const moved = await releases.reschedule(
      signerOf(release),
      release.id,
      release.revision,
      launchAfter(Math.max(now(), release.launchAt ?? 0)),
    );
    live.set(moved.id, moved);
    return report("reschedule", moved);
  }

  async function cancelAndReplace(release: Release): Promise<DemoReleaseReport[]> {
    const cancelled = await releases.cancel(signerOf(release), release.id, release.revision);
    live.delete(cancelled.id);
    cancelledCount++;
    return [report("cancel", cancelled), ...(await announceNew())];
  }

  return {
    async seed(): Promise<DemoReleaseReport[]> {
      await sync();
      const reports: DemoReleaseReport[] = [];
      while (live.size < target) reports.push(...(await announceNew()));
      return reports;
    },

    async tick(): Promise<DemoReleaseReport[]> {
      try {
        if (live.size < target) return await announceNew();
        const current = [...live.values()];
        const due = current.find((release) => (release.launchAt ?? 0) <= now() + HOUR);
        if (due) return [await reschedule(due)];
        const roll = random();
        const release = pick(current);
        if (roll < cancelChance) {
          // Past the cap a cancel roll edits: the catalog stops growing.
          return cancelledCount < maxCancelled ? await cancelAndReplace(release) : [await edit(release)];
        }
        if (roll < cancelChance + rescheduleChance) return [await reschedule(release)];
        return [await edit(release)];
      } catch (error) {
        await sync();
        throw error;
      }
    },

    state: () => ({ announced: [...live.values()], cancelled: cancelledCount }),
  };
}

/** The release demo's pause between steps at the demo's usual rate (`MKT_DEMO_RATE=1`). */
export const DEMO_RELEASE_STEP_MS = 20_000;

export interface DemoReleasesOptions extends Omit<DemoReleaseActivityOptions, "releases"> {
  /** The app's own listening URL. */
  baseUrl: string;
  /** Makes the demo's API key at start and revokes it on stop. */
  keys: {
    create(input: CreateKeyRequest): Promise<CreatedKey>;
    revokeSelf(presented: string): Promise<unknown>;
  };
  logger: Logger;
  /** Pause between steps (default `DEMO_RELEASE_STEP_MS`). */
  intervalMs?: number;
}

export interface DemoReleases {
  activity: DemoReleaseActivity;
  /** Stops stepping, waits for the step in flight, revokes the demo's key; idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts the demo release catalog of `npm start`: takes an API key, seeds
 * the catalog (resolving once the first releases are announced, so the list
 * is not empty when the banner shows), then steps every `intervalMs` until
 * stopped. A step never overlaps the next. Failures are logged and the demo
 * goes on; logs carry ids and names, never the key or a signature.
 */
export async function startDemoReleases(options: DemoReleasesOptions): Promise<DemoReleases> {
  const { keys, baseUrl, intervalMs = DEMO_RELEASE_STEP_MS } = options;
  const log = options.logger.child({ area: "demo-releases" });
  const { key } = await keys.create({
    description: "demo release activity (npm start)",
    email: "demo@example.com",
  });
  const client = createMktClient({ baseUrl, apiKey: key });
  const activity = createDemoReleaseActivity({ ...options, releases: client.market.releases });
  const logged = (reports: DemoReleaseReport[]) => {
    for (const entry of reports) log.debug({ msg: "demo release", ...entry });
  };

  try {
    const seeded = await activity.seed();
    logged(seeded);
    const { announced, cancelled } = activity.state();
    log.info({
      msg: "demo releases ready",
      announced: announced.length,
      cancelled,
      created: seeded.filter((entry) => entry.action === "create").length,
    });
  } catch (error) {
    log.warn({
      msg: "demo release seeding failed",
      err: error instanceof Error ? error.message : String(error),
    });
  }

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = activity
        .tick()
        .then(logged, (error: unknown) =>
          log.warn({
            msg: "demo release step failed",
            err: error instanceof Error ? error.message : String(error),
          }),
        )
        .finally(schedule);
    }, intervalMs);
  };
  schedule();

  let stopping: Promise<void> | undefined;
  return {
    activity,
    stop() {
      stopping ??= (async () => {
        stopped = true;
        clearTimeout(timer);
        await running;
        await keys.revokeSelf(key).catch((error: unknown) =>
          log.warn({
            msg: "demo key revocation failed",
            err: error instanceof Error ? error.message : String(error),
          }),
        );
        log.info({ msg: "demo releases stopped" });
      })();
      return stopping;
    },
  };
}
