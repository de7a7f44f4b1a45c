/**
 * Media: the image proxy (its host and port policy, the fetcher and its
 * cache), signed proxy links, generated art, and the checks every uploaded
 * image passes before it is stored.
 */
export { isAllowedHost, isLoopbackAddress, isPublicAddress } from "./address-policy.ts";
export { renderArt } from "./art.ts";
export {
  CLASSIC_IMAGE_ERRORS,
  createImageFetcher,
  type FetchedImage,
  IMAGE_TYPES,
  type ImageFetcher,
  type ImageFetcherOptions,
} from "./fetcher.ts";
export type { ImageLinks } from "./links.ts";
export { artUrl, bypassesImageProxy, createImageLinks } from "./links.ts";
export { createClassicImageLinks } from "./proxy-links.ts";
export {
  createImageProxyPolicy,
  IMAGE_PROXY_PORTS,
  type ImageProxyPolicy,
  type ImageProxyPolicyOptions,
} from "./proxy-policy.ts";
export type { ImageRules, UploadContentType, VerifiedImage } from "./uploads.ts";
export {
  asBuffer,
  IMAGE_LIMITS,
  InvalidImageError,
  normaliseAvatar,
  pixelate,
  readUpload,
  verifyImageBytes,
  verifyPixels,
} from "./uploads.ts";
