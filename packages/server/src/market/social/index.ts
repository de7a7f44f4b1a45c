import { socialActionResultSchemas } from "@mkt/protocol";
import type { FeatureDeps, MarketFeature } from "../feature.ts";
import { dmRoutes } from "./dm-routes.ts";
import { createDmService } from "./dms.ts";
import { followRoutes } from "./follow-routes.ts";
import { createFollowService } from "./follows.ts";
import { createReportExpiry, REPORT_EXPIRY_SAFETY_MS } from "./report-expiry.ts";
import { roomRoutes } from "./room-routes.ts";
import { createRoomService } from "./rooms.ts";
import { createSafetyService } from "./safety.ts";

export { REPORT_EXPIRY_SAFETY_MS, REPORTS_CHANNEL } from "./report-expiry.ts";
export { REPORT_RETENTION_MS } from "./safety.ts";

/**
 * The market's social area: chat rooms, direct messages, follows, safety
 * settings, blocks and abuse reports. Its `POST /market/account` kinds act as
 * the account session's wallet; its routes are the DM reads (account
 * session), the room and follow writes (chat session) and the public room
 * and follower reads.
 */
export function socialFeature({ db, clock, logger, cursors }: FeatureDeps): MarketFeature {
  const dms = createDmService({ db, clock, cursors });
  const rooms = createRoomService({ db, clock, cursors });
  const follows = createFollowService({ db, clock, cursors });
  const expiry = createReportExpiry({
    db,
    clock,
    logger,
    sweep: () => safety.sweepReports(),
    nextExpiry: () => safety.nextReportExpiry(),
  });
  const safety = createSafetyService({ db, clock, announceReport: (at) => expiry.announce(at) });

  return {
    actionResults: Object.fromEntries(
      Object.entries(socialActionResultSchemas).map(([kind, schema]) => [
        kind,
        `\`{${Object.keys(schema.shape).join(", ")}}\``,
      ]),
    ),
    actions: {
      "room-create": async ({ session }, action) => rooms.create(session, action),
      "chat-send": async ({ session }, action) =>
        rooms.send(session, action.roomId, { body: action.body, replyTo: action.replyTo }),
      "chat-delete": async ({ session }, action) => rooms.deleteMessage(session, action.messageId),
      dm: async ({ session }, action) => dms.send(session, action.to, action.body),
      "dm-seen": async ({ session }, action) => dms.markSeen(session, action.with, action.upTo),
      follow: async ({ session }, action) => follows.follow(session, action.address),
      unfollow: async ({ session }, action) => follows.unfollow(session, action.address),
      "safety-update": async ({ session }, action) => safety.update(session, action.dmPolicy),
      block: async ({ session }, action) => safety.block(session, action.address),
      unblock: async ({ session }, action) => safety.unblock(session, action.address),
      report: async ({ session }, action) => safety.report(session, action),
    },
    routes: [...dmRoutes(dms), ...roomRoutes(rooms), ...followRoutes(follows)],
    jobs: [
      {
        // The worker deletes each report at its expiry, woken by the notification of every filed
        // report; this pass only bounds what a lost notification could delay.
        name: "report expiry",
        intervalMs: REPORT_EXPIRY_SAFETY_MS,
        async run() {
          const deleted = await safety.sweepReports();
          if (deleted > 0) logger.info({ msg: "expired reports deleted", count: deleted });
        },
      },
    ],
    start: () => expiry.start(),
    stop: () => expiry.stop(),
  };
}
