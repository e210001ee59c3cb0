import "server-only";
import { getRuntime } from "@/server/runtime.js";

/**
 * The client address for rate limits: the right-most X-Forwarded-For hop that is not one of
 * TRUSTED_PROXIES, only when proxies are configured (otherwise the header is the client's own
 * claim and is ignored: null, and only the per-page limit applies).
 */
export function clientKeyOf(request: Request): string | null {
  const trusted = getRuntime().env.TRUSTED_PROXIES;
  if (trusted.length === 0) return null;
  const hops = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    if (!trusted.includes(hop)) return hop;
  }
  return null;
}
