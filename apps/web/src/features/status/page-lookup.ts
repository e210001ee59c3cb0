import type { PageLookup } from "@rpcpulse/services";

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

/**
 * Host-header mapping for proxy.ts: a request whose host is not the app's own host (nor a
 * loopback name) is rewritten to /status/~<host><path>. Returns null when no rewrite applies.
 */
export function rewriteForHost(input: { host: string | null; appHost: string; pathname: string }): string | null {
  if (!input.host) return null;
  const host = input.host.toLowerCase().replace(/:\d+$/, "");
  const appHost = input.appHost.toLowerCase().replace(/:\d+$/, "");
  if (host === appHost || host === "localhost" || host === "127.0.0.1" || host === "[::1]") return null;
  if (!/^[a-z0-9.-]{3,253}$/.test(host)) return null;
  if (input.pathname.startsWith("/_next/") || input.pathname.startsWith("/status/")) return null;
  const rest = input.pathname === "/" ? "" : input.pathname;
  return `/status/${DOMAIN_MARKER}${host}${rest}`;
}
