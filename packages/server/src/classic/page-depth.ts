import { CLASSIC_ERROR_CODES, CLASSIC_MAX_PAGE_DEPTH } from "@mkt/protocol";
import { badRequest } from "../errors.ts";

/**
 * Refuses an offset page of a large list whose last row lies deeper than
 * `CLASSIC_MAX_PAGE_DEPTH` (400 `PAGE_TOO_DEEP`): an offset page costs every
 * row it skips, so past that depth a page would cost more than the target of
 * a read allows and more with every page.
 */
export function assertPageDepth(page: number, limit: number): void {
  if (page * limit <= CLASSIC_MAX_PAGE_DEPTH) return;
  throw badRequest(
    `page ${page} of ${limit} reaches row ${page * limit}; pages of this list reach at most row ${CLASSIC_MAX_PAGE_DEPTH} (narrow the list with its filters to go further)`,
    CLASSIC_ERROR_CODES.pageTooDeep,
  );
}
