import { createHash } from "node:crypto";
import {
  type OwnReleaseList,
  type ParsedReleaseActionRequest,
  RELEASE_PAGE_SIZE,
  RELEASE_TRANSITIONS,
  type Release,
  type ReleaseAction,
  type ReleaseDraft,
  type ReleaseList,
  type ReleaseStatus,
  releaseActionMessage,
} from "@mkt/protocol";
import { sql } from "kysely";
import { type Database, type Executor, isUniqueViolation } from "../../db/index.ts";
import { AppError, badRequest, conflict, forbidden, notFound } from "../../errors.ts";
import type { Clock } from "../../quotas/limiter.ts";
import type { EnvelopeChecks } from "../accounts/envelopes.ts";
import { newId } from "../accounts/tokens.ts";
import { accountForSignIn, accountOfWallet } from "../accounts/wallets.ts";
import type { RuntimeCatalog } from "../runtime/index.ts";
import { idCursor, type PageRequest, toPage } from "../social/paging.ts";

/** The read-cache revision source of the release reads; every write moves it. */
export const RELEASES_SOURCE = "market-releases";

/** Statuses anyone may read; a draft is its owner's alone. */
const PUBLIC_STATUSES = ["announced", "cancelled", "live"] as const;

export interface ReleaseServiceDeps {
  db: Database;
  clock: Clock;
  envelopes: EnvelopeChecks;
  /** The runtime catalog (market/runtime); `link` accepts only the versions it knows. */
  runtimes: Pick<RuntimeCatalog, "exists">;
  /** Moves a read-cache revision source (`revisions.bump`). */
  bump: (source: string) => Promise<void>;
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
 * The offchain release catalog: signed actions (market-api.md section 4,
 * "Release action signature message") and the public reads. Every accepted
 * action bumps `market-releases`, the read cache's source of the reads.
 */
export function createReleaseService({ db, clock, envelopes, runtimes, bump }: ReleaseServiceDeps) {
  const selectRelease = (tx: Executor) =>
    tx.selectFrom("releases").innerJoin("accounts", "accounts.id", "releases.owner_id").select(columns);

  const readOne = async (tx: Executor, id: string) =>
    (await selectRelease(tx).where("releases.id", "=", id).executeTakeFirst()) as ReleaseRow | undefined;

  /** The checks and the change of an action on an existing release, in the caller's transaction. */
  async function change(
    tx: Executor,
    action: Exclude<ReleaseAction, { kind: "create" }>,
    signer: string,
  ): Promise<ReleaseOutcome> {
    const row = await tx
      .selectFrom("releases")
      .select(["owner_id", "status", "revision"])
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
      const drop = await sql<{ creator: string }>`
        SELECT creator FROM market_drops
        WHERE runtime_id = ${action.version} AND drop_id = ${action.dropId}::numeric`.execute(tx);
      const creator = drop.rows[0]?.creator;
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
    const release = await readOne(tx, action.releaseId);
    if (!release) throw new AppError("internal", "the release vanished in its own transaction");
    return { kind: "changed", release: toRelease(release, false) };
  }

  return {
    /**
     * Applies one signed action. The signature is checked over the text
     * rebuilt from the parsed action (`releaseActionMessage`), so a
     * signature over any other text (a sign-in, a hand-serialised action)
     * fails; the nonce is spent in the transaction that makes the change.
     */
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
        return { kind: "created" as const, release: toRelease(row, false) };
      });
      await bump(RELEASES_SOURCE);
      return outcome;
    },

    /** A public page: announced, cancelled and live releases, last changed first, `offset` skipped. */
    async list(offset: number): Promise<ReleaseList> {
      const rows = (await selectRelease(db.kysely)
        .where("releases.status", "in", PUBLIC_STATUSES)
        .orderBy("releases.seq", "desc")
        .limit(RELEASE_PAGE_SIZE + 1)
        .offset(offset)
        .execute()) as ReleaseRow[];
      const page = rows.slice(0, RELEASE_PAGE_SIZE);
      const artwork = JSON.stringify(page.map((row) => [row.id, artworkOf(row)]));
      return {
        releases: page.map((row) => toRelease(row, true)),
        wishlist: [],
        wishedReleases: [],
        more: rows.length > RELEASE_PAGE_SIZE,
        artworkHash: createHash("sha256").update(artwork).digest("hex"),
      };
    },

    /**
     * The account's own releases of every status, drafts included, complete,
     * last changed first (by `seq`, which every change moves), paged by an
     * opaque cursor over `seq`.
     */
    async listOwn(accountId: string, { cursor, limit }: PageRequest): Promise<OwnReleaseList> {
      let query = selectRelease(db.kysely).where("releases.owner_id", "=", accountId);
      if (cursor !== undefined) query = query.where("releases.seq", "<", idCursor.decode(cursor));
      const rows = (await query
        .orderBy("releases.seq", "desc")
        .limit(limit + 1)
        .execute()) as ReleaseRow[];
      const { items, next } = toPage(
        rows,
        limit,
        (row) => toRelease(row, false),
        idCursor,
        (row) => String(row.seq),
      );
      return { releases: items, next };
    },

    /** One complete public release; a draft, like a missing id, is a 404. */
    async get(id: string): Promise<Release> {
      const row = await readOne(db.kysely, id);
      if (!row || row.status === "draft") throw notFound(`release ${id} does not exist or is not public`);
      return toRelease(row, false);
    },
  };
}

export type ReleaseService = ReturnType<typeof createReleaseService>;
