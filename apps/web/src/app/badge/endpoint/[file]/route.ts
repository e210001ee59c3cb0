import { isAppError } from "@rpcpulse/config";
import { getEndpointDetail } from "@rpcpulse/services/directory";
import { badgeFor, parseBadgeMetric } from "@/features/directory/badge-metric.js";
import { factsFromDetail } from "@/features/directory/badge-facts.js";
import { BADGE_COLORS, renderBadgeSvg, type BadgeSpec } from "@/features/directory/badge-svg.js";
import { getRuntime } from "@/server/runtime.js";

export const dynamic = "force-dynamic";

function svg(spec: BadgeSpec, status: number): Response {
  return new Response(renderBadgeSvg(spec), {
    status,
    headers: {
      "content-type": "image/svg+xml; charset=utf-8",
      "cache-control": "public, max-age=60",
      "x-content-type-options": "nosniff",
    },
  });
}

/** GET /badge/endpoint/<id>.svg?metric=status|uptime|latency|score: a shields-style SVG badge. */
export async function GET(request: Request, context: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await context.params;
  const metric = parseBadgeMetric(new URL(request.url).searchParams.get("metric"));
  if (metric === null) return svg({ label: "rpc", message: "unknown metric", color: BADGE_COLORS.grey }, 400);
  const id = file.endsWith(".svg") ? file.slice(0, -4) : null;
  const notFound = () => svg({ label: "rpc", message: "not found", color: BADGE_COLORS.grey }, 404);
  if (id === null) return notFound();
  try {
    const detail = await getEndpointDetail({ sql: getRuntime().reads.sql }, { endpointId: id });
    return svg(badgeFor(metric, factsFromDetail(detail)), 200);
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") return notFound();
    getRuntime().logger.error({ err: error instanceof Error ? error.stack : String(error) }, "badge failed");
    return new Response(renderBadgeSvg({ label: "rpc", message: "error", color: BADGE_COLORS.grey }), {
      status: 500,
      headers: { "content-type": "image/svg+xml; charset=utf-8", "cache-control": "no-store" },
    });
  }
}
