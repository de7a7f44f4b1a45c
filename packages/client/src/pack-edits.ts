import {
  type PackEdit,
  type PackEditActionInput,
  packEditMessage,
  packEditSchema,
  parsePackEditAction,
} from "@mkt/protocol";
import type { Transport } from "./http.ts";
import { type MktSigner, type SigningOptions, signFields } from "./signer.ts";

/** Names or annotates a pack the signing wallet holds (`POST /market/runtime/{version}/pack-edit`). */
export type PackEditApi = (
  signer: MktSigner,
  version: string,
  input: PackEditActionInput,
  options?: SigningOptions,
) => Promise<PackEdit>;

export function packEditApi(request: Transport): PackEditApi {
  /**
   * Names or annotates a pack the signing wallet holds in runtime `version`
   * (`POST /market/runtime/{version}/pack-edit`): `set-name` or `set-note` on
   * `packId` (a decimal string), `null` clearing the field. `version` is a
   * runtime id from `GET /market/runtime`. The action is parsed with
   * `parsePackEditAction` and signed over `packEditMessage` with a fresh nonce
   * and a two-minute expiry; the answer is the holder's labels on the pack.
   * A wallet that holds no such pack gets an `MktApiError` with status 403,
   * an unknown runtime 404.
   *
   * @example
   * ```ts
   * import { privateKeyToAccount } from "viem/accounts";
   *
   * const account = privateKeyToAccount(privateKey);
   * const edit = await client.market.packEdit(account, "r2", { kind: "set-name", packId: "7", name: "Rare pulls" });
   * console.log(edit.name, edit.updatedAt);
   * ```
   */
  return async function packEdit(
    signer: MktSigner,
    version: string,
    input: PackEditActionInput,
    options?: SigningOptions,
  ): Promise<PackEdit> {
    const action = parsePackEditAction(input);
    const { signature, ...fields } = await signFields(
      signer,
      (fields) => packEditMessage({ ...fields, version, action }),
      options,
    );
    const { body } = await request<unknown>({
      method: "POST",
      path: `/market/runtime/${encodeURIComponent(version)}/pack-edit`,
      body: { ...fields, action, signature },
    });
    return packEditSchema.parse(body);
  };
}
