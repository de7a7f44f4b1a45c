export * from "./common.ts";
export * from "./games.ts";
export * from "./settings.ts";
