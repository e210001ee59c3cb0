import { ManualClock, startSimnet, type Simnet, type SimnetConfigInput } from "../src/index.js";

/** 2026-11-22T02:40:00Z: every test starts its networks' clocks here. */
export const T0 = Date.UTC(2026, 10, 22, 2, 40, 0);

export async function startTestSimnet(config: SimnetConfigInput): Promise<{ simnet: Simnet; clock: ManualClock }> {
  const clock = new ManualClock(T0);
  const simnet = await startSimnet({ seed: "test-seed", headPollMs: 20, ...config }, { clock });
  return { simnet, clock };
}

export interface RawResponse {
  status: number;
  headers: Headers;
  json: unknown;
  text: string;
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** One JSON-RPC call; returns the whole response object. */
export async function rpc(
  url: string,
  method: string,
  params?: unknown,
  id: number | string = 1,
): Promise<Record<string, unknown>> {
  const res = await postJson(url, { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.text}`);
  return res.json as Record<string, unknown>;
}

export async function rpcResult(url: string, method: string, params?: unknown): Promise<unknown> {
  const res = await rpc(url, method, params);
  if ("error" in res) throw new Error(`${method}: ${JSON.stringify(res.error)}`);
  return res.result;
}

export async function getJson(url: string): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url);
  return { status: res.status, json: (await res.json()) as unknown };
}
