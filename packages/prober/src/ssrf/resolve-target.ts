import { isIP } from "node:net";
import { ProbeError } from "./errors.js";
import { systemResolver, vetResolvedAddresses, type ResolvedAddress, type Resolver } from "./safe-lookup.js";
import { checkUrl, type UrlPolicy } from "./url-policy.js";

/**
 * Would the prober connect to this URL? The same static URL checks and the same DNS answer check as a
 * real connection (checkUrl, then every A/AAAA answer through vetResolvedAddresses), without
 * connecting: for deciding before an endpoint is listed, not instead of the connect-time check (DNS
 * may answer differently later; the prober checks again on every connection).
 */
export type TargetResolution =
  | { ok: true; url: URL; addresses: ResolvedAddress[] }
  | {
      ok: false;
      /**
       * bad_url: not an http(s) URL the policy accepts; refused: the URL or an address it resolves to is
       * in a blocked class; unresolved: the name has no address (NXDOMAIN, no A/AAAA); dns_unavailable:
       * the look-up failed for now (SERVFAIL, timeout): try again later.
       */
      reason: "bad_url" | "refused" | "unresolved" | "dns_unavailable";
      message: string;
    };

export interface ResolveTargetOptions {
  policy: UrlPolicy;
  /** Default: the system resolver (what the prober's connections use). */
  resolver?: Resolver;
  /** Deadline of the look-up. Default 5 000 ms. */
  timeoutMs?: number;
}

/** Answers meaning "this name does not exist / has no address" (as opposed to "ask again later"). */
const NO_SUCH_NAME = new Set(["ENOTFOUND", "ENODATA", "EAI_NONAME", "EAI_NODATA", "EAI_FAIL", "ENONAME"]);

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`${what} timed out`), { code: "ETIMEOUT" })), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

export async function resolveTarget(input: string | URL, options: ResolveTargetOptions): Promise<TargetResolution> {
  let checked;
  try {
    checked = checkUrl(input, options.policy);
  } catch (err) {
    const pe = err instanceof ProbeError ? err : new ProbeError("bad_scheme", String(err));
    return { ok: false, reason: pe.reason === "ssrf_blocked" ? "refused" : "bad_url", message: pe.message };
  }
  const family = isIP(checked.host);
  if (family !== 0)
    return { ok: true, url: checked.url, addresses: [{ address: checked.host, family: family === 6 ? 6 : 4 }] };

  let answers: ResolvedAddress[];
  try {
    answers = await withDeadline(
      (options.resolver ?? systemResolver)(checked.host),
      options.timeoutMs ?? 5_000,
      `DNS look-up of ${checked.host}`,
    );
  } catch (err) {
    const code = String((err as { code?: unknown } | null)?.code ?? "");
    return NO_SUCH_NAME.has(code)
      ? { ok: false, reason: "unresolved", message: `${checked.host} does not resolve (${code})` }
      : {
          ok: false,
          reason: "dns_unavailable",
          message: `the DNS look-up of ${checked.host} failed for now (${code || (err as Error).message})`,
        };
  }
  try {
    vetResolvedAddresses(checked.host, answers, options.policy);
  } catch (err) {
    const pe = err as ProbeError;
    return { ok: false, reason: pe.reason === "ssrf_blocked" ? "refused" : "unresolved", message: pe.message };
  }
  return { ok: true, url: checked.url, addresses: answers };
}
