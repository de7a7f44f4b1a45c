import { CLASSIC_ERROR_CODES, CLASSIC_UPLOADS } from "@mkt/protocol";
import type { FastifyRequest } from "fastify";
import { AppError, badRequest } from "../../errors.ts";
import { findRefusedText } from "../../http/input-text.ts";
import type { UploadedFile } from "./store.ts";

const ONE_FILE = `send exactly one file, in the multipart field \`${CLASSIC_UPLOADS.field}\`, and no other field`;

/** The multipart reader's refusals (`@fastify/multipart` codes) as the classic errors they are. */
function translate(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case "FST_REQ_FILE_TOO_LARGE":
      return new AppError(
        "payload_too_large",
        `the file is larger than ${CLASSIC_UPLOADS.maxBytes / 1024 / 1024} MiB`,
        { code: CLASSIC_ERROR_CODES.imageTooLarge },
      );
    case "FST_PARTS_LIMIT":
    case "FST_FILES_LIMIT":
    case "FST_FIELDS_LIMIT":
    case "FST_PROTO_VIOLATION":
      return badRequest(ONE_FILE);
    case "FST_INVALID_MULTIPART_CONTENT_TYPE":
      return notMultipart();
    default:
      // Anything else the reader refuses is a body that is not well-formed multipart.
      return badRequest("the multipart body is malformed");
  }
}

const notMultipart = () =>
  new AppError(
    "unsupported_media_type",
    `send the image as multipart/form-data, in the field \`${CLASSIC_UPLOADS.field}\``,
  );

/**
 * Reads the one file part of an upload request: the route's scope parses
 * multipart with limits (one part, no field, the byte cap), so the reader
 * stops the stream at the cap and refuses a second part. Every refusal is a
 * 4xx in the classic body: 415 for a body that is not multipart, 413 for a
 * file over the cap, 400 for anything else.
 */
export async function readUploadedFile(request: FastifyRequest): Promise<UploadedFile> {
  if (!request.isMultipart()) throw notMultipart();
  let file: UploadedFile | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== "file" || part.fieldname !== CLASSIC_UPLOADS.field) throw badRequest(ONE_FILE);
      // The request-text rule of every other input (no NUL, unpaired surrogate or bidirectional
      // control), for the one string a multipart body carries past the pipeline's check.
      const refused = findRefusedText(part.filename ?? "");
      if (refused !== undefined) throw badRequest(`the file name holds ${refused.character}`);
      file = { bytes: await part.toBuffer(), declaredType: part.mimetype, filename: part.filename ?? "" };
    }
  } catch (error) {
    throw translate(error);
  }
  if (file === undefined) throw badRequest(`no file: ${ONE_FILE}`);
  return file;
}
