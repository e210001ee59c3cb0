import { AppError, isAppError } from "@rpcpulse/config";
import { subscribeToStatusPage } from "@rpcpulse/services/status";
import { z } from "zod";
import { clientKeyOf } from "@/features/status/client-key.js";
import { basePathFor } from "@/features/status/page-lookup.js";
import { loadSnapshot } from "@/features/status/public-route.js";
import { getStatusWriteDeps } from "@/features/status/status-deps.js";
import { errorResponse, readJsonBody } from "@/server/http.js";

export const dynamic = "force-dynamic";

const MAX_FORM_BYTES = 4 * 1024;
const Body = z.object({ kind: z.enum(["email", "webhook"]), target: z.string().max(2048) });

async function readForm(request: Request): Promise<Record<string, string>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_FORM_BYTES) throw new Error("too large");
  const text = await request.text();
  if (text.length > MAX_FORM_BYTES) throw new Error("too large");
  return Object.fromEntries(new URLSearchParams(text));
}

/**
 * POST /status/<slug>/subscription (or /subscription on the page's own domain) — JSON `{ kind, target }`
 * answers JSON (webhook subscribers get their signing secret once); the page's HTML form (urlencoded)
 * is redirected back to the page.
 */
export async function POST(request: Request, context: { params: Promise<{ slug: string }> }): Promise<Response> {
  const { slug: param } = await context.params;
  // By slug or by verified domain: the page's slug, and its own path on the host the form came from.
  const page = (await loadSnapshot(param))?.page;
  const isJson = (request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json");
  if (!page)
    return isJson
      ? errorResponse(new AppError("NOT_FOUND", "Status page not found."))
      : new Response("Not found\n", { status: 404 });
  const lookup = { slug: page.slug };
  const home = basePathFor(param, page.slug) || "/";
  if (isJson) {
    try {
      const body = await readJsonBody(request, Body, MAX_FORM_BYTES);
      const result = await subscribeToStatusPage(getStatusWriteDeps(), {
        slug: lookup.slug,
        clientKey: clientKeyOf(request),
        fields: body,
      });
      return Response.json(result, { status: 202, headers: { "cache-control": "no-store" } });
    } catch (error) {
      return errorResponse(error);
    }
  }
  let outcome = "pending";
  try {
    const form = await readForm(request);
    const result = await subscribeToStatusPage(getStatusWriteDeps(), {
      slug: lookup.slug,
      clientKey: clientKeyOf(request),
      fields: { kind: form.kind, target: form.target },
    });
    outcome = result.status === "already-confirmed" ? "already" : "pending";
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") return new Response("Not found\n", { status: 404 });
    outcome = isAppError(error) && error.code === "RATE_LIMITED" ? "limited" : "invalid";
  }
  return new Response(null, {
    status: 303,
    headers: { location: `${home}?subscription=${outcome}#subscribe`, "cache-control": "no-store" },
  });
}
