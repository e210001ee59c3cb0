import type { AgentSample, ChainGroup } from "@rpcpulse/domain";

/**
 * Reads the node's own Prometheus endpoint (opt-in, --node-metrics-url) for what the RPC does not
 * say: peers, sync state and finality. A failure never fails the sample: it becomes an error string.
 */

export interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface NodeMetricsReading {
  ok: boolean;
  /** Which client's names matched: substrate, geth, nethermind; null when none did. */
  client: "substrate" | "geth" | "nethermind" | null;
  peers: number | null;
  bestBlock: number | null;
  finalizedBlock: number | null;
  /** Highest block known from peers (Substrate sync_target, Geth head header). */
  syncTarget: number | null;
  syncing: boolean | null;
  error: string | null;
}

const SAMPLE_LINE = /^([A-Za-z_:][A-Za-z0-9_:]*)(\{(.*)\})?\s+(\S+)(?:\s+\S+)?\s*$/;
const LABEL_PAIR = /\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*,?/y;

function unescapeLabel(value: string): string {
  return value.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
}

function parseValue(text: string): number {
  if (text === "+Inf") return Infinity;
  if (text === "-Inf") return -Infinity;
  return Number(text);
}

/** Parse the sample lines of the Prometheus text format (comments skipped, malformed lines ignored). */
export function parsePrometheusSamples(text: string): ParsedSample[] {
  const out: ParsedSample[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const m = SAMPLE_LINE.exec(line);
    if (!m?.[1] || m[4] === undefined) continue;
    const labels: Record<string, string> = {};
    const body = m[3] ?? "";
    LABEL_PAIR.lastIndex = 0;
    let ok = true;
    while (LABEL_PAIR.lastIndex < body.length) {
      const lm = LABEL_PAIR.exec(body);
      if (!lm?.[1]) {
        ok = body.slice(LABEL_PAIR.lastIndex).trim() === "";
        break;
      }
      labels[lm[1]] = unescapeLabel(lm[2] ?? "");
    }
    const value = parseValue(m[4]);
    if (ok && !Number.isNaN(value)) out.push({ name: m[1], labels, value });
  }
  return out;
}

function find(samples: ParsedSample[], names: string[], labels: Record<string, string> = {}): number | null {
  for (const name of names) {
    const hit = samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
    if (hit && Number.isFinite(hit.value)) return hit.value;
  }
  return null;
}

/** Pick peers, blocks and sync state from the known metric names of each client. */
export function readNodeMetrics(samples: ParsedSample[]): Omit<NodeMetricsReading, "ok" | "error"> {
  // Substrate / Polkadot SDK (Prometheus on :9615/metrics, `--prometheus-port`; older polkadot
  // binaries used the `polkadot_` prefix): substrate_block_height{status="best"|"finalized"|
  // "sync_target"}, substrate_sub_libp2p_peers_count (sc-network; newer releases
  // substrate_sync_peers), substrate_sub_libp2p_is_major_syncing (newer substrate_is_major_syncing).
  const height = (status: string) => find(samples, ["substrate_block_height", "polkadot_block_height"], { status });
  if (samples.some((s) => s.name === "substrate_block_height" || s.name === "polkadot_block_height")) {
    const syncing = find(samples, [
      "substrate_sub_libp2p_is_major_syncing",
      "substrate_is_major_syncing",
      "polkadot_sub_libp2p_is_major_syncing",
    ]);
    return {
      client: "substrate",
      peers: find(samples, [
        "substrate_sub_libp2p_peers_count",
        "substrate_sync_peers",
        "polkadot_sub_libp2p_peers_count",
      ]),
      bestBlock: height("best"),
      finalizedBlock: height("finalized"),
      syncTarget: height("sync_target"),
      syncing: syncing === null ? null : syncing > 0,
    };
  }
  // Geth (`--metrics`, served at :6060/debug/metrics/prometheus): the registry's "chain/head/block",
  // "chain/head/header", "chain/head/finalized" and "p2p/peers" become chain_head_block,
  // chain_head_header, chain_head_finalized and p2p_peers. A header ahead of the block = syncing.
  if (samples.some((s) => s.name === "chain_head_block" || s.name === "p2p_peers")) {
    const block = find(samples, ["chain_head_block"]);
    const header = find(samples, ["chain_head_header"]);
    return {
      client: "geth",
      peers: find(samples, ["p2p_peers"]),
      bestBlock: block,
      finalizedBlock: find(samples, ["chain_head_finalized"]),
      syncTarget: header,
      syncing: block !== null && header !== null ? header > block : null,
    };
  }
  // Nethermind (`--Metrics.Enabled true --Metrics.ExposePort <port>`): Nethermind.Blockchain
  // Metrics.Blocks -> nethermind_blocks (head number processed), Synchronization SyncPeers ->
  // nethermind_sync_peers. It exposes no finalized block.
  if (samples.some((s) => s.name.startsWith("nethermind_"))) {
    return {
      client: "nethermind",
      peers: find(samples, ["nethermind_sync_peers"]),
      bestBlock: find(samples, ["nethermind_blocks"]),
      finalizedBlock: null,
      syncTarget: null,
      syncing: null,
    };
  }
  return { client: null, peers: null, bestBlock: null, finalizedBlock: null, syncTarget: null, syncing: null };
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** The body as text, or null (and the stream cancelled) past `limit` bytes. */
async function readBounded(res: Response, limit: number): Promise<string | null> {
  if (Number(res.headers.get("content-length") ?? "0") > limit) {
    await res.body?.cancel();
    return null;
  }
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** GET the endpoint and read it; never throws (a down endpoint gives ok: false and the error). */
export async function fetchNodeMetrics(url: URL, timeoutMs: number): Promise<NodeMetricsReading> {
  const empty = { client: null, peers: null, bestBlock: null, finalizedBlock: null, syncTarget: null, syncing: null };
  try {
    const res = await fetch(url, {
      headers: { accept: "text/plain;version=0.0.4;q=1, */*;q=0.1" },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) {
      await res.body?.cancel();
      return { ...empty, ok: false, error: `node metrics ${url.href}: HTTP ${res.status}` };
    }
    const text = await readBounded(res, MAX_BODY_BYTES);
    if (text === null)
      return { ...empty, ok: false, error: `node metrics ${url.href}: body over ${MAX_BODY_BYTES} bytes` };
    const reading = readNodeMetrics(parsePrometheusSamples(text));
    return {
      ...reading,
      ok: true,
      error: reading.client === null ? `node metrics ${url.href}: no known Substrate, Geth or Nethermind metric` : null,
    };
  } catch (error) {
    const reason =
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    return { ...empty, ok: false, error: `node metrics ${url.href}: ${reason}`.slice(0, 500) };
  }
}

/** Fill what the RPC left null (peers, finalized block, syncing) from the node's own metrics. */
export function fillChainFromNodeMetrics(chain: ChainGroup, reading: NodeMetricsReading): ChainGroup {
  if (!reading.ok) return chain;
  const finalized = reading.finalizedBlock !== null ? Math.max(0, Math.trunc(reading.finalizedBlock)) : null;
  const peers = reading.peers !== null ? Math.max(0, Math.trunc(reading.peers)) : null;
  return {
    ...chain,
    peers: chain.peers ?? peers,
    finalizedBlock: chain.finalizedBlock ?? finalized,
    syncing: chain.syncing ?? reading.syncing,
  };
}

/** Read the node's metrics and fill the sample in place; a failure becomes an entry in its errors. */
export async function enrichSampleFromNodeMetrics(
  sample: AgentSample,
  url: URL,
  timeoutMs: number,
): Promise<NodeMetricsReading> {
  const reading = await fetchNodeMetrics(url, timeoutMs);
  if (sample.chain) sample.chain = fillChainFromNodeMetrics(sample.chain, reading);
  if (reading.error && sample.errors.length < 32)
    sample.errors.push({ group: "chain", message: reading.error.slice(0, 512) });
  return reading;
}
