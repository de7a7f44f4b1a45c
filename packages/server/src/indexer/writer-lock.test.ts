import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { AdvisoryLock, Database } from "../db/index.ts";
import { createLogger } from "../logging/index.ts";
import { createWriterLock, writerLockKey } from "./writer-lock.ts";

/** A database whose advisory lock is granted while `free`, and whose session can be cut. */
function fakeDatabase() {
  const state = { free: true, sessionEnded: false, taken: [] as Array<[string, string | undefined]> };
  const db = {
    async tryAdvisoryLock(key: string, holder?: string): Promise<AdvisoryLock | null> {
      if (!state.free) return null;
      state.taken.push([key, holder]);
      state.free = false;
      state.sessionEnded = false;
      return {
        lost: () => state.sessionEnded,
        release: async () => {
          state.free = true;
        },
      };
    },
  } as Pick<Database, "tryAdvisoryLock"> as Database;
  return { db, state };
}

function setup() {
  const { db, state } = fakeDatabase();
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const log = createLogger({ level: "info", destination, replica: "web-1" }).child({ scope: "8453:market" });
  let now = 1_000_000;
  let wakes = 0;
  const lock = createWriterLock({
    db,
    clock: { now: () => now },
    log,
    scopeId: "8453:market",
    replicaId: "web-1",
    wake: () => {
      wakes += 1;
    },
  });
  return {
    lock,
    state,
    messages: () => lines.map((line) => [line["level"], line["msg"], line["replica"], line["scope"]]),
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
    wakes: () => wakes,
  };
}

describe("the writer lock", () => {
  it("is taken under the replica id, and taking it is logged at info with the scope and replica", async () => {
    const { lock, state, messages } = setup();
    expect(await lock.acquire()).toBe(true);
    expect(state.taken).toEqual([[writerLockKey("8453:market"), "web-1"]]);
    expect(lock.held()).toBe(true);
    // Held already: no second attempt, no second line.
    expect(await lock.acquire()).toBe(true);
    expect(state.taken).toHaveLength(1);
    expect(messages()).toEqual([[30, "took the indexer's writer lock", "web-1", "8453:market"]]);
  });

  it("notices a lost session once, logs it, and takes the lock again when it is free", async () => {
    const { lock, state, messages } = setup();
    await lock.acquire();
    state.sessionEnded = true;
    state.free = false;
    expect(lock.held()).toBe(false);
    expect(lock.held()).toBe(false);
    expect(await lock.acquire()).toBe(false);
    state.free = true;
    expect(await lock.acquire()).toBe(true);
    expect(messages().map((line) => line[1])).toEqual([
      "took the indexer's writer lock",
      "lost the indexer's writer lock (its database session ended)",
      "took the indexer's writer lock",
    ]);
  });

  it("on a hand-off, releases between batches and stays away for the hold-off", async () => {
    const { lock, state, messages, advance, now, wakes } = setup();
    await lock.acquire();
    const handOff = lock.requestHandOff(30_000);
    // The loop's wait is cut short; nothing is released until the loop is between batches.
    expect(wakes()).toBe(1);
    expect(state.free).toBe(false);
    expect(await lock.releaseIfHandedOff()).toBe(true);
    expect(await handOff).toEqual({ released: true, holdOffUntil: now() + 30_000 });
    expect(state.free).toBe(true);
    expect(lock.holdOffUntil()).toBe(now() + 30_000);
    // Free, but held off: no attempt until the hold-off ends.
    expect(await lock.acquire()).toBe(false);
    expect(state.taken).toHaveLength(1);
    advance(30_000);
    expect(lock.holdOffUntil()).toBe(0);
    expect(await lock.acquire()).toBe(true);
    expect(messages().map((line) => [line[0], line[1]])).toEqual([
      [30, "took the indexer's writer lock"],
      [30, "released the indexer's writer lock"],
      [30, "took the indexer's writer lock"],
    ]);
    // Nothing asked: nothing released.
    expect(await lock.releaseIfHandedOff()).toBe(false);
  });

  it("answers a hand-off at once with released: false when it does not hold the lock", async () => {
    const { lock, state } = setup();
    state.free = false;
    await lock.acquire();
    expect(await lock.requestHandOff(30_000)).toEqual({ released: false, holdOffUntil: null });
    expect(lock.holdOffUntil()).toBe(0);
  });
});
