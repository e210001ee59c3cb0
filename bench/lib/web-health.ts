import type { ChildProcess } from "node:child_process";
import { waitFor } from "@rpcpulse/config/testing";

/**
 * Wait until the web app started as `child` answers GET /api/health (200, or 503 while a dependency
 * is down: the server is up either way); fails at once if the process exits.
 */
export async function waitForWebHealth(base: string, child: ChildProcess, timeoutMs = 90_000): Promise<void> {
  await waitFor(
    `the web app at ${base} to answer /api/health`,
    async () => {
      if (child.exitCode !== null) throw new Error(`next exited with ${child.exitCode}`);
      const res = await fetch(`${base}/api/health`).catch(() => undefined); // not listening yet
      await res?.body?.cancel();
      return res?.status === 200 || res?.status === 503;
    },
    { timeoutMs, intervalMs: 300 },
  );
}
