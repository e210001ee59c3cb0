import { renderJsonFeed } from "@/features/status/feeds.js";
import { pageUrlFor, publicStatusRoute, safeJsonResponse } from "@/features/status/public-route.js";

export const dynamic = "force-dynamic";

/** GET /status/<slug>/feed.json: JSON Feed 1.1 of the page's incidents and maintenance. */
export const GET = publicStatusRoute((snapshot, param) =>
  safeJsonResponse(renderJsonFeed(snapshot, pageUrlFor(param, snapshot)), "application/feed+json"),
);
