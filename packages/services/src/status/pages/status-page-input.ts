import { z } from "zod";

const RESERVED_SLUGS = new Set(["new", "api", "admin", "app", "static", "assets"]);

export const PageInput = z.object({
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9][a-z0-9-]{1,62}$/, "2–63 characters: lower-case letters, digits and dashes.")
    .refine((s) => !RESERVED_SLUGS.has(s), "That slug is reserved."),
  title: z.string().trim().min(1, "A title is needed.").max(120),
  description: z.string().trim().max(1_000).default(""),
  isPublic: z
    .union([z.boolean(), z.enum(["on", "true", "false", ""])])
    .default(false)
    .transform((v) => v === true || v === "on" || v === "true"),
  accentColor: z
    .string()
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, "A colour like #2563eb.")
    .default("#2563eb"),
  theme: z.enum(["auto", "light", "dark"]).default("auto"),
});

export type PageInput = z.input<typeof PageInput>;

export const Uuid = z.string().uuid();

export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "P2002";
}
