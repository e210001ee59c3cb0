import { DirectoryCapability, DirectoryWindow } from "@rpcpulse/services/directory";
import { z } from "zod";
import { RANKED_SORT_KEYS } from "@/features/directory/view-model.js";

/**
 * The ranked page's filters, all in the URL (shareable, no client state). Bad values fall back to
 * the defaults instead of failing the page.
 */
export const DirectorySearch = z.object({
  region: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/)
    .catch("all")
    .default("all"),
  cap: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => {
      const list = v === undefined ? [] : Array.isArray(v) ? v : [v];
      return [...new Set(list.filter((c): c is DirectoryCapability => DirectoryCapability.safeParse(c).success))];
    }),
  min: z.coerce.number().int().min(0).max(100).catch(0).default(0),
  window: DirectoryWindow.catch("24h").default("24h"),
  /** Text search over name, provider, operator and URL. */
  q: z.string().trim().max(100).catch("").default(""),
  sort: z.enum(RANKED_SORT_KEYS).catch("rank").default("rank"),
  dir: z.enum(["asc", "desc"]).catch("asc").default("asc"),
});
export type DirectorySearch = z.output<typeof DirectorySearch>;

export const CAPABILITY_LABELS: Record<DirectoryCapability, string> = {
  archive: "Archive",
  websocket: "WebSocket",
  trace: "Trace",
  batch: "Batch",
  cors: "CORS",
  debug: "Debug",
  logs: "Logs",
};

/** Query string of the same filters, for the JSON API link and canonical links (defaults left out). */
export function toQuery(s: DirectorySearch): string {
  const q = new URLSearchParams();
  if (s.region !== "all") q.set("region", s.region);
  if (s.cap.length > 0) q.set("capability", s.cap.join(","));
  if (s.min > 0) q.set("minScore", String(s.min));
  if (s.window !== "24h") q.set("window", s.window);
  const text = q.toString();
  return text ? `?${text}` : "";
}
