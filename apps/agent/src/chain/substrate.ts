import { rpcBatch, rpcCall, toBlockNumber } from "./json-rpc.js";
import { HeadFirstSeen, str, type AdapterOptions, type ChainAdapter, type ChainReading } from "./types.js";

/** twox128("Timestamp") ++ twox128("Now"): storage key of pallet_timestamp's Now (u64 ms, SCALE little-endian). */
export const TIMESTAMP_NOW_KEY = "0xf0c365c3cf59d671eb72da0e7a4113c49f1f0515f462cdcf84e0f1d6045dfcbb";

/** SCALE u64 little-endian hex ("0x" + 16 hex digits) → number of ms; null if absent or malformed. */
export function decodeScaleU64(hex: unknown): number | null {
  if (typeof hex !== "string" || !/^0x[0-9a-fA-F]{16}$/.test(hex)) return null;
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(Number.parseInt(hex.slice(2 + i * 2, 4 + i * 2), 16));
  return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : null;
}

/**
 * Substrate/Polkadot node JSON-RPC. Head: chain_getHeader (best block). Then a batch:
 * chain_getBlockHash(head), chain_getFinalizedHead, system_health, system_version; then
 * state_getStorage(Timestamp.Now, headHash) and chain_getHeader(finalizedHash). The header has
 * no timestamp, so head time is the Timestamp pallet's Now at that exact block; when it cannot
 * be read (no such pallet, pruned state) the agent falls back to when it first saw the head.
 */
export class SubstrateAdapter implements ChainAdapter {
  readonly family = "substrate" as const;
  private readonly firstSeen = new HeadFirstSeen();

  constructor(private readonly options: AdapterOptions) {}

  async read(): Promise<ChainReading> {
    const { url, timeoutMs } = this.options;
    const head = await rpcCall(url, { method: "chain_getHeader", params: [] }, timeoutMs);
    const header = head.result as Record<string, unknown> | null;
    const headBlock = toBlockNumber(header?.number);
    if (headBlock === null) throw new Error("chain_getHeader: no block number");
    const seenAt = Date.now();
    const warnings: string[] = [];
    const ok = (o: { ok: true; result: unknown } | { ok: false; error: string } | undefined): unknown => {
      if (!o) return null;
      if (!o.ok) {
        warnings.push(o.error);
        return null;
      }
      return o.result;
    };
    const [hash, finalizedHash, health, version] = await rpcBatch(
      url,
      [
        { method: "chain_getBlockHash", params: [headBlock] },
        { method: "chain_getFinalizedHead", params: [] },
        { method: "system_health", params: [] },
        { method: "system_version", params: [] },
      ],
      timeoutMs,
    );
    const headHash = str(ok(hash), 130);
    const finHash = str(ok(finalizedHash), 130);
    const second = [];
    if (headHash) second.push({ method: "state_getStorage", params: [TIMESTAMP_NOW_KEY, headHash] });
    if (finHash) second.push({ method: "chain_getHeader", params: [finHash] });
    const results = await rpcBatch(url, second, timeoutMs);
    const storage = headHash ? results.shift() : undefined;
    const finHeader = finHash ? results.shift() : undefined;
    let headTimeMs = decodeScaleU64(storage?.ok ? storage.result : null);
    let headTimeSource: ChainReading["headTimeSource"] = "storage";
    if (storage && !storage.ok) warnings.push(storage.error);
    if (headTimeMs === null) {
      headTimeMs = this.firstSeen.observe(headBlock, seenAt);
      headTimeSource = "first-seen";
    }
    const h = ok(health) as Record<string, unknown> | null;
    const fh = ok(finHeader) as Record<string, unknown> | null;
    return {
      headBlock,
      headHash,
      headTimeMs,
      headTimeSource,
      finalizedBlock: fh ? toBlockNumber(fh.number) : null,
      peers: h ? toBlockNumber(h.peers) : null,
      syncing: h && typeof h.isSyncing === "boolean" ? h.isSyncing : null,
      clientVersion: str(ok(version)),
      latency: head.timing,
      warnings,
    };
  }
}
