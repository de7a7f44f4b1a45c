/** Creator image uploads of the classic surface, stored in the database and served publicly. */
export { readUploadedFile } from "./multipart.ts";
export {
  type ClassicUploadLimits,
  type ClassicUploadsService,
  createClassicUploads,
  type StoredUpload,
  type UploadedFile,
} from "./store.ts";
export { classicUploadRoutes } from "./upload-routes.ts";
