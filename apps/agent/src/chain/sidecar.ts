import { timedRequest, type TimedResponse } from "./http-timing.js";
import { toBlockNumber } from "./json-rpc.js";
import { HeadFirstSeen, str, type AdapterOptions, type ChainAdapter, type ChainReading } from "./types.js";

/**
 * substrate-api-sidecar REST. Head: GET /blocks/head/header?finalized=false (the best block;
 * the endpoint's default, finalized=true, is the finalized head, read next). /node/version gives
 * the node's client version, /node/network peers and syncing. Head time: GET
 * /pallets/timestamp/storage/now?at=<head> (the same Timestamp.Now storage as the RPC adapter),
 * falling back to when the agent first saw the head.
 */
export class SidecarAdapter implements ChainAdapter {
  readonly family = "sidecar" as const;
  private readonly firstSeen = new HeadFirstSeen();

  constructor(private readonly options: AdapterOptions) {}

  private url(path: string): URL {
    const base = new URL(this.options.url);
    if (!base.pathname.endsWith("/")) base.pathname += "/";
    return new URL(path.replace(/^\//, ""), base);
  }

  private async get(path: string): Promise<{ json: Record<string, unknown>; res: TimedResponse }> {
    const res = await timedRequest({ url: this.url(path), method: "GET", timeoutMs: this.options.timeoutMs });
    if (res.status < 200 || res.status >= 300) throw new Error(`GET ${path}: HTTP ${res.status}`);
    let json: unknown;
    try {
      json = JSON.parse(res.body.toString("utf8"));
    } catch {
      throw new Error(`GET ${path}: invalid JSON`);
    }
    if (typeof json !== "object" || json === null) throw new Error(`GET ${path}: not an object`);
    return { json: json as Record<string, unknown>, res };
  }

  async read(): Promise<ChainReading> {
    const head = await this.get("/blocks/head/header?finalized=false");
    const seenAt = Date.now();
    const headBlock = toBlockNumber(head.json.number);
    if (headBlock === null) throw new Error("GET /blocks/head/header: no block number");
    const warnings: string[] = [];
    const settle = async (path: string): Promise<Record<string, unknown> | null> => {
      try {
        return (await this.get(path)).json;
      } catch (error) {
        warnings.push(error instanceof Error ? error.message : String(error));
        return null;
      }
    };
    const [finalized, version, network, timestamp] = await Promise.all([
      settle("/blocks/head/header?finalized=true"),
      settle("/node/version"),
      settle("/node/network"),
      settle(`/pallets/timestamp/storage/now?at=${headBlock}`),
    ]);
    let headTimeMs = toBlockNumber(timestamp?.value);
    let headTimeSource: ChainReading["headTimeSource"] = "storage";
    if (headTimeMs === null) {
      headTimeMs = this.firstSeen.observe(headBlock, seenAt);
      headTimeSource = "first-seen";
    }
    const impl = str(version?.clientImplName, 64);
    const cv = str(version?.clientVersion, 180);
    return {
      headBlock,
      headHash: str(head.json.hash, 130),
      headTimeMs,
      headTimeSource,
      finalizedBlock: finalized ? toBlockNumber(finalized.number) : null,
      peers: network ? toBlockNumber(network.numPeers) : null,
      syncing: network && typeof network.isSyncing === "boolean" ? network.isSyncing : null,
      clientVersion: cv ? (impl ? `${impl} ${cv}` : cv) : null,
      latency: head.res.timing,
      warnings,
    };
  }
}
