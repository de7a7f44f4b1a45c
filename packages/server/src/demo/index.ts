export {
  createDemoClassicActivity,
  type DemoClassicActivity,
  type DemoClassicActivityOptions,
} from "./classic-activity.ts";
export {
  DEMO_CLASSIC_ACTIVITY_STEP_MS,
  type DemoClassicActivityRun,
  type DemoClassicActivityRunOptions,
  startDemoClassicActivity,
} from "./classic-activity-run.ts";
export {
  createDemoClassicMetadata,
  type DemoClassic,
  type DemoClassicMetadataOptions,
  type DemoClassicReport,
  startDemoClassicMetadata,
} from "./classic-metadata.ts";
export {
  DEMO_CLASSIC_GAME,
  DEMO_CLASSIC_WALLET_INDICES,
  type DemoClassicActivityReport,
} from "./classic-scenario.ts";
export {
  createDemoReleaseActivity,
  DEMO_RELEASE_STEP_MS,
  type DemoReleaseActivity,
  type DemoReleaseActivityOptions,
  type DemoReleaseReport,
  type DemoReleases,
  type DemoReleasesOptions,
  seededRandom,
  startDemoReleases,
} from "./release-activity.ts";
export { DEMO_DESIGN_COUNT, demoReleaseDraft } from "./release-designs.ts";
