import { classicCreatorUrls, isPlainHttpUrl } from "@mkt/protocol";
import { badRequest } from "../../errors.ts";

/** Refuses a creator content's URLs whose scheme this server does not take (400). */
export type CreatorUrlCheck = (content: Parameters<typeof classicCreatorUrls>[0]) => void;

/**
 * The protocol schema takes http(s) creator URLs; on a production chain plain
 * http is refused too (400). `plainHttpUrls` is true only while the classic
 * chain is a dev chain of this process.
 */
export function creatorUrlCheck(plainHttpUrls: boolean): CreatorUrlCheck {
  return (content) => {
    if (plainHttpUrls) return;
    const plain = classicCreatorUrls(content).find(({ url }) => isPlainHttpUrl(url));
    if (plain)
      throw badRequest(
        `${plain.field} must be an https:// URL: plain http:// is accepted only on a dev chain`,
      );
  };
}
