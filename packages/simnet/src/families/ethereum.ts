import { isPlainObject, RpcError, type RpcDialect } from "../jsonrpc.js";
import type { ChainNetwork } from "../network.js";
import type { HeadView } from "../sim-node.js";
import {
  balanceAt,
  buildCallTraces,
  buildContent,
  buildEthBlock,
  buildEthHeader,
  buildParityTraces,
  formatLog,
  hex,
} from "./ethereum-blocks.js";
import type { CallContext, JsonRpcFamily, SubscriptionRequest } from "./types.js";

/** Ethereum execution-client JSON-RPC, worded like geth (default) or Nethermind. */

export const DEFAULT_GETH_VERSION = "Geth/v1.16.7-stable-b9f3a3d9/linux-amd64/go1.24.10";
/** States a full (non-archive) geth keeps: the latest 128 blocks. */
const RECENT_STATES = 128;

const gethDialect: RpcDialect = {
  parseError: () => new RpcError(-32700, "parse error"),
  invalidRequest: () => new RpcError(-32600, "invalid request"),
  emptyBatch: () => new RpcError(-32600, "empty batch"),
  batchTooLarge: () => new RpcError(-32600, "batch too large"),
  methodNotFound: (m) => new RpcError(-32601, `the method ${m} does not exist/is not available`),
  internalError: () => new RpcError(-32603, "internal error"),
  rateLimited: () => new RpcError(-32005, "rate limit exceeded"),
};

const nethermindDialect: RpcDialect = {
  parseError: () => new RpcError(-32700, "Parse error"),
  invalidRequest: () => new RpcError(-32600, "Invalid request"),
  emptyBatch: () => new RpcError(-32600, "Invalid request"),
  batchTooLarge: (limit) =>
    new RpcError(-32600, `The batch size limit was exceeded. The requested batch size was over ${limit}`),
  methodNotFound: (m) => new RpcError(-32601, `The method '${m}' is not supported.`),
  internalError: () => new RpcError(-32603, "Internal error"),
  rateLimited: () => new RpcError(-32005, "rate limit exceeded"),
};

const invalidArg = (i: number, msg: string): RpcError => new RpcError(-32602, `invalid argument ${i}: ${msg}`);

/** A hex quantity as geth's hexutil accepts it. */
function parseQuantity(value: unknown, argIndex: number): number {
  if (typeof value !== "string")
    throw invalidArg(argIndex, "json: cannot unmarshal non-string into Go value of type hexutil.Uint64");
  if (!/^0[xX]/.test(value)) throw invalidArg(argIndex, "hex string without 0x prefix");
  const digits = value.slice(2);
  if (digits.length === 0) throw invalidArg(argIndex, 'hex string "0x"');
  if (digits.length > 1 && digits.startsWith("0")) throw invalidArg(argIndex, "hex number with leading zero digits");
  if (!/^[0-9a-fA-F]+$/.test(digits)) throw invalidArg(argIndex, "invalid hex string");
  if (digits.length > 16) throw invalidArg(argIndex, "hex number > 64 bits");
  return Number.parseInt(digits, 16);
}

function paramsArray(params: unknown): unknown[] {
  if (params === undefined || params === null) return [];
  if (!Array.isArray(params)) throw new RpcError(-32602, "non-array args");
  return params;
}

function requireArg(args: unknown[], i: number): unknown {
  if (args[i] === undefined || args[i] === null) throw new RpcError(-32602, `missing value for required argument ${i}`);
  return args[i];
}

function parseAddress(value: unknown, argIndex: number): string {
  if (typeof value !== "string")
    throw invalidArg(argIndex, "json: cannot unmarshal non-string into Go value of type common.Address");
  if (!/^0[xX]/.test(value)) throw invalidArg(argIndex, "hex string without 0x prefix");
  if (value.length - 2 !== 40)
    throw invalidArg(argIndex, `hex string has length ${value.length - 2}, want 40 for common.Address`);
  if (!/^0[xX][0-9a-fA-F]{40}$/.test(value)) throw invalidArg(argIndex, "invalid hex string");
  return value.toLowerCase();
}

export class EthereumFamily implements JsonRpcFamily {
  readonly kind = "jsonrpc" as const;
  readonly subscriptionIdStyle = "hex" as const;
  readonly dialect: RpcDialect;
  readonly network: ChainNetwork;
  readonly clientVersion: string;
  readonly nethermind: boolean;

  constructor(network: ChainNetwork, clientVersion?: string) {
    this.network = network;
    this.clientVersion = clientVersion ?? DEFAULT_GETH_VERSION;
    this.nethermind = /^nethermind/i.test(this.clientVersion);
    this.dialect = this.nethermind ? nethermindDialect : gethDialect;
  }

  /** Methods this client has unless configured missing: geth has no trace_ namespace. */
  #hasMethod(method: string): boolean {
    return !(method === "trace_block" && !this.nethermind);
  }

  finalizedOf(head: number): number {
    return Math.max(0, (Math.floor(head / 32) - 2) * 32);
  }

  safeOf(head: number): number {
    return Math.max(0, (Math.floor(head / 32) - 1) * 32);
  }

  /** A block parameter (tag, quantity or EIP-1898 object) to a height; null = beyond the head. */
  resolveBlock(value: unknown, view: HeadView, argIndex: number): number | null {
    if (isPlainObject(value)) {
      if (typeof value.blockHash === "string") {
        const h = this.network.heightOfHash(value.blockHash);
        if (h === undefined || h > view.head) throw new RpcError(-32000, `header for hash not found`);
        return h;
      }
      if (value.blockNumber !== undefined) return this.resolveBlock(value.blockNumber, view, argIndex);
      throw invalidArg(argIndex, "types BlockNumberOrHash: neither blockHash nor blockNumber given");
    }
    switch (value) {
      case "latest":
      case "pending":
        return view.head;
      case "earliest":
        return 0;
      case "finalized":
        return this.finalizedOf(view.head);
      case "safe":
        return this.safeOf(view.head);
      default: {
        const n = parseQuantity(value, argIndex);
        return n > view.head ? null : n;
      }
    }
  }

  call(method: string, params: unknown, ctx: CallContext): unknown {
    if (ctx.node.isMissing(method) || !this.#hasMethod(method)) throw this.dialect.methodNotFound(method);
    const { view, node } = ctx;
    const args = paramsArray(params);
    switch (method) {
      case "eth_blockNumber":
        return hex(view.head);
      case "eth_chainId":
        return hex(this.network.info.chainId ?? 1);
      case "net_version":
        return String(this.network.info.chainId ?? 1);
      case "net_peerCount":
        return hex(node.peers);
      case "net_listening":
        return true;
      case "web3_clientVersion":
        return this.clientVersion;
      case "eth_syncing":
        return node.syncing ? this.#syncState(view) : false;
      case "eth_gasPrice": {
        const { baseFee } = buildContent(this.network, view.head);
        return hex(baseFee + 1_000_000_000n);
      }
      case "eth_getBlockByNumber": {
        const height = this.resolveBlock(requireArg(args, 0), view, 0);
        const full = requireArg(args, 1);
        if (typeof full !== "boolean")
          throw invalidArg(1, "json: cannot unmarshal non-bool into Go value of type bool");
        return height === null ? null : buildEthBlock(this.network, height, { full, totalDifficulty: this.nethermind });
      }
      case "eth_getBlockByHash": {
        const hash = requireArg(args, 0);
        const full = requireArg(args, 1);
        if (typeof hash !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(hash))
          throw invalidArg(0, "hex string has wrong length, want 64 for common.Hash");
        if (typeof full !== "boolean")
          throw invalidArg(1, "json: cannot unmarshal non-bool into Go value of type bool");
        const height = this.network.heightOfHash(hash);
        return height === undefined || height > view.head
          ? null
          : buildEthBlock(this.network, height, { full, totalDifficulty: this.nethermind });
      }
      case "eth_getBalance": {
        const addr = parseAddress(requireArg(args, 0), 0);
        const height = this.resolveBlock(args[1] ?? "latest", view, 1);
        if (height === null) throw new RpcError(-32000, "header not found");
        this.#requireState(height, view, node.config.archive);
        return hex(balanceAt(this.network, addr, height));
      }
      case "eth_getLogs":
        return this.#getLogs(requireArg(args, 0), view, node.config.getLogsMaxRange);
      case "debug_traceBlockByNumber": {
        const height = this.resolveBlock(requireArg(args, 0), view, 0);
        if (height === null) throw new RpcError(-32000, `block #${parseQuantityOrTag(args[0])} not found`);
        const tracer = isPlainObject(args[1]) ? args[1].tracer : undefined;
        if (!node.config.archive && height < view.head - RECENT_STATES) {
          throw new RpcError(-32000, `required historical state unavailable (reexec=128)`);
        }
        if (tracer === undefined) {
          // Opcode-level struct logs are not simulated: every transaction reports an empty opcode list.
          return buildContent(this.network, height).txs.map((tx) => ({
            txHash: tx.hash,
            result: {
              gas: Number(tx.gasUsed),
              failed: false,
              returnValue: tx.token ? "1".padStart(64, "0") : "",
              structLogs: [],
            },
          }));
        }
        if (tracer !== "callTracer") throw new RpcError(-32000, `tracer ${JSON.stringify(tracer)} not found`);
        return buildCallTraces(this.network, height);
      }
      case "trace_block": {
        const height = this.resolveBlock(requireArg(args, 0), view, 0);
        if (height === null) return null;
        return buildParityTraces(this.network, height);
      }
      case "eth_subscribe":
      case "eth_unsubscribe":
        throw new RpcError(-32601, "notifications not supported");
      default:
        throw this.dialect.methodNotFound(method);
    }
  }

  #requireState(height: number, view: HeadView, archive: boolean): void {
    if (archive || height > view.head - RECENT_STATES) return;
    const root = this.network.blockHex(height, "state");
    if (this.nethermind)
      throw new RpcError(-32002, `No state available for block ${this.network.blockHashHex(height)}`);
    throw new RpcError(-32000, `missing trie node ${root.slice(2)} (path ) state ${root} is not available`);
  }

  #syncState(view: HeadView): Record<string, string> {
    const zero = "0x0";
    const base = {
      startingBlock: hex(Math.max(0, view.head - 5000)),
      currentBlock: hex(view.head),
      highestBlock: hex(Math.max(view.head, view.networkHead)),
    };
    if (this.nethermind) return { ...base, syncMode: "0x4" };
    return {
      ...base,
      syncedAccounts: zero,
      syncedAccountBytes: zero,
      syncedBytecodes: zero,
      syncedBytecodeBytes: zero,
      syncedStorage: zero,
      syncedStorageBytes: zero,
      healedTrienodes: zero,
      healedTrienodeBytes: zero,
      healedBytecodes: zero,
      healedBytecodeBytes: zero,
      healingTrienodes: zero,
      healingBytecode: zero,
      txIndexFinishedBlocks: zero,
      txIndexRemainingBlocks: zero,
    };
  }

  #getLogs(filterArg: unknown, view: HeadView, maxRange: number | undefined): unknown[] {
    if (!isPlainObject(filterArg))
      throw invalidArg(0, "json: cannot unmarshal non-object into Go value of type filters.FilterCriteria");
    const filter = filterArg;
    let from: number;
    let to: number;
    if (typeof filter.blockHash === "string") {
      if (filter.fromBlock !== undefined || filter.toBlock !== undefined)
        throw invalidArg(0, "cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other");
      const h = this.network.heightOfHash(filter.blockHash);
      if (h === undefined || h > view.head) throw new RpcError(-32000, "unknown block");
      from = h;
      to = h;
    } else {
      from = this.resolveBlock(filter.fromBlock ?? "latest", view, 0) ?? view.head;
      to = this.resolveBlock(filter.toBlock ?? "latest", view, 0) ?? view.head;
      if (from > to) throw new RpcError(-32000, "invalid block range params");
    }
    if (maxRange !== undefined && to - from + 1 > maxRange)
      throw new RpcError(-32000, `exceed maximum block range: ${maxRange}`);
    const addresses =
      filter.address === undefined || filter.address === null
        ? []
        : Array.isArray(filter.address)
          ? filter.address
          : [filter.address];
    const wanted = new Set(addresses.map((a, i) => parseAddress(a, i)));
    const topics = Array.isArray(filter.topics) ? filter.topics : [];
    const out: unknown[] = [];
    for (let h = from; h <= to; h += 1) {
      const content = buildContent(this.network, h);
      for (const log of content.logs) {
        if (wanted.size > 0 && !wanted.has(log.address)) continue;
        const matches = topics.every(
          (t, i) =>
            t === null ||
            (Array.isArray(t)
              ? t.length === 0 ||
                t
                  .map(String)
                  .map((x) => x.toLowerCase())
                  .includes(log.topics[i] ?? "")
              : String(t).toLowerCase() === log.topics[i]),
        );
        if (!matches) continue;
        out.push(formatLog(this.network, h, log, content.txs[log.txIndex]!.hash));
      }
    }
    return out;
  }

  openSubscription(method: string, params: unknown, ctx: CallContext): SubscriptionRequest | undefined {
    if (method !== "eth_subscribe") return undefined;
    if (ctx.node.isMissing(method)) throw this.dialect.methodNotFound(method);
    const [kind] = paramsArray(params);
    if (kind === "newHeads") return { topic: "newHeads", notifyMethod: "eth_subscription", sendInitial: false };
    throw new RpcError(-32601, `no ${JSON.stringify(kind)} subscription in eth namespace`);
  }

  unsubscribeTarget(method: string, params: unknown): string | undefined {
    if (method !== "eth_unsubscribe") return undefined;
    const [id] = paramsArray(params);
    return typeof id === "string" ? id : "";
  }

  renderNotification(_request: SubscriptionRequest, height: number): unknown {
    return buildEthHeader(this.network, height);
  }

  topicHeight(_topic: string, view: HeadView): number {
    return view.head;
  }
}

function parseQuantityOrTag(value: unknown): string {
  return typeof value === "string" && value.startsWith("0x")
    ? String(Number.parseInt(value.slice(2), 16))
    : String(value);
}
