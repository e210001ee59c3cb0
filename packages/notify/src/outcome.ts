/**
 * What a send attempt ended with. Senders never throw for a failed delivery: the caller (the
 * delivery worker) records the outcome in the delivery log and lets BullMQ retry when `retryable`.
 */
export type SendOutcome =
  | { ok: true; responseCode: number | null; detail: string }
  | { ok: false; retryable: boolean; responseCode: number | null; error: string };

export const MAX_ERROR_LENGTH = 500;

export function succeeded(responseCode: number | null, detail = ""): SendOutcome {
  return { ok: true, responseCode, detail: detail.slice(0, MAX_ERROR_LENGTH) };
}

export function failed(error: string, retryable: boolean, responseCode: number | null = null): SendOutcome {
  return { ok: false, retryable, responseCode, error: error.slice(0, MAX_ERROR_LENGTH) };
}

/**
 * HTTP status → outcome, following the remote-write convention: 2xx done; 408, 425, 429 and 5xx
 * are worth retrying; any other 4xx will never succeed (bad URL, revoked webhook) and is final.
 */
export function outcomeOfStatus(status: number, body: string): SendOutcome {
  if (status >= 200 && status < 300) return succeeded(status);
  const snippet = body.replace(/\s+/g, " ").trim().slice(0, 200);
  const retryable = status >= 500 || status === 408 || status === 425 || status === 429;
  return failed(`HTTP ${status}${snippet ? `: ${snippet}` : ""}`, retryable, status);
}
