import { toProbeError, type SafeHttpClient } from "@rpcpulse/prober";
import { CLAIM_DNS_LABEL, CLAIM_TXT_PREFIX, dnsHostOf, wellKnownUrlOf } from "./claim-view.js";

/** TXT lookup (node:dns `resolveTxt` shape: one array of chunks per record). Injectable for tests. */
export type TxtResolver = (name: string) => Promise<string[][]>;

/** The prober's SSRF-safe client (private addresses refused unless the deployment allows them). */
export type ClaimHttpClient = Pick<SafeHttpClient, "request">;

export type ProofResult = { ok: true } | { ok: false; reason: string };

const DNS_TIMEOUT_MS = 5_000;
const WELL_KNOWN_TIMEOUT_MS = 5_000;
/** The file holds one short line; anything bigger is not a claim file. */
const WELL_KNOWN_MAX_BYTES = 4 * 1024;

/** `_rpcpulse.<host>` has a TXT record `rpcpulse-claim=<token>` (chunks of one record are joined). */
export async function checkDnsProof(resolveTxt: TxtResolver, url: string, token: string): Promise<ProofResult> {
  const host = dnsHostOf(url);
  if (!host) return { ok: false, reason: "The endpoint URL has no DNS name (an IP address); use the well-known file." };
  const name = `${CLAIM_DNS_LABEL}.${host}`;
  let records: string[][];
  let timer: NodeJS.Timeout | undefined;
  try {
    records = await Promise.race([
      resolveTxt(name),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error("timeout"), { code: "ETIMEOUT" })), DNS_TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    const code = (error as { code?: string }).code ?? "";
    if (code === "ENOTFOUND" || code === "ENODATA") return { ok: false, reason: `No TXT record found at ${name}.` };
    return { ok: false, reason: `DNS lookup of ${name} failed (${code || "error"}); try again later.` };
  } finally {
    clearTimeout(timer);
  }
  const expected = `${CLAIM_TXT_PREFIX}${token}`;
  const values = records.map((chunks) => chunks.join("").trim());
  if (values.includes(expected)) return { ok: true };
  const ours = values.filter((v) => v.startsWith(CLAIM_TXT_PREFIX));
  return {
    ok: false,
    reason: ours.length
      ? `The TXT record at ${name} carries another claim token.`
      : `${name} has TXT records, but none is ${CLAIM_TXT_PREFIX}….`,
  };
}

/**
 * The endpoint itself serves the token: GET https://<host>/.well-known/rpcpulse-claim (see
 * `wellKnownUrlOf`) through the SSRF-safe client answers 200 with a body containing the token.
 * Redirects are not followed (the file must be served by the endpoint's host), TLS is verified.
 */
export async function checkWellKnownProof(http: ClaimHttpClient, url: string, token: string): Promise<ProofResult> {
  const target = wellKnownUrlOf(url);
  if (!target) return { ok: false, reason: "The endpoint URL is not an http(s) or ws(s) URL." };
  let response;
  try {
    response = await http.request(target, {
      headers: { accept: "text/plain, */*" },
      followRedirects: false,
      timeoutMs: WELL_KNOWN_TIMEOUT_MS,
      maxResponseBytes: WELL_KNOWN_MAX_BYTES,
    });
  } catch (error) {
    const e = toProbeError(error);
    if (e.reason === "ssrf_blocked")
      return { ok: false, reason: `${target} was not fetched: the address is not public (${e.message}).` };
    if (e.reason === "too_large")
      return {
        ok: false,
        reason: `${target} answered more than ${WELL_KNOWN_MAX_BYTES} bytes; serve the token alone.`,
      };
    return { ok: false, reason: `Fetching ${target} failed (${e.reason}: ${e.message.slice(0, 200)}).` };
  }
  if (response.status >= 300 && response.status < 400)
    return { ok: false, reason: `${target} answered a redirect (HTTP ${response.status}); serve the file itself.` };
  if (response.status !== 200) return { ok: false, reason: `${target} answered HTTP ${response.status}.` };
  const body = response.body.toString("utf8");
  if (body.includes(token)) return { ok: true };
  return {
    ok: false,
    reason: body.includes(CLAIM_TXT_PREFIX)
      ? `${target} carries another claim token.`
      : `${target} does not contain the claim token.`,
  };
}
