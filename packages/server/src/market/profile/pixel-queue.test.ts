import { PROFILE_LIMITS } from "@mkt/protocol";
import pino from "pino";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { accountAction, type SignedIn, signIn } from "../../_test/accounts.ts";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import { postgresOnly } from "../../_test/database.ts";
import { createPixelQueue, PIXEL_JOBS_CHANNEL } from "./pixel-queue.ts";
import { lookup, solid, uploadAvatar, verifyX } from "./test-fixtures.ts";

let test: TestApp;
let apiKey: string;
const people: SignedIn[] = [];
const silent = pino({ level: "silent" });
/** A second worker on the same database, as another replica would run it. */
const replica = (clock = { now: () => Date.now() }) =>
  createPixelQueue({ db: test.db, clock, logger: silent });

beforeAll(async () => {
  test = await setupApp();
  apiKey = (await test.createKey({ multiplier: 100 })).key;
  for (let index = 1; index <= 6; index++) {
    const who = await signIn(test, index, { apiKey });
    await verifyX(test, { address: who.address, username: `pixel_${index}` });
    people.push(who);
  }
});
afterAll(() => test.close());

const profileOf = async (index: number) => (await lookup(test, `pixel_${index}`, apiKey)).json().profile;
const pixelate = (who: SignedIn, size?: number) =>
  accountAction(test, who, { kind: "pfp-pixelate", ...(size ? { size } : {}) });

describe("pfp-pixelate", () => {
  it("moves idle → queued → processing → ready, appends and selects the pixel pfp", async () => {
    const [who] = people as [SignedIn];
    expect((await profileOf(1)).pixelPfpStatus).toBe("idle");
    const refused = await pixelate(who);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/upload an avatar first/);

    // A red-and-blue avatar: left half red, right half blue.
    const avatar = await solid(256, 256, "#0000ff")
      .composite([{ input: await solid(128, 256, "#ff0000").png().toBuffer(), left: 0, top: 0 }])
      .png()
      .toBuffer();
    const uploaded = await accountAction(test, who, {
      kind: "avatar-upload",
      contentType: "image/png",
      data: avatar.toString("base64"),
    });
    expect(uploaded.statusCode).toBe(200);

    const queued = await pixelate(who, 8);
    expect(queued.statusCode).toBe(200);
    expect(queued.json().result).toEqual({ pixelPfpStatus: "queued", size: 8 });
    expect((await profileOf(1)).pixelPfpStatus).toBe("queued");
    expect((await pixelate(who)).statusCode).toBe(409);

    const worker = replica();
    const job = await worker.claim();
    expect(job).toMatchObject({ size: 8, attempt: 1 });
    expect((await profileOf(1)).pixelPfpStatus).toBe("processing");
    const busy = await pixelate(who);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error).toMatch(/already processing/);
    expect(await worker.claim()).toBeUndefined();

    expect(await worker.process(job!)).toBe("ready");
    const profile = await profileOf(1);
    expect(profile.pixelPfpStatus).toBe("ready");
    expect(profile.pixelPfps).toHaveLength(1);
    expect(profile.pixelPfps[0]).toEqual({
      id: expect.stringMatching(/^img_/),
      url: expect.stringMatching(/^https:\/\/api\.mkt\.test\/market\/support\/identity\/images\/img_/),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(profile.pixelPfpUrl).toBe(profile.pixelPfps[0].url);

    const served = await test.app.server.inject({
      method: "GET",
      url: new URL(profile.pixelPfpUrl).pathname,
      headers: { "api-key": apiKey },
    });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    const { data, info } = await sharp(served.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([256, 256]);
    const at = (x: number, y: number) => [
      ...data.subarray((y * 256 + x) * info.channels, (y * 256 + x) * info.channels + 3),
    ];
    expect(at(0, 0)).toEqual([255, 0, 0]);
    expect(at(127, 255)).toEqual([255, 0, 0]);
    expect(at(128, 0)).toEqual([0, 0, 255]);
    // 8×8 grid: each 32-pixel block is flat.
    expect(at(32, 32)).toEqual(at(63, 63));
  });

  it("is drained by the feature's job (app.services.runJobs)", async () => {
    const who = people[1]!;
    await uploadAvatar(test, who);
    await pixelate(who, 16);
    await test.app.services.runJobs();
    const profile = await profileOf(2);
    expect(profile.pixelPfpStatus).toBe("ready");
    expect(profile.pixelPfps).toHaveLength(1);
    // Ready again: another may be asked for, and is appended and selected.
    await pixelate(who, 32);
    await test.app.services.runJobs();
    const again = await profileOf(2);
    expect(again.pixelPfps).toHaveLength(2);
    expect(again.pixelPfpUrl).toBe(again.pixelPfps[1].url);
  });

  it("refuses sizes out of range", async () => {
    const who = people[1]!;
    expect((await pixelate(who, 4)).statusCode).toBe(400);
    expect((await pixelate(who, 65)).statusCode).toBe(400);
  });

  it("fails the job when the avatar is gone, with the reason kept", async () => {
    const who = people[2]!;
    const { avatarId } = await uploadAvatar(test, who);
    await pixelate(who);
    const worker = replica();
    const job = await worker.claim();
    await test.db.kysely.deleteFrom("images").where("id", "=", avatarId).execute();
    expect(await worker.process(job!)).toBe("failed");
    expect((await profileOf(3)).pixelPfpStatus).toBe("failed");
    const row = await test.db.kysely
      .selectFrom("profile_pictures")
      .select("pixel_error")
      .where("account_id", "=", job!.accountId)
      .executeTakeFirstOrThrow();
    expect(row.pixel_error).toMatch(/avatar was removed/);
    // And with the avatar gone, asking again is a 409.
    expect((await pixelate(who)).statusCode).toBe(409);
  });

  it("gives each queued job to exactly one of several workers", async () => {
    const [a, b] = [people[3]!, people[4]!];
    await uploadAvatar(test, a);
    await uploadAvatar(test, b);
    await pixelate(a);
    await pixelate(b);
    const workers = [replica(), replica(), replica()];
    const claims = await Promise.all(workers.map((worker) => worker.claim()));
    const taken = claims.filter((job) => job !== undefined).map((job) => job!.accountId);
    expect(taken).toHaveLength(2);
    expect(new Set(taken).size).toBe(2);
    for (const [i, job] of claims.entries()) if (job) await workers[i]!.process(job);
  });

  postgresOnly.it("skips a job another replica has locked", async () => {
    const [a, b] = [people[3]!, people[4]!];
    await pixelate(a);
    await pixelate(b);
    const [lockedId, freeId] = [await accountIdOf(a), await accountIdOf(b)];
    const taken = await test.db.kysely.transaction().execute(async (tx) => {
      // Another replica in the middle of claiming the oldest job.
      await tx
        .selectFrom("profile_pictures")
        .select("account_id")
        .where("account_id", "=", lockedId)
        .forUpdate()
        .execute();
      const timeout = new Promise<"blocked">((resolve) => setTimeout(() => resolve("blocked"), 3_000));
      return Promise.race([replica().claim(), timeout]);
    });
    expect(taken).toMatchObject({ accountId: freeId });
    if (taken !== "blocked" && taken) expect(await replica().process(taken)).toBe("ready");
    await test.app.services.runJobs();
    expect((await profileOf(4)).pixelPfpStatus).toBe("ready");
    expect((await profileOf(5)).pixelPfpStatus).toBe("ready");
  });

  it("queues a job again when its worker died, and fails it after three claims", async () => {
    const who = people[5]!;
    await uploadAvatar(test, who);
    await pixelate(who);
    const clock = createManualClock(Date.now());
    const worker = replica(clock);
    const first = await worker.claim();
    expect(first?.attempt).toBe(1);
    clock.advance(PROFILE_LIMITS.pixelJobStaleMs - 1);
    expect(await worker.requeueStale()).toBe(0);
    clock.advance(2);
    expect(await worker.requeueStale()).toBe(1);
    expect((await profileOf(6)).pixelPfpStatus).toBe("queued");
    // Another worker takes it; the dead worker's late result is dropped.
    const second = await worker.claim();
    expect(second?.attempt).toBe(2);
    expect(await worker.process(first!)).toBe("lost");
    expect((await profileOf(6)).pixelPfps).toHaveLength(0);
    expect((await profileOf(6)).pixelPfpStatus).toBe("processing");

    clock.advance(PROFILE_LIMITS.pixelJobStaleMs + 1);
    await worker.requeueStale();
    const third = await worker.claim();
    expect(third?.attempt).toBe(3);
    clock.advance(PROFILE_LIMITS.pixelJobStaleMs + 1);
    await worker.requeueStale();
    expect((await profileOf(6)).pixelPfpStatus).toBe("failed");
  });

  it(`keeps the newest ${PROFILE_LIMITS.pixelPfps} pixel pfps`, async () => {
    const who = people[1]!;
    const accountId = await accountIdOf(who);
    const base = Date.now() - 60_000;
    await test.db.kysely
      .insertInto("images")
      .values(
        Array.from({ length: PROFILE_LIMITS.pixelPfps }, (_, i) => ({
          id: `img_old${i}`,
          account_id: accountId,
          purpose: "pixel-pfp" as const,
          content_type: "image/png",
          bytes: Buffer.from([1]),
          width: 256,
          height: 256,
          draft_id: null,
          created_at: new Date(base + i),
        })),
      )
      .execute();
    await pixelate(who);
    await test.app.services.runJobs();
    const profile = await profileOf(2);
    expect(profile.pixelPfps).toHaveLength(PROFILE_LIMITS.pixelPfps);
    expect(profile.pixelPfps.at(-1).url).toBe(profile.pixelPfpUrl);
    expect(profile.pixelPfps.map((pfp: { id: string }) => pfp.id)).not.toContain("img_old0");
  });
});

async function accountIdOf(who: SignedIn) {
  return (
    await test.db.kysely
      .selectFrom("account_wallets")
      .select("account_id")
      .where("address", "=", who.address)
      .executeTakeFirstOrThrow()
  ).account_id;
}

describe("pfp-select", () => {
  it("selects one of the caller's own pixel pfps, or none", async () => {
    const who = people[1]!;
    const { pixelPfps } = await profileOf(2);
    const first = pixelPfps[0].id;
    const chosen = await accountAction(test, who, { kind: "pfp-select", pixelPfpId: first });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json().result).toEqual({ pixelPfpId: first, pixelPfpUrl: pixelPfps[0].url });
    expect((await profileOf(2)).pixelPfpUrl).toBe(pixelPfps[0].url);

    const cleared = await accountAction(test, who, { kind: "pfp-select", pixelPfpId: null });
    expect(cleared.json().result).toEqual({ pixelPfpId: null, pixelPfpUrl: "" });
    expect((await profileOf(2)).pixelPfpUrl).toBe("");

    const others = (await profileOf(1)).pixelPfps[0].id;
    expect((await accountAction(test, who, { kind: "pfp-select", pixelPfpId: others })).statusCode).toBe(404);
    const avatarId = new URL((await profileOf(2)).avatarUrl).pathname.split("/").at(-1);
    expect((await accountAction(test, who, { kind: "pfp-select", pixelPfpId: avatarId })).statusCode).toBe(
      404,
    );
    expect((await accountAction(test, who, { kind: "pfp-select", pixelPfpId: "bad" })).statusCode).toBe(400);
  });
});

/** A logger whose lines a test awaits by message: the test resumes when the line is written, without polling. */
function watchedLogger() {
  const waiting: Array<{ msg: string; resolve: (entry: Record<string, unknown>) => void }> = [];
  const logger = pino(
    { level: "info" },
    {
      write(line: string) {
        const entry = JSON.parse(line) as Record<string, unknown>;
        const index = waiting.findIndex((waiter) => waiter.msg === entry["msg"]);
        if (index >= 0) waiting.splice(index, 1)[0]!.resolve(entry);
      },
    },
  );
  const next = (msg: string) =>
    new Promise<Record<string, unknown>>((resolve) => waiting.push({ msg, resolve }));
  return { logger, next };
}

describe("worker", () => {
  it("takes a job another replica queued when the notification arrives, with no timer to wait for", async () => {
    const who = people[0]!;
    const accountId = await accountIdOf(who);
    const watch = watchedLogger();
    const worker = createPixelQueue({
      db: test.db,
      clock: createManualClock(Date.now()),
      logger: watch.logger,
    });
    // Timers are frozen while the worker runs: a poll would never fire, so only the notification can
    // wake it. The app's own worker is not started, so the job is this worker's to take.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    try {
      worker.start();
      const ready = watch.next("pixel pfp ready");
      expect((await pixelate(who, 12)).statusCode).toBe(200);
      expect(await ready).toMatchObject({ accountId, size: 12 });
    } finally {
      vi.useRealTimers();
      await worker.stop();
    }
    const profile = await profileOf(1);
    expect(profile.pixelPfpStatus).toBe("ready");
    expect(profile.pixelPfps).toHaveLength(2);
  });

  it("stops listening when stopped: a later job stays queued for another worker", async () => {
    const who = people[0]!;
    const worker = replica();
    worker.start();
    await worker.stop();
    // The notification reaches a listener registered after the worker stopped, and the job is still queued.
    let heard!: () => void;
    const notified = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const unlisten = await test.db.listen(PIXEL_JOBS_CHANNEL, { onNotify: () => heard() });
    try {
      expect((await pixelate(who, 12)).statusCode).toBe(200);
      await notified;
      expect((await profileOf(1)).pixelPfpStatus).toBe("queued");
    } finally {
      await unlisten();
    }
    await test.app.services.runJobs();
    expect((await profileOf(1)).pixelPfpStatus).toBe("ready");
  });
});
