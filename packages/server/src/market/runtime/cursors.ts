import { badRequest } from "../../errors.ts";
import { type CursorSigner, createCursorSigner } from "../../paging/index.ts";

export interface CursorCodec {
  /** A cursor for `position`, signed for `binding` so that only a read with the same binding accepts it. */
  encode(binding: readonly string[], position: readonly string[]): Promise<string>;
  /** The position of a cursor this server issued for `binding`; 400 for anything else. */
  decode(binding: readonly string[], cursor: string, parts: number): Promise<string[]>;
}

/**
 * The runtime reads' keyset cursors: a position (strings) signed for its
 * binding (the resource, the runtime and the filter the page was read with)
 * by the deployment's cursor signer. A cursor presented with another binding
 * (another owner, drop filter or runtime), or forged, truncated or altered,
 * is a 400; clients treat cursors as opaque.
 */
export function createCursorCodec({ key }: { key: () => Promise<Buffer> }): CursorCodec {
  let signer: Promise<CursorSigner> | undefined;
  const signerOf = (): Promise<CursorSigner> => {
    if (signer === undefined) {
      const loading = key().then(createCursorSigner);
      // A failed key load (database down) is retried by the next caller.
      loading.catch(() => {
        if (signer === loading) signer = undefined;
      });
      signer = loading;
    }
    return signer;
  };
  return {
    async encode(binding: readonly string[], position: readonly string[]): Promise<string> {
      return (await signerOf()).sign(binding, position);
    },

    async decode(binding: readonly string[], cursor: string, parts: number): Promise<string[]> {
      const position = (await signerOf()).open(binding, cursor);
      if (
        !Array.isArray(position) ||
        position.length !== parts ||
        !position.every((part) => typeof part === "string")
      ) {
        throw badRequest("cursor is not a cursor this API returned for this runtime and filter");
      }
      return position;
    },
  };
}
