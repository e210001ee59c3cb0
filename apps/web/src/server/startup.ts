import { ensureDemoAccount } from "@rpcpulse/auth";
import type { WebEnv } from "@/env.js";
import { getRuntime } from "./runtime.js";

/** Called once from instrumentation.ts after the environment has been validated. */
export async function startServer(env: WebEnv): Promise<void> {
  const { logger, auth } = getRuntime();
  if (env.authSecretDerived) {
    logger.warn(
      "BETTER_AUTH_SECRET is not set: using a secret derived from DATABASE_URL. Fine for development and demos only; set a random 32+ character secret for any real deployment.",
    );
  }
  if (!env.SMTP_URL) {
    logger.warn(
      "SMTP_URL is not set: no password reset by email, no email verification and no invitation mail (invitees join without a verified address; the inviter copies the link). Set SMTP_URL and SMTP_FROM to turn account mail on.",
    );
  }
  if (env.DEMO_MODE) {
    try {
      const result = await ensureDemoAccount({ auth, demoMode: true });
      logger.info({ status: result.status }, "demo account ready (demo@rpcpulse.dev)");
    } catch (error) {
      // The database may not be migrated yet; the app still starts and /api/health says why.
      logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        "demo account could not be created",
      );
    }
  }
  logger.info({ baseUrl: env.APP_BASE_URL, demoMode: env.DEMO_MODE }, "web started");
}
