import { BADGE_COLORS, renderBadgeSvg, type BadgeSpec } from "@/features/directory/badge-svg.js";
import { loadSnapshot } from "@/features/status/public-route.js";
import { parseStatusBadgeMetric, statusBadgeFor } from "@/features/status/status-badge.js";
import { getRuntime } from "@/server/runtime.js";

export const dynamic = "force-dynamic";

function svg(spec: BadgeSpec, status: number, cache = "public, max-age=60"): Response {
  return new Response(renderBadgeSvg(spec), {
    status,
    headers: {
      "content-type": "image/svg+xml; charset=utf-8",
      "cache-control": cache,
      "x-content-type-options": "nosniff",
    },
  });
}

/**
 * GET /status/<slug>/badge/page.svg and /status/<slug>/badge/<componentId>.svg, ?metric=status|uptime.
 * Only components the page lists have badges; anything else is the same 404.
 */
export async function GET(
  request: Request,
  context: { params: Promise<{ slug: string; file: string }> },
): Promise<Response> {
  const { slug, file } = await context.params;
  const metric = parseStatusBadgeMetric(new URL(request.url).searchParams.get("metric"));
  if (metric === null) return svg({ label: "status", message: "unknown metric", color: BADGE_COLORS.grey }, 400);
  const notFound = svg({ label: "status", message: "not found", color: BADGE_COLORS.grey }, 404);
  try {
    const snapshot = await loadSnapshot(slug);
    if (!snapshot) return notFound;
    const spec = statusBadgeFor(snapshot, file, metric);
    return spec ? svg(spec, 200) : notFound;
  } catch (error) {
    getRuntime().logger.error({ err: error instanceof Error ? error.stack : String(error) }, "status badge failed");
    return svg({ label: "status", message: "error", color: BADGE_COLORS.grey }, 500, "no-store");
  }
}
