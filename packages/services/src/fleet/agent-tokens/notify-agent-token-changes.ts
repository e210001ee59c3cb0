import type { AgentTokenDeps } from "./agent-token-deps.js";

/**
 * Announce changed tokens to the ingest processes. A failed announcement is not an error of the
 * change itself: the ingest cache TTL (≤ 30 s) still bounds how long the old state is served.
 */
export async function notifyAgentTokenChanges(
  deps: Pick<AgentTokenDeps, "notifyChanged">,
  prefixes: string[],
): Promise<void> {
  const notifyChanged = deps.notifyChanged;
  if (!notifyChanged) return;
  await Promise.all(prefixes.map((p) => notifyChanged(p).catch(() => undefined)));
}
