import { authorizeMetricsRequest } from "@rpcpulse/services/platform";
import { getRuntime } from "@/server/runtime.js";

export const dynamic = "force-dynamic";

/**
 * GET /metrics: the web process's platform metrics (Prometheus text) for `Authorization: Bearer
 * <METRICS_TOKEN>`; 404 while METRICS_TOKEN is unset, 401 with another token.
 */
export async function GET(request: Request): Promise<Response> {
  const { env, metrics } = getRuntime();
  const access = authorizeMetricsRequest(request.headers.get("authorization"), env.METRICS_TOKEN);
  if (access !== "ok") {
    return Response.json(
      { error: access === "disabled" ? "not found" : "Bearer METRICS_TOKEN required" },
      { status: access === "disabled" ? 404 : 401, headers: { "cache-control": "no-store" } },
    );
  }
  const { contentType, body } = await metrics.render();
  return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
}
