import { RpcError, type RpcDialect } from "../jsonrpc.js";
import type { ChainNetwork } from "../network.js";
import type { HeadView } from "../sim-node.js";
import {
  buildDigestLogs,
  CHAIN_PROPERTIES,
  encodeCompact,
  GENESIS_HASHES,
  STORAGE_KEYS,
  type RuntimeSnapshot,
} from "./substrate-runtime.js";
import { validatorBookOf } from "./substrate-validators.js";
import type { CallContext, JsonRpcFamily, SubscriptionRequest, SubscriptionTopic } from "./types.js";

/** Substrate (polkadot-sdk node, jsonrpsee server) JSON-RPC over HTTP and WebSocket. */

export const DEFAULT_POLKADOT_VERSION = "1.20.2-8bbd7df9e6a";
/** Blocks of state a pruned node keeps (--state-pruning default). */
const KEPT_STATES = 256;

const jsonrpseeDialect: RpcDialect = {
  parseError: () => new RpcError(-32700, "Parse error"),
  invalidRequest: () => new RpcError(-32600, "Invalid request"),
  emptyBatch: () => new RpcError(-32600, "Invalid request"),
  batchTooLarge: (limit) => new RpcError(-32010, "The batch request was too large", `Exceeded max limit of ${limit}`),
  methodNotFound: () => new RpcError(-32601, "Method not found"),
  internalError: () => new RpcError(-32603, "Internal error"),
  rateLimited: () => new RpcError(-32999, "RPC rate limit exceeded"),
};

const invalidParams = (data: string): RpcError => new RpcError(-32602, "Invalid params", data);

const SUBSCRIBE: Record<string, SubscriptionRequest> = {
  chain_subscribeNewHeads: { topic: "newHeads", notifyMethod: "chain_newHead", sendInitial: true },
  chain_subscribeNewHead: { topic: "newHeads", notifyMethod: "chain_newHead", sendInitial: true },
  subscribe_newHead: { topic: "newHeads", notifyMethod: "chain_newHead", sendInitial: true },
  chain_subscribeAllHeads: { topic: "allHeads", notifyMethod: "chain_allHead", sendInitial: true },
  chain_subscribeFinalizedHeads: { topic: "finalizedHeads", notifyMethod: "chain_finalizedHead", sendInitial: true },
  chain_subscribeFinalisedHeads: { topic: "finalizedHeads", notifyMethod: "chain_finalizedHead", sendInitial: true },
  state_subscribeStorage: { topic: "storage", notifyMethod: "state_storage", sendInitial: true },
  state_subscribeRuntimeVersion: { topic: "runtimeVersion", notifyMethod: "state_runtimeVersion", sendInitial: true },
  chain_subscribeRuntimeVersion: { topic: "runtimeVersion", notifyMethod: "state_runtimeVersion", sendInitial: true },
};
const UNSUBSCRIBE = new Set([
  "chain_unsubscribeNewHeads",
  "chain_unsubscribeNewHead",
  "unsubscribe_newHead",
  "chain_unsubscribeAllHeads",
  "chain_unsubscribeFinalizedHeads",
  "chain_unsubscribeFinalisedHeads",
  "state_unsubscribeStorage",
  "state_unsubscribeRuntimeVersion",
  "chain_unsubscribeRuntimeVersion",
]);
const CALLS = [
  "chain_getHeader",
  "chain_getBlockHash",
  "chain_getHead",
  "chain_getFinalizedHead",
  "chain_getFinalisedHead",
  "system_health",
  "system_syncState",
  "system_version",
  "system_chain",
  "system_name",
  "system_chainType",
  "system_properties",
  "rpc_methods",
  "state_getRuntimeVersion",
  "chain_getRuntimeVersion",
  "state_getMetadata",
  "state_call",
  "state_callAt",
  "state_getStorage",
  "state_getStorageAt",
  "state_queryStorageAt",
  // An unsafe method (--rpc-methods=unsafe): whether the node's keystore holds these session keys.
  "author_hasSessionKeys",
];

export class SubstrateFamily implements JsonRpcFamily {
  readonly kind = "jsonrpc" as const;
  readonly dialect = jsonrpseeDialect;
  readonly subscriptionIdStyle = "alnum" as const;
  readonly network: ChainNetwork;
  readonly runtime: RuntimeSnapshot | undefined;
  readonly clientVersion: string;

  constructor(network: ChainNetwork, runtime: RuntimeSnapshot | undefined, clientVersion?: string) {
    this.network = network;
    this.runtime = runtime;
    this.clientVersion = clientVersion ?? DEFAULT_POLKADOT_VERSION;
  }

  finalizedOf(head: number): number {
    return Math.max(0, head - 2 - (this.network.blockBytes(head, "grandpa", 1)[0]! % 2));
  }

  hashOf(height: number): string {
    return height === 0
      ? (GENESIS_HASHES[this.network.slug] ?? this.network.blockHashHex(0))
      : this.network.blockHashHex(height);
  }

  heightOf(hash: string): number | undefined {
    if (hash.toLowerCase() === GENESIS_HASHES[this.network.slug]) return 0;
    return this.network.heightOfHash(hash);
  }

  header(height: number): Record<string, unknown> {
    const logs =
      height === 0
        ? []
        : [buildDigestLogs(this.network, height).preRuntime, buildDigestLogs(this.network, height).seal];
    return {
      parentHash: height === 0 ? `0x${"0".repeat(64)}` : this.hashOf(height - 1),
      number: `0x${height.toString(16)}`,
      stateRoot: this.network.blockHex(height, "state"),
      extrinsicsRoot: this.network.blockHex(height, "extrinsics"),
      digest: { logs },
    };
  }

  /** Height named by an optional block-hash parameter; undefined = unknown to this node. */
  #at(value: unknown, view: HeadView): number | undefined {
    if (value === undefined || value === null) return view.head;
    if (typeof value !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(value))
      throw invalidParams(
        `invalid type: ${JSON.stringify(value)}, expected a 0x-prefixed hex string with length of 64`,
      );
    const h = this.heightOf(value);
    return h === undefined || h > view.head ? undefined : h;
  }

  methodNames(): string[] {
    return [...CALLS, ...Object.keys(SUBSCRIBE), ...UNSUBSCRIBE].sort();
  }

  call(method: string, params: unknown, ctx: CallContext): unknown {
    if (ctx.node.isMissing(method) || SUBSCRIBE[method] || UNSUBSCRIBE.has(method))
      throw this.dialect.methodNotFound(method);
    const args = params === undefined || params === null ? [] : params;
    if (!Array.isArray(args)) throw invalidParams("expected an array of parameters");
    const { view, node } = ctx;
    switch (method) {
      case "author_hasSessionKeys": {
        // https://paritytech.github.io/polkadot-sdk/master/sc_rpc_api/author/trait.AuthorApiServer.html
        const keys = args[0];
        if (typeof keys !== "string" || !/^0x([0-9a-fA-F]{2})*$/.test(keys))
          throw invalidParams(`invalid type: ${JSON.stringify(keys)}, expected a 0x-prefixed hex string`);
        return validatorBookOf(this.network).hasSessionKeys(keys);
      }
      case "chain_getHeader": {
        const h = this.#at(args[0], view);
        return h === undefined ? null : this.header(h);
      }
      case "chain_getBlockHash":
      case "chain_getHead":
        return this.#blockHash(args[0], view);
      case "chain_getFinalizedHead":
      case "chain_getFinalisedHead":
        return this.hashOf(this.finalizedOf(view.head));
      case "system_health":
        return { peers: node.peers, isSyncing: node.syncing, shouldHavePeers: true };
      case "system_syncState":
        return {
          startingBlock: Math.max(0, view.head - (node.syncing ? 5000 : 0) - 1200),
          currentBlock: view.head,
          highestBlock: Math.max(view.head, view.networkHead),
        };
      case "system_version":
        return this.clientVersion;
      case "system_chain":
        return this.network.info.genesisName;
      case "system_name":
        return "Parity Polkadot";
      case "system_chainType":
        return "Live";
      case "system_properties":
        return CHAIN_PROPERTIES[this.network.slug] ?? {};
      case "rpc_methods":
        return { methods: this.methodNames().filter((m) => !node.isMissing(m)) };
      case "state_getRuntimeVersion":
      case "chain_getRuntimeVersion":
        this.#requireBlock(args[0], view);
        return this.#runtime().version;
      case "state_getMetadata":
        this.#requireState(args[0], view, node.config.archive);
        return this.#runtime().metadataHex;
      case "state_call":
      case "state_callAt":
        this.#requireState(args[2], view, node.config.archive);
        return this.#stateCall(args[0], args[1]);
      case "state_getStorage":
      case "state_getStorageAt": {
        const height = this.#requireState(args[1], view, node.config.archive);
        return this.#storage(args[0], height);
      }
      case "state_queryStorageAt": {
        const keys = args[0];
        if (!Array.isArray(keys)) throw invalidParams("invalid type: expected a sequence of storage keys");
        const height = this.#requireState(args[1], view, node.config.archive);
        return [{ block: this.hashOf(height), changes: keys.map((key) => [key, this.#storage(key, height)]) }];
      }
      default:
        throw this.dialect.methodNotFound(method);
    }
  }

  #runtime(): RuntimeSnapshot {
    if (!this.runtime)
      throw new RpcError(-32603, "Internal error", "runtime snapshot unavailable: install @polkadot/types-support");
    return this.runtime;
  }

  #blockHash(arg: unknown, view: HeadView): unknown {
    if (Array.isArray(arg)) return arg.map((n) => this.#blockHash(n, view));
    if (arg === undefined || arg === null) return this.hashOf(view.head);
    let n: number;
    if (typeof arg === "number" && Number.isInteger(arg) && arg >= 0) n = arg;
    else if (typeof arg === "string" && /^0x[0-9a-fA-F]+$/.test(arg)) n = Number.parseInt(arg.slice(2), 16);
    else if (typeof arg === "string" && /^\d+$/.test(arg)) n = Number(arg);
    else throw invalidParams(`invalid type: ${JSON.stringify(arg)}, expected a block number or hash`);
    return n > view.head ? null : this.hashOf(n);
  }

  #requireBlock(arg: unknown, view: HeadView): number {
    const h = this.#at(arg, view);
    if (h === undefined)
      throw new RpcError(4003, `Client error: UnknownBlock: Header was not found in the database: ${String(arg)}`);
    return h;
  }

  /** Height whose state is asked for; pruned nodes only keep the latest 256 states. */
  #requireState(arg: unknown, view: HeadView, archive: boolean): number {
    const h = this.#requireBlock(arg, view);
    if (!archive && h < view.head - KEPT_STATES) {
      throw new RpcError(4003, `Client error: UnknownBlock: State already discarded for ${this.hashOf(h)}`);
    }
    return h;
  }

  #storage(key: unknown, height: number): string | null {
    if (typeof key !== "string" || !/^0x([0-9a-fA-F]{2})*$/.test(key))
      throw invalidParams(`invalid type: ${JSON.stringify(key)}, expected a hex string`);
    switch (key.toLowerCase()) {
      case STORAGE_KEYS.systemNumber: {
        const b = Buffer.alloc(4);
        b.writeUInt32LE(height);
        return `0x${b.toString("hex")}`;
      }
      case STORAGE_KEYS.systemParentHash:
        return height === 0 ? `0x${"0".repeat(64)}` : this.hashOf(height - 1);
      case STORAGE_KEYS.timestampNow: {
        const b = Buffer.alloc(8);
        b.writeBigUInt64LE(BigInt(this.network.timeOfHeight(height)));
        return `0x${b.toString("hex")}`;
      }
      default:
        return null;
    }
  }

  #stateCall(name: unknown, data: unknown): string {
    if (typeof name !== "string" || typeof data !== "string") throw invalidParams("expected [method, data, at?]");
    if (name === "Metadata_metadata_versions")
      return `0x${Buffer.concat([encodeCompact(1), Buffer.from([14, 0, 0, 0])]).toString("hex")}`;
    if (name === "Metadata_metadata_at_version") {
      const version = Buffer.from(data.slice(2), "hex").readUInt32LE(0);
      if (version !== 14) return "0x00";
      const meta = Buffer.from(this.#runtime().metadataHex.slice(2), "hex");
      return `0x${Buffer.concat([Buffer.from([1]), encodeCompact(meta.length), meta]).toString("hex")}`;
    }
    throw new RpcError(4003, `Client error: Execution failed: Other: Exported method ${name} is not found`);
  }

  openSubscription(method: string, params: unknown, ctx: CallContext): SubscriptionRequest | undefined {
    const sub = SUBSCRIBE[method];
    if (sub && ctx.node.isMissing(method)) throw this.dialect.methodNotFound(method);
    if (sub?.topic !== "storage") return sub;
    const keys = Array.isArray(params) ? params[0] : undefined;
    if (!Array.isArray(keys) || keys.some((k) => typeof k !== "string" || !/^0x([0-9a-fA-F]{2})*$/.test(k))) {
      throw invalidParams("invalid type: expected a sequence of hex-encoded storage keys");
    }
    return { ...sub, keys: keys as string[] };
  }

  unsubscribeTarget(method: string, params: unknown): string | undefined {
    if (!UNSUBSCRIBE.has(method)) return undefined;
    const id = Array.isArray(params) ? params[0] : undefined;
    return typeof id === "string" ? id : "";
  }

  renderNotification(
    request: SubscriptionRequest,
    height: number,
    _ctx: CallContext,
    previousHeight?: number,
  ): unknown {
    if (request.topic === "runtimeVersion") return this.#runtime().version;
    if (request.topic !== "storage") return this.header(height);
    // state_storage: the first message carries every key, later ones only the keys whose value changed.
    const changes = (request.keys ?? [])
      .map((key): [string, string | null] => [key, this.#storage(key, height)])
      .filter(([key, value]) => previousHeight === undefined || this.#storage(key, previousHeight) !== value);
    if (previousHeight !== undefined && changes.length === 0) return undefined;
    return { block: this.hashOf(height), changes };
  }

  topicHeight(topic: SubscriptionTopic, view: HeadView): number {
    if (topic === "finalizedHeads") return this.finalizedOf(view.head);
    if (topic === "runtimeVersion") return 0;
    if (topic === "storage") return view.head;
    return view.head;
  }
}
