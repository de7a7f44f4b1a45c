export { predictMediaAdminRoutes } from "./admin-routes.ts";
export {
  createPredictMedia,
  PREDICT_MEDIA_SOURCE,
  type PredictMedia,
  type PredictMediaDeps,
} from "./media.ts";
export { predictMediaRoutes } from "./media-routes.ts";
