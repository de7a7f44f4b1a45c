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
export { classicImageRoutes } from "./image-routes.ts";
export { createClassicImageLinks } from "./links.ts";
export {
  createImageProxyPolicy,
  IMAGE_PROXY_PORTS,
  type ImageProxyPolicy,
  type ImageProxyPolicyOptions,
} from "./proxy-policy.ts";
