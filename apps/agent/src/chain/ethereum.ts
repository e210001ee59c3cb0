import { rpcBatch, rpcCall, toBlockNumber } from "./json-rpc.js";
import { str, type AdapterOptions, type ChainAdapter, type ChainReading } from "./types.js";

/**
 * Ethereum execution clients (Geth, Nethermind, ...). Head: eth_getBlockByNumber("latest", false)
 * → number, hash, timestamp (seconds). Then one batch: the "finalized" block (pre-merge or old
 * clients answer an error → null), net_peerCount, eth_syncing (false or a progress object) and
 * web3_clientVersion.
 */
export class EthereumAdapter implements ChainAdapter {
  readonly family = "ethereum" as const;

  constructor(private readonly options: AdapterOptions) {}

  async read(): Promise<ChainReading> {
    const { url, timeoutMs } = this.options;
    const head = await rpcCall(url, { method: "eth_getBlockByNumber", params: ["latest", false] }, timeoutMs);
    const block = head.result as Record<string, unknown> | null;
    const headBlock = toBlockNumber(block?.number);
    if (!block || headBlock === null) throw new Error("eth_getBlockByNumber(latest): no block number");
    const ts = toBlockNumber(block.timestamp);
    const [finalized, peers, syncing, version] = await rpcBatch(
      url,
      [
        { method: "eth_getBlockByNumber", params: ["finalized", false] },
        { method: "net_peerCount", params: [] },
        { method: "eth_syncing", params: [] },
        { method: "web3_clientVersion", params: [] },
      ],
      timeoutMs,
    );
    const warnings: string[] = [];
    const ok = (o: typeof finalized): unknown => {
      if (!o) return null;
      if (!o.ok) {
        warnings.push(o.error);
        return null;
      }
      return o.result;
    };
    const fin = ok(finalized) as Record<string, unknown> | null;
    const peerCount = ok(peers);
    const sync = ok(syncing);
    return {
      headBlock,
      headHash: str(block.hash, 130),
      headTimeMs: ts === null ? null : ts * 1000,
      headTimeSource: ts === null ? null : "block",
      finalizedBlock: fin ? toBlockNumber(fin.number) : null,
      peers: toBlockNumber(peerCount),
      syncing: sync === null ? null : sync !== false,
      clientVersion: str(ok(version)),
      latency: head.timing,
      warnings,
    };
  }
}
