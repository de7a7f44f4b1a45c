export { type CursorSigner, createCursorSigner } from "./cursor-signer.ts";
export {
  type CursorCodec,
  type CursorKind,
  cursorKind,
  idCursor,
  type PagedServiceDeps,
  type PageRequest,
  textCursor,
  timeCursor,
  toPage,
} from "./cursors.ts";
