import { rpcBatch, rpcCall, toBlockNumber } from "./json-rpc.js";
import { str, type AdapterOptions, type ChainAdapter, type ChainReading } from "./types.js";

/** hived/steemd serialise time_point_sec without a zone ("2026-11-22T10:00:03"): it is UTC. */
export function parseHiveTime(value: unknown): number | null {
  if (typeof value !== "string" || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(value)) return null;
  const iso = /(Z|[+-]\d\d:?\d\d)$/.test(value) ? value : `${value}Z`;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
}

/**
 * Hive/Steem (hived, steemd) JSON-RPC. Head: condenser_api.get_dynamic_global_properties
 * (head_block_number, head_block_id, time, last_irreversible_block_num). Version:
 * database_api.get_version (Hive), falling back to condenser_api.get_version (Steem).
 * hived exposes no peer count or syncing flag over its API: both are null.
 */
export class HiveAdapter implements ChainAdapter {
  readonly family = "hive" as const;

  constructor(private readonly options: AdapterOptions) {}

  async read(): Promise<ChainReading> {
    const { url, timeoutMs } = this.options;
    const head = await rpcCall(url, { method: "condenser_api.get_dynamic_global_properties", params: [] }, timeoutMs);
    const dgp = (head.result ?? {}) as Record<string, unknown>;
    const headBlock = toBlockNumber(dgp.head_block_number);
    if (headBlock === null) throw new Error("condenser_api.get_dynamic_global_properties: no head_block_number");
    const warnings: string[] = [];
    let clientVersion: string | null = null;
    const [version] = await rpcBatch(url, [{ method: "database_api.get_version", params: {} }], timeoutMs);
    let v: Record<string, unknown> | null = version?.ok ? ((version.result ?? {}) as Record<string, unknown>) : null;
    if (!v) {
      const [steem] = await rpcBatch(url, [{ method: "condenser_api.get_version", params: [] }], timeoutMs);
      if (steem?.ok) v = (steem.result ?? {}) as Record<string, unknown>;
      else warnings.push(version && !version.ok ? version.error : "database_api.get_version failed");
    }
    if (v) {
      const revision = str(v.hive_revision) ?? str(v.steem_revision);
      const bv = str(v.blockchain_version, 64);
      clientVersion = bv ? `${bv}${revision ? ` (${revision.slice(0, 12)})` : ""}` : null;
    }
    const time = parseHiveTime(dgp.time);
    return {
      headBlock,
      headHash: str(dgp.head_block_id, 130),
      headTimeMs: time,
      headTimeSource: time === null ? null : "block",
      finalizedBlock: toBlockNumber(dgp.last_irreversible_block_num),
      peers: null,
      syncing: null,
      clientVersion,
      latency: head.timing,
      warnings,
    };
  }
}
