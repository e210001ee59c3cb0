import { z } from "zod";

const emptyToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

const GroupName = z.string().trim().min(1, "A name is needed.").max(80, "At most 80 characters.");

const GroupPosition = z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(10_000).optional());

/** Without a position the group goes last. */
export const GroupInput = z.object({ name: GroupName, position: GroupPosition });

/** Rename and/or move one place up or down (which renumbers the page's groups 0..n-1). */
export const GroupEdit = z
  .object({
    name: GroupName.optional(),
    move: z.preprocess(emptyToUndefined, z.enum(["up", "down"], "Move up or down.").optional()),
  })
  .refine((v) => v.name !== undefined || v.move !== undefined, {
    message: "Give a new name or a move (up or down).",
    path: ["name"],
  });

export type GroupEdit = z.input<typeof GroupEdit>;
