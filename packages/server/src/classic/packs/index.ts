export type { ActivityReader } from "./activity.ts";
export { createActivityReader, objectIdOf } from "./activity.ts";
export type { DrawnCard } from "./card.ts";
export { drawPackCard, isFirstEdition } from "./card.ts";
export type { PackReader, PackReaderDeps } from "./reader.ts";
export { createPackReader } from "./reader.ts";
export { classicPackRoutes } from "./routes.ts";
