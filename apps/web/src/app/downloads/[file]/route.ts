import { getEnv } from "@/env.js";
import { resolveDownloadsDir, serveDownload } from "@/features/fleet/agent-downloads.js";

export const dynamic = "force-dynamic";

/** GET /downloads/<file>: the agent's binaries, .deb packages, bundle and SHA256SUMS (404 for anything else). */
export async function GET(request: Request, context: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await context.params;
  return serveDownload({
    dir: resolveDownloadsDir(getEnv().AGENT_DOWNLOADS_DIR),
    file,
    url: request.url,
    ifNoneMatch: request.headers.get("if-none-match"),
  });
}

export const HEAD = GET;
