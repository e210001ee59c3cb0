import { AppError } from "@rpcpulse/config";
import { z } from "zod";
import { renderMarkdown } from "../render-markdown.js";
import { Ids } from "./incident-input.js";

export const MaintenanceInput = z
  .object({
    title: z.string().trim().min(1, "A title is needed.").max(200),
    body: z.string().trim().max(10_000).default(""),
    startsAt: z.coerce.date({ error: "A start time is needed." }),
    endsAt: z.coerce.date({ error: "An end time is needed." }),
    componentIds: Ids,
  })
  .refine((v) => v.endsAt > v.startsAt, { message: "The end must be after the start.", path: ["endsAt"] })
  .refine((v) => v.endsAt.getTime() - v.startsAt.getTime() <= 30 * 86_400_000, {
    message: "At most 30 days.",
    path: ["endsAt"],
  });

/** The stored fields of a window; the message is rendered with the sanitizing Markdown renderer. */
export function maintenanceRow(fields: z.output<typeof MaintenanceInput>) {
  const { title, body, startsAt, endsAt, componentIds } = fields;
  return { title, body, bodyHtml: renderMarkdown(body), startsAt, endsAt, componentIds };
}

export function requirePageComponents(allowed: Set<string>, componentIds: string[]): void {
  if (componentIds.length === 0 || componentIds.some((id) => !allowed.has(id))) {
    throw new AppError("VALIDATION", "Pick components of this page.", { details: { field: "componentIds" } });
  }
}
