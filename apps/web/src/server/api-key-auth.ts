import "server-only";
import { AppError } from "@rpcpulse/config";
import { authenticateApiKey } from "@rpcpulse/services/orgs";
import { type ServiceContext } from "@rpcpulse/services/context";
import { getRuntime } from "./runtime.js";

/** How a route of /api/orgs/[orgId] may be reached with an API key. */
export interface OrgAccessOptions {
  /** Members, invitations and the keys themselves: signed-in people only, never an API key. */
  sessionOnly?: boolean;
}

const READ_METHODS = new Set(["GET", "HEAD"]);

/**
 * The presented `Authorization: Bearer <value>`, or undefined when the request carries no Bearer
 * credential (other schemes, e.g. Basic added by a reverse proxy, are left to the session path).
 */
export function readBearerToken(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  if (header === null || !/^Bearer\b/i.test(header)) return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) throw new AppError("UNAUTHENTICATED", "Authorization must be `Bearer rpk_...`.");
  return match[1] as string;
}

/**
 * The organization context of an API key (one place for every /api/orgs route): a valid key of
 * this organization, within its rate limit; a read key may only GET; session-only routes refuse keys.
 */
export async function resolveApiKeyContext(
  request: Request,
  presented: string,
  organizationId: string,
  options: OrgAccessOptions,
): Promise<ServiceContext> {
  const { sql, redis, env } = getRuntime();
  const ctx = await authenticateApiKey(
    { sql, rateLimit: redis, rateLimitPrefix: env.QUEUE_PREFIX, perMinute: env.API_KEY_RATE_LIMIT_PER_MINUTE },
    { presented, organizationId },
  );
  if (options.sessionOnly) {
    throw new AppError("FORBIDDEN", "This route needs a signed-in member; API keys cannot manage members or keys.");
  }
  if (ctx.apiKeyScope === "read" && !READ_METHODS.has(request.method)) {
    throw new AppError("FORBIDDEN", "This API key is read-only.");
  }
  return ctx;
}
