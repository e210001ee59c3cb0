import { AppError } from "@rpcpulse/config";
import { exportSuggestionsScript } from "@rpcpulse/services/advisor";
import { resolveServiceContext } from "@rpcpulse/services/context";
import { errorResponse, requireApiSession } from "@/server/http.js";
import { getRuntime } from "@/server/runtime.js";

export const dynamic = "force-dynamic";

/**
 * GET /app/o/:slug/advisor/export[?node=<id>]: the open suggestions as a commented shell script for
 * review (a download). Any member; 404 when not a member of the organization.
 */
export async function GET(request: Request, context: { params: Promise<{ slug: string }> }): Promise<Response> {
  try {
    const { slug } = await context.params;
    const session = await requireApiSession(request);
    const { prisma } = getRuntime();
    const ctx = await resolveServiceContext({ prisma }, { userId: session.userId, organizationSlug: slug });
    const node = new URL(request.url).searchParams.get("node");
    if (node !== null && node.length > 64) throw new AppError("NOT_FOUND", "Node not found.");
    const script = await exportSuggestionsScript({ prisma }, ctx, node ? { nodeId: node } : {});
    return new Response(script.content, {
      headers: {
        "content-type": "text/x-shellscript; charset=utf-8",
        "content-disposition": `attachment; filename="${script.filename}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
