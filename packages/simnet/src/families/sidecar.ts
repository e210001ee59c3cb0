import type { ChainNetwork } from "../network.js";
import { deriveBytes, deriveHex, deriveInt } from "../random.js";
import { handleStakingRoute } from "./sidecar-staking.js";
import { encodeSs58, SS58_PREFIX } from "./ss58.js";
import { validatorBookOf } from "./substrate-validators.js";
import { DEFAULT_POLKADOT_VERSION, SubstrateFamily } from "./substrate.js";
import { buildDigestLogs } from "./substrate-runtime.js";
import type { CallContext, RestFamily, RestResponse } from "./types.js";

/**
 * substrate-api-sidecar REST (v20 shapes): /blocks, /blocks/{id}/header, /node/version, and the
 * staking routes of sidecar-staking.ts.
 */

export { encodeSs58 } from "./ss58.js";

function badRequest(message: string): RestResponse {
  return {
    status: 400,
    body: {
      code: 400,
      message,
      stack: `BadRequestError: ${message}\n    at BlocksController.getHashFromAt (/usr/src/app/build/src/controllers/AbstractController.js:137:23)`,
      level: "error",
    },
  };
}

function splitDigest(hexItem: string): { engine: string; payload: string } {
  const bytes = Buffer.from(hexItem.slice(2), "hex");
  // [variant][engine id x4][compact length][payload]; lengths here always use the 2-byte compact form or the 1-byte one.
  const lenMode = bytes[5]! & 3;
  const start = lenMode === 0 ? 6 : 7;
  return { engine: `0x${bytes.subarray(1, 5).toString("hex")}`, payload: `0x${bytes.subarray(start).toString("hex")}` };
}

/**
 * im-online's SomeOffline event at a session start, as sidecar renders events
 * (`{method: {pallet, method}, data}`): data[0] is the Vec<(ValidatorId, Exposure)> of the stashes
 * that sent no heartbeat and authored no block in the session that ended.
 */
function offlineEvents(network: ChainNetwork, height: number): Array<Record<string, unknown>> {
  const offline = validatorBookOf(network).offlineAt(height);
  if (offline.length === 0) return [];
  return [
    {
      method: { pallet: "imOnline", method: "SomeOffline" },
      data: [offline.map((stash) => [stash, { total: "2500000000000000", own: "100000000000000", others: [] }])],
    },
  ];
}

export class SidecarFamily implements RestFamily {
  readonly kind = "rest" as const;
  readonly network: ChainNetwork;
  readonly substrate: SubstrateFamily;
  readonly clientVersion: string;

  constructor(network: ChainNetwork, clientVersion?: string) {
    this.network = network;
    this.substrate = new SubstrateFamily(network, undefined, clientVersion);
    this.clientVersion = clientVersion ?? DEFAULT_POLKADOT_VERSION;
  }

  handle(method: string, url: URL, ctx: CallContext): RestResponse {
    if (method !== "GET") return { status: 404, body: { code: 404, message: `Cannot ${method} ${url.pathname}` } };
    const parts = url.pathname.split("/").filter(Boolean);
    const noFees = url.searchParams.get("noFees") === "true";
    if (parts[0] === "node" && parts[1] === "version" && parts.length === 2) {
      return {
        status: 200,
        body: {
          clientVersion: this.clientVersion,
          clientImplName: "parity-polkadot",
          chain: this.network.info.genesisName,
        },
      };
    }
    if (parts[0] === "pallets" || parts[0] === "accounts") {
      const finalized = this.substrate.finalizedOf(ctx.view.head);
      const staking = handleStakingRoute(parts, url, {
        network: this.network,
        at: { height: finalized, hash: this.substrate.hashOf(finalized) },
      });
      if (staking) return staking;
    }
    if (
      parts[0] === "blocks" &&
      parts.length >= 2 &&
      parts.length <= 3 &&
      (parts.length === 2 || parts[2] === "header")
    ) {
      const id = decodeURIComponent(parts[1]!);
      let height: number;
      if (id === "head") {
        const finalizedParam = url.searchParams.get("finalized");
        const finalized = finalizedParam === null ? true : finalizedParam !== "false";
        height = finalized ? this.substrate.finalizedOf(ctx.view.head) : ctx.view.head;
      } else {
        const resolved = this.#resolveId(id, ctx.view.head);
        if (typeof resolved !== "number") return resolved;
        height = resolved;
      }
      return {
        status: 200,
        body: parts[2] === "header" ? this.#header(height) : this.#block(height, ctx.view.head, noFees),
      };
    }
    return { status: 404, body: { code: 404, message: `Cannot GET ${url.pathname}` } };
  }

  internalError(): RestResponse {
    return {
      status: 500,
      body: {
        code: 500,
        message: "Internal Server Error",
        stack: "InternalServerError: Internal Server Error",
        level: "error",
      },
    };
  }

  rateLimited(): RestResponse {
    return { status: 429, body: { code: 429, message: "Too Many Requests" } };
  }

  #resolveId(id: string, head: number): number | RestResponse {
    if (id.startsWith("0x")) {
      if (id.length !== 66 || !/^0x[0-9a-fA-F]+$/.test(id)) {
        return badRequest(
          `Cannot get block hash for ${id}. Hex string block IDs must be a valid hex string and must be 32-bytes (66-characters) in length.`,
        );
      }
      const h = this.substrate.heightOf(id);
      if (h === undefined || h > head) return badRequest(`Cannot get block hash for ${id}.`);
      return h;
    }
    if (!/^\d+$/.test(id)) {
      return badRequest(
        `Cannot get block hash for ${id}. Block IDs must be either 32-byte hex strings or non-negative decimal integers.`,
      );
    }
    const n = Number(id);
    if (n > head) {
      return badRequest(
        `Specified block number is larger than the current largest block. The largest known block number is ${head}.`,
      );
    }
    return n;
  }

  #header(height: number): Record<string, unknown> {
    const h = this.substrate.header(height);
    const logs = (h.digest as { logs: string[] }).logs.map((item, i) => {
      const { engine, payload } = splitDigest(item);
      return i === 0 ? { preRuntime: [engine, payload] } : { seal: [engine, payload] };
    });
    return {
      parentHash: h.parentHash,
      number: String(height),
      stateRoot: h.stateRoot,
      extrinsicsRoot: h.extrinsicsRoot,
      digest: { logs },
    };
  }

  #block(height: number, head: number, noFees: boolean): Record<string, unknown> {
    const h = this.substrate.header(height);
    const digest = height === 0 ? null : buildDigestLogs(this.network, height);
    const logs = digest
      ? [
          { type: "PreRuntime", index: "6", value: Object.values(splitDigest(digest.preRuntime)) },
          { type: "Seal", index: "5", value: Object.values(splitDigest(digest.seal)) },
        ]
      : [];
    const prefix = SS58_PREFIX[this.network.slug] ?? 42;
    return {
      number: String(height),
      hash: this.substrate.hashOf(height),
      parentHash: h.parentHash,
      stateRoot: h.stateRoot,
      extrinsicsRoot: h.extrinsicsRoot,
      authorId: digest
        ? encodeSs58(deriveBytes(32, this.network.seed, "validator", digest.authorityIndex), prefix)
        : undefined,
      logs,
      onInitialize: { events: offlineEvents(this.network, height) },
      extrinsics: height === 0 ? [] : this.#extrinsics(height, prefix, noFees),
      onFinalize: { events: [] },
      finalized: height <= this.substrate.finalizedOf(head),
    };
  }

  #extrinsics(height: number, prefix: number, noFees: boolean): Array<Record<string, unknown>> {
    const seed = this.network.seed;
    const success = (weight: number, cls: string, pays: string): Record<string, unknown> => ({
      method: { pallet: "system", method: "ExtrinsicSuccess" },
      data: [
        { weight: { refTime: String(weight), proofSize: String(1493 + (weight % 5000)) }, class: cls, paysFee: pays },
      ],
    });
    const out: Array<Record<string, unknown>> = [
      {
        method: { pallet: "timestamp", method: "set" },
        signature: null,
        nonce: null,
        args: { now: String(this.network.timeOfHeight(height)) },
        tip: null,
        hash: deriveHex(32, seed, "ext", height, 0),
        info: {},
        era: { immortalEra: "0x00" },
        events: [success(260_558_000, "Mandatory", "Yes")],
        success: true,
        paysFee: false,
      },
    ];
    const transfers = deriveInt(4, seed, "transfers", height);
    for (let i = 0; i < transfers; i += 1) {
      const signer = encodeSs58(deriveBytes(32, seed, "signer", height, i), prefix);
      const dest = encodeSs58(deriveBytes(32, seed, "dest", height, i), prefix);
      const value = String(BigInt(deriveInt(1_000_000, seed, "value", height, i)) * 10_000_000n);
      const fee = String(150_000_000 + deriveInt(50_000_000, seed, "fee", height, i));
      const weight = 190_000_000 + deriveInt(10_000_000, seed, "weight", height, i);
      out.push({
        method: { pallet: "balances", method: "transferKeepAlive" },
        signature: { signature: deriveHex(64, seed, "extsig", height, i), signer: { id: signer } },
        nonce: String(deriveInt(900, seed, "nonce", height, i)),
        args: { dest: { id: dest }, value },
        tip: "0",
        hash: deriveHex(32, seed, "ext", height, i + 1),
        info: noFees
          ? {}
          : {
              weight: { refTime: String(weight), proofSize: "3593" },
              class: "Normal",
              partialFee: fee,
              kind: "postDispatch",
            },
        era: { mortalEra: ["64", String(height % 64)] },
        events: [
          { method: { pallet: "balances", method: "Withdraw" }, data: [signer, fee] },
          { method: { pallet: "balances", method: "Transfer" }, data: [signer, dest, value] },
          { method: { pallet: "transactionPayment", method: "TransactionFeePaid" }, data: [signer, fee, "0"] },
          success(weight, "Normal", "Yes"),
        ],
        success: true,
        paysFee: true,
      });
    }
    return out;
  }
}
