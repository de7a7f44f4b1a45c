import type { CreatedKey, CreateKeyRequest } from "@mkt/protocol";
import type { Logger } from "pino";
import {
  createDemoClassicActivity,
  type DemoClassicActivity,
  type DemoClassicActivityOptions,
} from "./classic-activity.ts";
import type { DemoClassicActivityReport } from "./classic-scenario.ts";

/** The classic demo's pause between steps at the demo's usual rate (`MKT_DEMO_RATE=1`). */
export const DEMO_CLASSIC_ACTIVITY_STEP_MS = 10_000;

export interface DemoClassicActivityRunOptions extends Omit<DemoClassicActivityOptions, "apiKey" | "sleep"> {
  /** Makes the demo's API key at start and revokes it on stop. */
  keys: {
    create(input: CreateKeyRequest): Promise<CreatedKey>;
    revokeSelf(presented: string): Promise<unknown>;
  };
  logger: Logger;
  /** Pause between steps (default `DEMO_CLASSIC_ACTIVITY_STEP_MS`). */
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
  const { keys, intervalMs = DEMO_CLASSIC_ACTIVITY_STEP_MS } = options;
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
