/**
 * The package root: each area's `index.ts` names its public exports one by
 * one, and the root passes every area on whole, so a name is listed once, in
 * its area. Two areas exporting one name is a type error here, never a
 * silent shadowing.
 */
export * from "./account/index.ts";
export * from "./classic/index.ts";
export * from "./errors/index.ts";
export * from "./keys/index.ts";
export * from "./market/index.ts";
export * from "./params/index.ts";
export * from "./platform/index.ts";
export * from "./predict/index.ts";
export * from "./quotas/index.ts";
