import type { PageLookup } from "@rpcpulse/services/status";

/**
 * The [slug] segment of /status/<slug>/… is either a page slug or, after the Host-header rewrite
 * in proxy.ts, "~<host>" for a page served on its own verified domain. Links inside the page are
 * then relative to that domain's root.
 */
export const DOMAIN_MARKER = "~";

export function lookupFromParam(param: string): PageLookup {
  const decoded = decodeURIComponent(param);
  if (decoded.startsWith(DOMAIN_MARKER)) return { domain: decoded.slice(DOMAIN_MARKER.length).toLowerCase() };
  return { slug: decoded };
}

/** Path prefix of the page's own links: "/status/<slug>" on the app host, "" on its own domain. */
export function basePathFor(param: string, slug: string): string {
  return decodeURIComponent(param).startsWith(DOMAIN_MARKER) ? "" : `/status/${slug}`;
}

/** Host name of a Host header, lower case, without the port. */
function hostNameOf(host: string): string {
  return host.toLowerCase().replace(/:\d+$/, "");
}

/**
 * The status-page domain a request arrived on: its Host when that is neither the app's own host nor a
 * loopback name (this server's own requests), else null. A Host that is no plausible name is served
 * nothing (answered as an unknown domain).
 */
export function customHostOf(input: { host: string | null; appHost: string }): string | null {
  if (!input.host) return null;
  const host = hostNameOf(input.host);
  if (host === hostNameOf(input.appHost) || host === "localhost" || host === "127.0.0.1" || host === "[::1]")
    return null;
  return host;
}

/** A name a status page can be verified for (same rule as the admin form). */
const PAGE_DOMAIN = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** The app's assets, the same on every host: Next's files and the icon. */
const ASSET_PATHS = [/^\/_next\//, /^\/icon\.svg$/];
const HEALTH_PATH = "/api/health";

/**
 * Host-header mapping for proxy.ts: a request on a custom host is rewritten to /status/~<host><path>,
 * whatever the path, so a custom host reaches only its own page and that page's public routes (feeds,
 * badges, summary, subscription): never another page's /status/<slug>, /app, /api, sign-in and the
 * rest of the app, which all land in the page's 404. Assets pass unchanged, and so does /api/health on
 * a host that cannot be a page's domain (an IP address or an internal name: liveness probes).
 * Returns null when no rewrite applies.
 */
export function rewriteForHost(input: { host: string | null; appHost: string; pathname: string }): string | null {
  const host = customHostOf(input);
  if (host === null) return null;
  if (ASSET_PATHS.some((p) => p.test(input.pathname))) return null;
  const domain = PAGE_DOMAIN.test(host) ? host : null;
  if (domain === null && input.pathname === HEALTH_PATH) return null;
  const rest = input.pathname === "/" ? "" : input.pathname;
  // A host no page can be verified for gets a marker no page has: the 404 without a lookup.
  return `/status/${DOMAIN_MARKER}${domain ?? "invalid"}${rest}`;
}
