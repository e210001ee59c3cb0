import { ProbeError, type SafeHttpClient } from "@rpcpulse/prober";
import { failed, outcomeOfStatus, type SendOutcome } from "./outcome.js";

/** Reasons that no retry can fix: the URL itself is refused. */
const FINAL_REASONS = new Set(["ssrf_blocked", "bad_scheme"]);

/**
 * POST a body to a user-supplied URL through the SSRF-safe client (address checks at connect time,
 * redirects re-validated, response capped) and map the result to a SendOutcome.
 */
export async function postThroughSafeClient(
  client: SafeHttpClient,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<SendOutcome> {
  try {
    const response = await client.request(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
      maxResponseBytes: 16 * 1024,
      // A redirect would turn the POST into a GET; a webhook that moved must be updated by its owner.
      followRedirects: false,
    });
    return outcomeOfStatus(response.status, response.body.toString("utf8"));
  } catch (error) {
    if (error instanceof ProbeError) {
      return failed(`${error.reason}: ${error.message}`, !FINAL_REASONS.has(error.reason));
    }
    return failed(error instanceof Error ? error.message : String(error), true);
  }
}
