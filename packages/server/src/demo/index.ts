export {
  createDemoClassicMetadata,
  type DemoClassic,
  type DemoClassicMetadataOptions,
  type DemoClassicReport,
  startDemoClassicMetadata,
} from "./classic-metadata.ts";
export {
  createDemoReleaseActivity,
  type DemoReleaseActivity,
  type DemoReleaseActivityOptions,
  type DemoReleaseReport,
  type DemoReleases,
  type DemoReleasesOptions,
  seededRandom,
  startDemoReleases,
} from "./release-activity.ts";
export { DEMO_DESIGN_COUNT, demoReleaseDraft } from "./release-designs.ts";
