import { isIP } from "node:net";
import { ProbeError } from "./errors.js";
import { checkAddress, type AddressPolicy } from "./ip-policy.js";

export const HTTP_SCHEMES = ["http:", "https:"] as const;
export const WS_SCHEMES = ["ws:", "wss:"] as const;

/** Ports public RPC endpoints use (web, Hive, Ethereum, Substrate). `allowPrivate` lifts the list. */
export const DEFAULT_ALLOWED_PORTS: readonly number[] = [80, 443, 8080, 8090, 8091, 8443, 8545, 8546, 9933, 9944];

/** Host names that are internal by definition (checked after IDN normalisation, without a trailing dot). */
const BLOCKED_NAMES = new Set([
  "localhost",
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "kubernetes.default",
]);
/** Suffixes that only resolve inside a private network. */
const INTERNAL_SUFFIXES = [
  ".localhost",
  ".local",
  ".internal",
  ".localdomain",
  ".home.arpa",
  ".lan",
  ".intranet",
  ".corp",
  ".cluster.local",
];
/** Names that are always refused, even with allowPrivate (cloud metadata). */
const METADATA_NAMES = new Set(["metadata", "metadata.google.internal", "metadata.goog", "instance-data"]);

export interface UrlPolicy extends AddressPolicy {
  schemes: readonly string[];
  /** null: any port. */
  allowedPorts: readonly number[] | null;
}

export interface CheckedUrl {
  url: URL;
  /** Host name without brackets, as connect() wants it. */
  host: string;
  port: number;
  secure: boolean;
  /** The host is an IP literal (no DNS). */
  ipLiteral: boolean;
}

/** The authority ("user@host:port") exactly as written, before WHATWG normalisation. */
function rawAuthority(raw: string): string | null {
  const m = /^[\t\n\r ]*[a-zA-Z][a-zA-Z0-9+.-]*:[\\/]{2}([^/?#\\]*)/.exec(raw);
  return m ? (m[1] ?? "") : null;
}

function rawHostOf(authority: string): string {
  const afterAt = authority.slice(authority.lastIndexOf("@") + 1);
  if (afterAt.startsWith("[")) {
    const close = afterAt.indexOf("]");
    return close < 0 ? afterAt : afterAt.slice(0, close + 1);
  }
  const colon = afterAt.lastIndexOf(":");
  return colon < 0 ? afterAt : afterAt.slice(0, colon);
}

function blocked(detail: string): ProbeError {
  return new ProbeError("ssrf_blocked", detail);
}

/**
 * Static checks on a target URL, before any DNS or socket: scheme, userinfo, port, host form.
 * The resolved address is checked again at connect time (see safe-lookup.ts).
 */
export function checkUrl(input: string | URL, policy: UrlPolicy): CheckedUrl {
  const raw = typeof input === "string" ? input : input.href;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ProbeError("bad_scheme", `not a URL: ${JSON.stringify(raw.slice(0, 200))}`);
  }
  if (!policy.schemes.includes(url.protocol)) {
    throw new ProbeError("bad_scheme", `scheme ${url.protocol} not allowed (allowed: ${policy.schemes.join(", ")})`);
  }
  const authority = rawAuthority(raw);
  if (authority === null) throw new ProbeError("bad_scheme", "URL has no authority (//host)");
  if (authority.includes("@") || url.username !== "" || url.password !== "") {
    throw blocked("credentials in the URL are not allowed");
  }
  const hostname = url.hostname.toLowerCase();
  if (hostname === "") throw blocked("empty host");
  const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
  const rawHost = rawHostOf(authority).toLowerCase();
  const ipKind = isIP(bare);

  if (ipKind === 4 && rawHost !== bare) {
    // WHATWG turned a decimal/octal/hex/short/percent-encoded/full-width form into a dotted quad.
    throw blocked(`non-canonical IPv4 form ${JSON.stringify(rawHost)} (normalises to ${bare})`);
  }
  if (ipKind === 0) {
    if (hostname.endsWith(".")) throw blocked(`trailing dot in host ${JSON.stringify(hostname)}`);
    if (rawHost !== hostname && !hostname.split(".").some((l) => l.startsWith("xn--"))) {
      // Unicode or escapes that collapsed to plain ASCII (circled letters, full-width dots, %61):
      // a spoofing trick, never how a real endpoint is written.
      throw blocked(`host ${JSON.stringify(rawHost)} normalises to a different ASCII name ${hostname}`);
    }
    if (!/^[a-z0-9.-]+$/.test(hostname) || hostname.split(".").some((l) => l === "" || l.length > 63)) {
      throw blocked(`malformed host name ${JSON.stringify(hostname)}`);
    }
    if (/^[0-9.]+$/.test(hostname) || /^0x[0-9a-f]+$/.test(hostname.split(".").pop() ?? "")) {
      throw blocked(`numeric host name ${hostname}`);
    }
    if (METADATA_NAMES.has(hostname)) throw blocked(`cloud metadata host ${hostname}`);
    if (!policy.allowPrivate) {
      if (BLOCKED_NAMES.has(hostname)) throw blocked(`internal host name ${hostname}`);
      if (INTERNAL_SUFFIXES.some((s) => hostname.endsWith(s))) throw blocked(`internal domain ${hostname}`);
      if (!hostname.includes(".")) throw blocked(`single-label host ${hostname} (resolves through search domains)`);
    }
  } else {
    const verdict = checkAddress(bare, policy);
    if (!verdict.allowed) throw blocked(`address ${bare} is ${verdict.cls}`);
  }

  const secure = url.protocol === "https:" || url.protocol === "wss:";
  const port = url.port === "" ? (secure ? 443 : 80) : Number(url.port);
  if (policy.allowedPorts && !policy.allowedPorts.includes(port)) {
    throw blocked(`port ${port} not in the allowed list`);
  }
  return { url, host: bare, port, secure, ipLiteral: ipKind !== 0 };
}
