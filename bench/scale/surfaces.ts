// The surfaces the scale benchmark measures (`npm run bench -- scale`), one suite each
// (`scale:<id>`). A surface adds its module here: one import and one entry.
import { classicScale } from "./classic.ts";
import { marketScale } from "./market.ts";
import { predictScale } from "./predict.ts";
import type { ScaleSurface } from "./surface.ts";

export const SCALE_SURFACES: readonly ScaleSurface[] = [marketScale, classicScale, predictScale];
