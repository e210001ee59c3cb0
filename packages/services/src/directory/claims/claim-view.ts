import type { ClaimProofMethod, EndpointClaimRow } from "@rpcpulse/db/directory";

export { CLAIM_PROOF_METHODS, type ClaimProofMethod } from "@rpcpulse/db/directory";

/**
 * What the organization sees of one claim, with the two ways to prove it: the DNS record to publish,
 * or the file the endpoint serves.
 */
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
  /** Where the endpoint serves the token (`https://<host>/.well-known/rpcpulse-claim`); null for odd URLs. */
  wellKnownUrl: string | null;
  /** A body for that file (any body containing the token is accepted): the same line as the TXT value. */
  wellKnownBody: string;
  status: "pending" | "verified";
  verifiedMethod: ClaimProofMethod | null;
  verifiedAt: string | null;
  /** The endpoint is currently claimed by this organization (a later verified claim of another one takes it over). */
  holds: boolean;
  lastCheckedAt: string | null;
  lastError: string | null;
}

export const CLAIM_TXT_PREFIX = "rpcpulse-claim=";
export const CLAIM_DNS_LABEL = "_rpcpulse";
export const CLAIM_WELL_KNOWN_PATH = "/.well-known/rpcpulse-claim";

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

/**
 * Where the endpoint of `url` must serve its claim token, always over HTTPS (the certificate ties the
 * answer to the host name): the endpoint's own origin for https/wss endpoints (host and port), the
 * host's port 443 for plain http/ws ones. Null when the URL does not parse or is not http(s)/ws(s).
 */
export function wellKnownUrlOf(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const secure = u.protocol === "https:" || u.protocol === "wss:";
  if (!secure && u.protocol !== "http:" && u.protocol !== "ws:") return null;
  if (!u.hostname) return null;
  // URL.port is "" for the scheme's default port.
  return `https://${u.hostname}${secure && u.port ? `:${u.port}` : ""}${CLAIM_WELL_KNOWN_PATH}`;
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
    wellKnownUrl: wellKnownUrlOf(row.url),
    wellKnownBody: `${CLAIM_TXT_PREFIX}${row.token}`,
    status: row.verifiedAt ? "verified" : "pending",
    verifiedMethod: row.verifiedMethod,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    holds: row.holds,
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    lastError: row.lastError,
  };
}
