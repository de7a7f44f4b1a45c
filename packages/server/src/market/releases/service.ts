import { createHash } from "node:crypto";
import {
  type ArtworkHistory,
  type OwnReleaseList,
  type ParsedReleaseActionRequest,
  PROFILE_LIMITS,
  RELEASE_PAGE_SIZE,
  RELEASE_TRANSITIONS,
  type Release,
  type ReleaseAction,
  type ReleaseArtwork,
  type ReleaseDraft,
  type ReleaseList,
  type ReleaseStatus,
  type RevisionAction,
  releaseActionMessage,
} from "@mkt/protocol";
import { sql } from "kysely";
import { z } from "zod";
import { type Database, type Executor, isUniqueViolation } from "../../db/index.ts";
import { AppError, badRequest, conflict, forbidden, notFound } from "../../errors.ts";
import { accountForSignIn, accountOfWallet, type EnvelopeChecks, newId } from "../../identity/index.ts";
import type { CursorSigner } from "../../paging/index.ts";
import { cursorKind, idCursor, type PageRequest, toPage } from "../../paging/index.ts";
import type { Clock } from "../../quotas/limiter.ts";
import type { RuntimeCatalog } from "../runtime/index.ts";

import { type ArtworkSource, artworkChanges, artworkSourceOf, toArtwork } from "./artwork.ts";
import { PUBLIC_STATUSES, visibleTo } from "./visibility.ts";

/** The read-cache revision source of the release reads; every write moves it. */
export const RELEASES_SOURCE = "market-releases";

/** Revision numbers: the key of the history's pages. */
const revisionCursor = cursorKind(z.string().regex(/^[1-9][0-9]{0,8}$/));

export interface ReleaseServiceDeps {
  db: Database;
  clock: Clock;
  envelopes: EnvelopeChecks;
  /** The runtime catalog (market/runtime); `link` accepts only the versions it knows. */
  runtimes: Pick<RuntimeCatalog, "exists" | "dropCreator">;
  /** Moves a read-cache revision source (`revisions.bump`). */
  bump: (source: string) => Promise<void>;
  /** Signs the lists' page cursors. */
  cursors: CursorSigner;
}

/** The outcome of one accepted action. */
export type ReleaseOutcome =
  | { kind: "created"; release: Release }
  | { kind: "changed"; release: Release }
  | { kind: "deleted"; releaseId: string };

const columns = [
  "releases.id",
  "releases.status",
  "releases.revision",
  "releases.draft",
  "releases.launch_at",
  "releases.version",
  "releases.drop_id",
  "releases.updated_at",
  "releases.seq",
  "accounts.primary_address",
] as const;

interface ReleaseRow {
  id: string;
  status: ReleaseStatus;
  revision: number;
  draft: unknown;
  launch_at: string | number | null;
  version: string | null;
  drop_id: string | null;
  updated_at: Date;
  primary_address: string;
  seq: string | number;
}

function toRelease(row: ReleaseRow, summary: boolean): Release {
  const draft = row.draft as ReleaseDraft;
  return {
    id: row.id,
    owner: row.primary_address,
    status: row.status,
    revision: row.revision,
    updatedAt: row.updated_at.getTime(),
    launchAt: row.launch_at === null ? null : Number(row.launch_at),
    version: row.version,
    dropId: row.drop_id,
    ...draft,
    design: summary ? { ...draft.design, cardsByRarity: [] } : draft.design,
    cardsOmitted: summary,
  };
}

/** Every artwork URL of a release, in a fixed order. */
function artworkOf(row: ReleaseRow): string[] {
  const draft = row.draft as ReleaseDraft;
  return [
    draft.image,
    draft.design.cardImage,
    ...draft.design.tierImages,
    ...draft.design.cardsByRarity.flat().flatMap((card) => [card.image, card.firstEditionImage]),
  ];
}

/**
 * The offchain release catalog: signed actions (docs/market.md,
 * Release actions and pack edits: what is signed) and the public reads. Every accepted
 * action bumps `market-releases`, the read cache's source of the reads.
 */
/**
 * A release the public may see: it exists and is not a draft. A draft answers like a missing id, so
 * its existence is not told.
 */
function assertPublic<T extends { status: string }>(id: string, row: T | undefined): T {
  if (!row || row.status === "draft") throw notFound(`release ${id} does not exist or is not public`);
  return row;
}

export interface ReleaseService {
  /**
   * Applies one signed action. The signature is checked over the text
   * rebuilt from the parsed action (`releaseActionMessage`), so a
   * signature over any other text (a sign-in, a hand-serialised action)
   * fails; the nonce is spent in the transaction that makes the change.
   */
  apply(request: ParsedReleaseActionRequest, from: { ip: string }): Promise<ReleaseOutcome>;
  /**
   * A public page: announced, cancelled and live releases, last changed
   * first, `offset` skipped. For a signed-in caller (`accountId`), also its
   * wishlist, whole on every page: the ids oldest wish first and a summary
   * of each, limited to the releases it may see (public ones and its own
   * drafts) and to the wishlist cap. Without `accountId` both are empty, so
   * the anonymous answer is the same for everyone (the read cache keeps it).
   */
  list(offset: number, accountId?: string): Promise<ReleaseList>;
  /**
   * The account's own releases of every status, drafts included, complete,
   * last changed first (by `seq`, which every change moves), paged by an
   * opaque cursor over `seq`.
   */
  listOwn(accountId: string, page: PageRequest): Promise<OwnReleaseList>;
  /** The artwork of one public release at its current revision; a draft, like a missing id, is a 404. */
  artwork(id: string): Promise<ReleaseArtwork>;
  /**
   * The revisions of one public release, newest first, paged by an opaque
   * cursor over the revision number; `artworkOnly` keeps the revisions
   * that changed an artwork field. A draft, like a missing id, is a 404.
   */
  history(id: string, options: PageRequest & { artworkOnly: boolean }): Promise<ArtworkHistory>;
  /**
   * The public releases (no drafts) of one account as summaries, last
   * changed first, paged by an opaque cursor over `seq`.
   */
  listPublicOf(accountId: string, page: PageRequest): Promise<{ releases: Release[]; next: string | null }>;
  /** How many public releases (no drafts) an account has. */
  countPublicOf(accountId: string): Promise<number>;
  /** One complete public release; a draft, like a missing id, is a 404. */
  get(id: string): Promise<Release>;
}

export function createReleaseService({
  db,
  clock,
  envelopes,
  runtimes,
  bump,
  cursors,
}: ReleaseServiceDeps): ReleaseService {
  const selectRelease = (tx: Executor) =>
    tx.selectFrom("releases").innerJoin("accounts", "accounts.id", "releases.owner_id").select(columns);

  const readOne = async (tx: Executor, id: string) =>
    (await selectRelease(tx).where("releases.id", "=", id).executeTakeFirst()) as ReleaseRow | undefined;

  /**
   * Writes the revision a release reached, in the transaction of the action
   * that made it: the history of `GET /market/releases/{id}/artwork/history`.
   */
  async function recordRevision(
    tx: Executor,
    release: Release,
    action: RevisionAction,
    before: ArtworkSource | undefined,
  ) {
    const artwork = artworkSourceOf(release);
    const changes = artworkChanges(before, artwork);
    await tx
      .insertInto("release_revisions")
      .values({
        release_id: release.id,
        revision: release.revision,
        action,
        status: release.status,
        changes: JSON.stringify(changes),
        artwork: JSON.stringify(artwork),
        artwork_changed: changes.fields.length > 0,
        updated_at: new Date(release.updatedAt),
      })
      .execute();
  }

  /** The checks and the change of an action on an existing release, in the caller's transaction. */
  async function change(
    tx: Executor,
    action: Exclude<ReleaseAction, { kind: "create" }>,
    signer: string,
  ): Promise<ReleaseOutcome> {
    const row = await tx
      .selectFrom("releases")
      .select(["owner_id", "status", "revision", "draft"])
      .where("id", "=", action.releaseId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw notFound(`release ${action.releaseId} does not exist`);
    const signerAccount = await accountOfWallet(tx, signer);
    if (signerAccount !== row.owner_id) {
      throw forbidden("only a wallet of the release owner's account may sign actions on it");
    }
    if (action.revision !== row.revision) {
      throw conflict(
        `revision ${action.revision} is stale: the release is at revision ${row.revision}; load it and sign again`,
      );
    }
    const transition = RELEASE_TRANSITIONS[action.kind];
    if (!(transition.from as readonly string[]).includes(row.status)) {
      throw conflict(`${action.kind} is not allowed on a ${row.status} release`);
    }
    const now = clock.now();
    if (action.kind === "delete") {
      await tx.deleteFrom("releases").where("id", "=", action.releaseId).execute();
      return { kind: "deleted", releaseId: action.releaseId };
    }
    const set: {
      status?: ReleaseStatus;
      draft?: string;
      launch_at?: number;
      version?: string;
      drop_id?: string;
    } = {};
    if (transition.to !== null) set.status = transition.to;
    if (action.kind === "edit") set.draft = JSON.stringify(action.draft);
    if (action.kind === "announce" || action.kind === "reschedule") {
      if (action.launchAt <= now) throw badRequest("launchAt must be in the future");
      set.launch_at = action.launchAt;
    }
    if (action.kind === "link") {
      if (!(await runtimes.exists(action.version, tx))) {
        throw notFound(`runtime ${action.version} is not a runtime of the market (see GET /market/runtime)`);
      }
      const creator = await runtimes.dropCreator(action.version, action.dropId, tx);
      if (creator === undefined) {
        throw conflict(
          `the indexer has not seen drop ${action.dropId} in runtime ${action.version}; retry once it has`,
        );
      }
      if ((await accountOfWallet(tx, creator)) !== row.owner_id) {
        throw forbidden("the drop was not created by a wallet of the release owner's account");
      }
      const taken = await tx
        .selectFrom("releases")
        .select("id")
        .where("version", "=", action.version)
        .where("drop_id", "=", action.dropId)
        .executeTakeFirst();
      if (taken) throw conflict(`drop ${action.dropId} is already linked to release ${taken.id}`);
      set.version = action.version;
      set.drop_id = action.dropId;
    }
    try {
      await tx
        .updateTable("releases")
        .set({
          ...set,
          revision: sql`revision + 1`,
          seq: sql`nextval('releases_seq')`,
          updated_at: new Date(now),
        } as never)
        .where("id", "=", action.releaseId)
        .execute();
    } catch (error) {
      // Two releases racing to link one drop: the unique index lets one win.
      if (isUniqueViolation(error))
        throw conflict(`drop ${set.drop_id} is already linked to another release`);
      throw error;
    }
    const changed = await readOne(tx, action.releaseId);
    if (!changed) throw new AppError("internal", "the release vanished in its own transaction");
    const release = toRelease(changed, false);
    await recordRevision(tx, release, action.kind, artworkSourceOf(row.draft as ReleaseDraft));
    return { kind: "changed", release };
  }

  /**
   * One page of an account's releases, last changed first (by `seq`, which
   * every change moves), paged by an opaque cursor over `seq`: every status
   * complete (the owner's own view), or the public ones as list summaries.
   */
  async function ownerPage(
    accountId: string,
    { cursor, limit }: PageRequest,
    which: "all" | "public",
  ): Promise<{ releases: Release[]; next: string | null }> {
    let query = selectRelease(db.kysely).where("releases.owner_id", "=", accountId);
    if (which === "public") query = query.where("releases.status", "in", PUBLIC_STATUSES);
    const listCursor = idCursor.for(cursors, "owner-releases", which, accountId);
    if (cursor !== undefined) query = query.where("releases.seq", "<", listCursor.decode(cursor));
    const rows = (await query
      .orderBy("releases.seq", "desc")
      .limit(limit + 1)
      .execute()) as ReleaseRow[];
    const { items, next } = toPage(
      rows,
      limit,
      (row) => toRelease(row, which === "public"),
      listCursor,
      (row) => String(row.seq),
    );
    return { releases: items, next };
  }

  return {
    async apply(request: ParsedReleaseActionRequest, from: { ip: string }): Promise<ReleaseOutcome> {
      const { address, nonce, expires, action } = request;
      await envelopes.verifyAction(request, from, releaseActionMessage({ address, nonce, expires, action }));
      const outcome = await db.kysely.transaction().execute(async (tx) => {
        await envelopes.consumeNonce(tx, request, "release-action");
        if (action.kind !== "create") return change(tx, action, address);
        const ownerId = await accountForSignIn(tx, address);
        const id = newId("rel");
        const now = new Date(clock.now());
        await tx
          .insertInto("releases")
          .values({
            id,
            owner_id: ownerId,
            status: "draft",
            draft: JSON.stringify(action.draft),
            launch_at: null,
            version: null,
            drop_id: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        const row = await readOne(tx, id);
        if (!row) throw new AppError("internal", "the release vanished in its own transaction");
        const release = toRelease(row, false);
        await recordRevision(tx, release, "create", undefined);
        return { kind: "created" as const, release };
      });
      await bump(RELEASES_SOURCE);
      return outcome;
    },

    async list(offset: number, accountId?: string): Promise<ReleaseList> {
      const [rows, wished] = await Promise.all([
        // The page's positions first, skipping `offset` entries of the public-list index alone
        // (`releases_public`, read without the rows), then only the page's rows: a deep offset
        // costs index entries, not releases.
        selectRelease(db.kysely)
          .where(
            "releases.seq",
            "in",
            db.kysely
              .selectFrom("releases")
              .select("seq")
              .where("status", "<>", "draft")
              .orderBy("seq", "desc")
              .limit(RELEASE_PAGE_SIZE + 1)
              .offset(offset),
          )
          .orderBy("releases.seq", "desc")
          .execute() as Promise<ReleaseRow[]>,
        accountId === undefined
          ? []
          : (selectRelease(db.kysely)
              .innerJoin("wishlists", "wishlists.release_id", "releases.id")
              .where("wishlists.account_id", "=", accountId)
              .where(visibleTo(accountId))
              .orderBy("wishlists.created_at")
              .orderBy("wishlists.seq")
              .limit(PROFILE_LIMITS.wishlist)
              .execute() as Promise<ReleaseRow[]>),
      ]);
      const page = rows.slice(0, RELEASE_PAGE_SIZE);
      const artwork = JSON.stringify(page.map((row) => [row.id, artworkOf(row)]));
      return {
        releases: page.map((row) => toRelease(row, true)),
        wishlist: wished.map((row) => row.id),
        wishedReleases: wished.map((row) => toRelease(row, true)),
        more: rows.length > RELEASE_PAGE_SIZE,
        artworkHash: createHash("sha256").update(artwork).digest("hex"),
      };
    },

    listOwn(accountId: string, page: PageRequest): Promise<OwnReleaseList> {
      return ownerPage(accountId, page, "all");
    },

    async artwork(id: string): Promise<ReleaseArtwork> {
      const row = assertPublic(id, await readOne(db.kysely, id));
      return {
        releaseId: row.id,
        revision: row.revision,
        updatedAt: row.updated_at.getTime(),
        artwork: toArtwork(artworkSourceOf(row.draft as ReleaseDraft)),
      };
    },

    async history(
      id: string,
      { cursor, limit, artworkOnly }: PageRequest & { artworkOnly: boolean },
    ): Promise<ArtworkHistory> {
      assertPublic(
        id,
        await db.kysely.selectFrom("releases").select("status").where("id", "=", id).executeTakeFirst(),
      );
      let query = db.kysely
        .selectFrom("release_revisions")
        .select(["revision", "action", "status", "changes", "artwork", "updated_at"])
        .where("release_id", "=", id);
      if (artworkOnly) query = query.where("artwork_changed", "=", true);
      const historyCursor = revisionCursor.for(
        cursors,
        "release-history",
        id,
        artworkOnly ? "artwork" : "all",
      );
      if (cursor !== undefined) query = query.where("revision", "<", Number(historyCursor.decode(cursor)));
      const rows = await query
        .orderBy("revision", "desc")
        .limit(limit + 1)
        .execute();
      const { items, next } = toPage(
        rows,
        limit,
        (row) => ({
          revision: row.revision,
          updatedAt: row.updated_at.getTime(),
          action: row.action,
          status: row.status,
          changes: row.changes as ArtworkHistory["revisions"][number]["changes"],
          artwork: toArtwork(row.artwork as ArtworkSource),
        }),
        historyCursor,
        (row) => String(row.revision),
      );
      return { releaseId: id, revisions: items, next };
    },

    listPublicOf(
      accountId: string,
      page: PageRequest,
    ): Promise<{ releases: Release[]; next: string | null }> {
      return ownerPage(accountId, page, "public");
    },

    async countPublicOf(accountId: string): Promise<number> {
      const row = await db.kysely
        .selectFrom("releases")
        .select((eb) => eb.fn.countAll<string | number>().as("n"))
        .where("owner_id", "=", accountId)
        .where("status", "in", PUBLIC_STATUSES)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async get(id: string): Promise<Release> {
      return toRelease(assertPublic(id, await readOne(db.kysely, id)), false);
    },
  };
}
