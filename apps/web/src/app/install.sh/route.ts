import { getEnv } from "@/env.js";
import { resolveDownloadsDir, serveInstallScript } from "@/features/fleet/agent-downloads.js";

export const dynamic = "force-dynamic";

/** GET /install.sh: the agent installer (curl -fsSL <app>/install.sh | sudo sh -s -- --token rpa_…). */
export function GET(): Response {
  const env = getEnv();
  return serveInstallScript({ dir: resolveDownloadsDir(env.AGENT_DOWNLOADS_DIR), baseUrl: env.APP_BASE_URL });
}

export const HEAD = GET;
