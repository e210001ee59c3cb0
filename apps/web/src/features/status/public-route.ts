import "server-only";
import { cache } from "react";
import { isAppError } from "@rpcpulse/config";
import { getPublicStatusPage, type PublicStatusPage } from "@rpcpulse/services/status";
import { getRuntime } from "@/server/runtime.js";
import { lookupFromParam } from "./page-lookup.js";
import { getStatusPublicReadDeps } from "./status-deps.js";

/** Absolute URL of the page: its own domain when served there, else APP_BASE_URL/status/<slug>. */
export function pageUrlFor(param: string, snapshot: PublicStatusPage): string {
  const lookup = lookupFromParam(param);
  if ("domain" in lookup) return `https://${lookup.domain}`;
  return `${getRuntime().env.APP_BASE_URL.replace(/\/$/, "")}/status/${snapshot.page.slug}`;
}

/** A published page's snapshot, or null; one read per render (the layout, metadata and page share it). */
export const loadSnapshot = cache(async (param: string): Promise<PublicStatusPage | null> => {
  try {
    return await getPublicStatusPage(getStatusPublicReadDeps(), lookupFromParam(param));
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") return null;
    throw error;
  }
});

const PUBLIC_CACHE = "public, max-age=30, stale-while-revalidate=60";

/**
 * The one adapter for the public feed/badge/JSON routes: 404 for unknown pages, 500 (logged) for
 * anything unexpected, and a short public cache otherwise.
 */
export function publicStatusRoute(
  render: (snapshot: PublicStatusPage, param: string, request: Request) => Response | Promise<Response>,
) {
  return async (request: Request, context: { params: Promise<{ slug: string }> }): Promise<Response> => {
    const { slug } = await context.params;
    try {
      const snapshot = await loadSnapshot(slug);
      if (!snapshot)
        return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
      const response = await render(snapshot, slug, request);
      if (!response.headers.has("cache-control")) response.headers.set("cache-control", PUBLIC_CACHE);
      response.headers.set("x-content-type-options", "nosniff");
      return response;
    } catch (error) {
      getRuntime().logger.error({ err: error instanceof Error ? error.stack : String(error) }, "status route failed");
      return new Response("Internal error\n", {
        status: 500,
        headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
      });
    }
  };
}

export function xmlResponse(body: string, type: string): Response {
  return new Response(body, { headers: { "content-type": `${type}; charset=utf-8` } });
}

/**
 * JSON with <, > and & as \u escapes: feed texts are plain text that may contain markup-like
 * characters, and a naive consumer that pastes them into HTML gets inert text.
 */
export function safeJsonResponse(body: unknown, contentType = "application/json"): Response {
  const text = JSON.stringify(body).replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return new Response(text, { headers: { "content-type": `${contentType}; charset=utf-8` } });
}
