export { type CursorSigner, createCursorSigner } from "./cursor-signer.ts";
