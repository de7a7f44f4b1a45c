import type { DmUnread, LiveEventData } from "@mkt/protocol";
import type { Logger } from "pino";
import type { LiveRow, LiveStore } from "./store.ts";
import type { Stream } from "./streams.ts";
import { anyFrame, frame, type StreamWriter } from "./writer.ts";

export interface FanOutDeps {
  store: LiveStore;
  logger: Logger;
  /** The indexer scope of the market's runtime registry (all market runtimes); other scopes are not streamed. */
  marketScope: string | undefined;
  /** An account's unread direct messages (sent after each of its DM events), once a surface registered it. */
  unread: () => ((accountId: string) => Promise<DmUnread>) | undefined;
  writer: StreamWriter;
}

/** Writes one event to the streams it is for (all of them are live or replaying, in id order). */
export type Deliver = (row: LiveRow, all: readonly Stream[]) => Promise<void>;

/**
 * The hub's fan-out of one event. Enrichment happens here, once per event:
 * `claims` events are counted from `market_claims` for the owners this
 * replica's streams watch, and a DM event is followed by the account's unread
 * count. On a resume, the same enrichment runs against the current data:
 * events are refresh signals.
 */
export function createFanOut({ store, logger, marketScope, unread, writer }: FanOutDeps): Deliver {
  const { write } = writer;

  /** Per watched owner, one `claims` frame per runtime the commit recorded claims of. */
  const claimsFor = async (row: Extract<LiveRow, { kind: "head" }>, watchers: Stream[]) => {
    const { scope, fromBlock, nextBlock } = row.payload;
    const frames = new Map<string, Buffer[]>();
    if (watchers.length === 0 || fromBlock >= nextBlock) return frames;
    const owners = [...new Set(watchers.map((stream) => stream.owner!))];
    try {
      const counts = await store.claimsIn(scope, fromBlock, nextBlock, owners);
      for (const [owner, runtimes] of counts) {
        frames.set(
          owner,
          runtimes
            .filter(({ claims }) => claims > 0)
            .map(({ version, claims }) =>
              frame("claims", { scope, version, owner, claims, fromBlock, toBlock: nextBlock - 1 }),
            ),
        );
      }
    } catch (error) {
      logger.warn({ msg: "live claims lookup failed", scope, err: error });
    }
    return frames;
  };

  /** The account's unread count, or undefined when none can be had (the DM event then carries the id). */
  const unreadOf = async (accountId: string): Promise<DmUnread | undefined> => {
    const count = unread();
    if (count === undefined) return undefined;
    return count(accountId).catch((error: unknown) => {
      logger.warn({ msg: "live unread count failed", err: error });
      return undefined;
    });
  };

  return async (row, all) => {
    // Chat streams get chat events only, predict streams predict events and their scope's heads; the market's streams neither.
    const targets =
      row.kind === "chat" || row.kind === "predict"
        ? all
        : all.filter((stream) => stream.chat === undefined && stream.predict === undefined);
    if (row.kind === "head") {
      const { scope, nextBlock, fromBlock, revision } = row.payload;
      // The finalized projection moved back (a reorg below the head, or a rebuild): continuity is gone.
      const event =
        nextBlock < fromBlock
          ? anyFrame("resync", { reason: "reorg" }, row.id)
          : anyFrame("head", { scope, finalizedBlock: nextBlock - 1, revision }, row.id);
      for (const stream of all) if (stream.predict?.scope === scope) write(stream, event, row.id);
    }
    switch (row.kind) {
      case "predict": {
        const { event, ...data } = row.payload;
        const chunk = anyFrame(event, data, row.id);
        for (const stream of targets)
          if (stream.predict?.chainId === data.chainId) write(stream, chunk, row.id);
        break;
      }
      case "chat": {
        const { chainId, contractAddress, messageId, action } = row.payload;
        const event = frame(action, { id: messageId, chainId, contractAddress }, row.id);
        for (const stream of targets) {
          if (stream.chat?.chainId === chainId && stream.chat.contractAddress === contractAddress)
            write(stream, event, row.id);
        }
        break;
      }
      case "head": {
        if (row.payload.scope !== marketScope) break;
        const { scope, nextBlock, revision } = row.payload;
        const claims = await claimsFor(
          row,
          targets.filter((stream) => stream.owner !== undefined),
        );
        const head = frame("head", { scope, nextBlock, revision }, row.id);
        for (const stream of targets) {
          const own = stream.owner === undefined ? undefined : claims.get(stream.owner);
          for (const chunk of own ?? []) write(stream, chunk);
          write(stream, head, row.id);
        }
        break;
      }
      case "release": {
        const { releaseId, revision, status } = row.payload;
        const event = frame("release", { releaseId, revision, status } as LiveEventData["release"], row.id);
        for (const stream of targets) {
          if (row.public || stream.accountId === row.accountId) write(stream, event, row.id);
        }
        break;
      }
      case "dm":
      case "dm-seen": {
        const mine = targets.filter((stream) => stream.accountId === row.accountId);
        if (mine.length === 0) break;
        const unread = await unreadOf(row.accountId);
        const event =
          row.kind === "dm"
            ? frame("dm", row.payload, unread ? undefined : row.id)
            : frame("dm-seen", row.payload, unread ? undefined : row.id);
        const count = unread && frame("unread", unread, row.id);
        for (const stream of mine) {
          write(stream, event, unread ? undefined : row.id);
          if (count) write(stream, count, row.id);
        }
        break;
      }
    }
    for (const stream of all) if (stream.through < row.id) stream.through = row.id;
  };
}
