import { z } from "zod";

/** `GET /classic/unboxing-disallowed`: whether opening packs is currently refused by the operator. */
export const classicUnboxingSchema = z
  .object({
    disallowed: z
      .boolean()
      .describe(
        "True while the operator disallows unboxing: clients should not offer to open packs (the drop contracts themselves are not paused by it).",
      ),
  })
  .meta({ id: "ClassicUnboxing" });
export type ClassicUnboxing = z.infer<typeof classicUnboxingSchema>;

/** `PUT /admin/classic/unboxing-disallowed` on the operator listener. */
export const adminClassicUnboxingSchema = z.object({ disallowed: z.boolean() }).strict();
