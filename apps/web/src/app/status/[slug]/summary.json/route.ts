import { renderSummary } from "@/features/status/feeds.js";
import { pageUrlFor, publicStatusRoute, safeJsonResponse } from "@/features/status/public-route.js";

export const dynamic = "force-dynamic";

/** GET /status/<slug>/summary.json: current state of every listed component, active incidents, maintenance. */
export const GET = publicStatusRoute((snapshot, param) =>
  safeJsonResponse(renderSummary(snapshot, pageUrlFor(param, snapshot))),
);
