import { confirmStatusSubscription } from "@rpcpulse/services/status";
import { lookupFromParam } from "@/features/status/page-lookup.js";
import { getStatusReadDeps } from "@/features/status/status-deps.js";

export const dynamic = "force-dynamic";

/** GET /status/<slug>/subscription/confirm?token=… — the link of the confirmation message. */
export async function GET(request: Request, context: { params: Promise<{ slug: string }> }): Promise<Response> {
  const { slug } = await context.params;
  const lookup = lookupFromParam(slug);
  if (!("slug" in lookup)) return new Response("Not found\n", { status: 404 });
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { confirmed } = await confirmStatusSubscription(getStatusReadDeps(), { token });
  return new Response(null, {
    status: 303,
    headers: {
      location: `/status/${encodeURIComponent(lookup.slug)}?subscription=${confirmed ? "confirmed" : "expired"}#subscribe`,
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    },
  });
}
