import { unsubscribeFromStatusPage } from "@rpcpulse/services/status";
import { escapeXml } from "@/features/directory/badge-svg.js";
import { lookupFromParam } from "@/features/status/page-lookup.js";
import { getStatusReadDeps } from "@/features/status/status-deps.js";

export const dynamic = "force-dynamic";

function html(body: string, status = 200): Response {
  return new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Unsubscribe</title></head><body>${body}</body></html>`,
    {
      status,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
        "content-security-policy": "default-src 'none'; form-action 'self'; frame-ancestors 'none'",
      },
    },
  );
}

/**
 * GET shows a one-button form (mail scanners that follow links unsubscribe nobody); POST — the
 * button, or a mail client's RFC 8058 one-click (List-Unsubscribe-Post) — removes the subscriber.
 */
export async function GET(request: Request, context: { params: Promise<{ slug: string }> }): Promise<Response> {
  const { slug } = await context.params;
  const lookup = lookupFromParam(slug);
  if (!("slug" in lookup)) return html("<p>Not found.</p>", 404);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const action = `/status/${encodeURIComponent(lookup.slug)}/subscription/unsubscribe?token=${encodeURIComponent(token)}`;
  return html(
    `<main><h1>Unsubscribe</h1><p>Stop receiving incident updates from this status page?</p><form method="post" action="${escapeXml(action)}"><button type="submit">Unsubscribe</button></form></main>`,
  );
}

export async function POST(request: Request, context: { params: Promise<{ slug: string }> }): Promise<Response> {
  const { slug } = await context.params;
  const lookup = lookupFromParam(slug);
  if (!("slug" in lookup)) return html("<p>Not found.</p>", 404);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { unsubscribed } = await unsubscribeFromStatusPage(getStatusReadDeps(), { token });
  return unsubscribed
    ? html(
        `<main><h1>Unsubscribed</h1><p>You will not receive further updates. <a href="/status/${escapeXml(encodeURIComponent(lookup.slug))}">Back to the status page</a></p></main>`,
      )
    : html("<main><h1>Link not valid</h1><p>This unsubscribe link is unknown or was already used.</p></main>", 404);
}
