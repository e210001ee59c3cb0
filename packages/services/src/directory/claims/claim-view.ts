import type { EndpointClaimRow } from "@rpcpulse/db";

/** What the organization sees of one claim, with the DNS record it has to publish. */
export interface EndpointClaimView {
  id: string;
  endpointId: string;
  url: string;
  name: string;
  network: string;
  createdAt: string;
  /** TXT record name, e.g. `_rpcpulse.api.example.org`; null when the URL host is an IP address. */
  dnsName: string | null;
  /** TXT record value, `rpcpulse-claim=<token>`. */
  dnsValue: string;
  status: "pending" | "verified";
  verifiedMethod: "dns" | "agent" | null;
  verifiedAt: string | null;
  /** The endpoint is currently claimed by this organization (a later verified claim of another one takes it over). */
  holds: boolean;
  lastCheckedAt: string | null;
  lastError: string | null;
}

export const CLAIM_TXT_PREFIX = "rpcpulse-claim=";
export const CLAIM_DNS_LABEL = "_rpcpulse";

/** The URL's host when it is a DNS name (not an IP literal), lower case, without a trailing dot. */
export function dnsHostOf(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, "");
  } catch {
    return null;
  }
  if (host.startsWith("[") || /^[\d.]+$/.test(host) || host === "localhost" || !host.includes(".")) return null;
  return host;
}

export function presentClaim(row: EndpointClaimRow): EndpointClaimView {
  const host = dnsHostOf(row.url);
  return {
    id: row.id,
    endpointId: row.endpointId,
    url: row.url,
    name: row.name,
    network: row.network,
    createdAt: row.createdAt.toISOString(),
    dnsName: host ? `${CLAIM_DNS_LABEL}.${host}` : null,
    dnsValue: `${CLAIM_TXT_PREFIX}${row.token}`,
    status: row.verifiedAt ? "verified" : "pending",
    verifiedMethod: row.verifiedMethod,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    holds: row.holds,
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    lastError: row.lastError,
  };
}
