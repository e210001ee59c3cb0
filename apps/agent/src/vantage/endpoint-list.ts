import { z } from "zod";
import { API_FAMILIES, type ApiFamily } from "@rpcpulse/domain";

/** A listed public endpoint as the agent needs it to probe. */
export interface ListedEndpoint {
  id: string;
  url: string;
  family: ApiFamily;
  network: string;
}

/** The agent probes at most this many endpoints per network (the API lists far fewer today). */
export const MAX_LISTED_ENDPOINTS = 500;
const MAX_LIST_BYTES = 4 * 1024 * 1024;

const ListResponse = z.object({
  endpoints: z.array(z.object({ id: z.uuid(), url: z.string().max(2048), family: z.enum(API_FAMILIES) })).max(10_000),
});

/**
 * GET <directoryUrl>/api/v1/chains/<network>/endpoints: the ranked public list (cached server side).
 * Throws with a short reason on network errors, non-200 answers and unexpected bodies.
 */
export async function fetchEndpointList(
  directoryUrl: URL,
  network: string,
  options: { timeoutMs: number; userAgent: string },
): Promise<ListedEndpoint[]> {
  const url = new URL(`api/v1/chains/${encodeURIComponent(network)}/endpoints`, withSlash(directoryUrl));
  const response = await fetch(url, {
    headers: { accept: "application/json", "user-agent": options.userAgent },
    signal: AbortSignal.timeout(options.timeoutMs),
    redirect: "error",
  });
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`endpoint list of ${network}: HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > MAX_LIST_BYTES) {
    await response.body?.cancel();
    throw new Error(`endpoint list of ${network}: ${declared} bytes is too large`);
  }
  const text = await response.text();
  if (text.length > MAX_LIST_BYTES) throw new Error(`endpoint list of ${network}: too large`);
  const parsed = ListResponse.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new Error(`endpoint list of ${network}: unexpected answer (${parsed.error.issues[0]?.message})`);
  return parsed.data.endpoints.slice(0, MAX_LISTED_ENDPOINTS).map((e) => ({ ...e, network }));
}

function withSlash(base: URL): URL {
  const copy = new URL(base);
  if (!copy.pathname.endsWith("/")) copy.pathname += "/";
  copy.search = "";
  copy.hash = "";
  return copy;
}
