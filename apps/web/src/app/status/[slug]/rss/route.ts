import { renderRss } from "@/features/status/feeds.js";
import { pageUrlFor, publicStatusRoute, xmlResponse } from "@/features/status/public-route.js";

export const dynamic = "force-dynamic";

/** GET /status/<slug>/rss: RSS 2.0 of the page's incidents and maintenance. */
export const GET = publicStatusRoute((snapshot, param) =>
  xmlResponse(renderRss(snapshot, pageUrlFor(param, snapshot)), "application/rss+xml"),
);
