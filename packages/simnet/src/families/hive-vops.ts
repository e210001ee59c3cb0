import type { ChainNetwork } from "../network.js";
import { deriveInt } from "../random.js";
import { assertError, namedArgs, toUint } from "./hive-args.js";
import { createAssetFormat, formatHiveTime, type HiveFlavor } from "./hive-assets.js";
import type { WitnessBook } from "./hive-witnesses.js";

/**
 * Virtual operations of the simulated chain, as the account-history plugin serves them: a
 * producer_reward in every block, and on Hive a producer_missed in the block whose slot the scheduled
 * witness missed (the witness book's misses). Steem has no producer_missed operation (Hive added it
 * with HF26), so a Steem network lists only the rewards.
 *
 * Shapes from the public API reference:
 * - https://developers.hive.io/apidefinitions/#account_history_api.enum_virtual_ops: named args
 *   block_range_begin, block_range_end (exclusive), operation_begin, limit, filter (a bit per virtual
 *   operation: producer_reward_operation = 0x4000, producer_missed_operation = 0x1000000000),
 *   include_reversible, group_by_block; answers { ops, ops_by_block, next_block_range_begin,
 *   next_operation_begin };
 * - https://developers.hive.io/apidefinitions/#account_history_api.get_ops_in_block: { block_num,
 *   only_virtual, include_reversible } → { ops }; condenser_api.get_ops_in_block: [block_num, only_virtual]
 *   → the same objects with legacy operations;
 * - operations: appbase renders { "type": "producer_missed_operation", "value": { "producer": "…" } },
 *   condenser ["producer_missed", { "producer": "…" }]
 *   (https://developers.hive.io/apidefinitions/#apidefinitions-broadcast-ops, virtual operations).
 * Blocks after the last irreversible one are left out unless include_reversible is true, as on hived.
 */

export const VOP_FILTER_BITS = {
  producer_reward_operation: 0x4000n,
  producer_missed_operation: 0x1000000000n,
} as const;

type VopType = keyof typeof VOP_FILTER_BITS;

/** Blocks one enum_virtual_ops call walks at most; the rest is paged by next_block_range_begin. */
const MAX_BLOCKS_PER_CALL = 2_000;
const NO_TRX = "0000000000000000000000000000000000000000";

export interface VopSource {
  network: ChainNetwork;
  flavor: HiveFlavor;
  witnesses: WitnessBook;
  libLagBlocks: number;
}

interface Vop {
  type: VopType;
  block: number;
  opInBlock: number;
  value: Record<string, unknown>;
}

function blockVops(src: VopSource, height: number, style: "legacy" | "nai"): Vop[] {
  const out: Vop[] = [];
  const missed = src.flavor.chain === "hive" ? src.witnesses.missedAt(height) : null;
  if (missed !== null)
    out.push({ type: "producer_missed_operation", block: height, opInBlock: 0, value: { producer: missed } });
  const producer = src.witnesses.producerOf(height);
  const vests = 450_000_000n + BigInt(deriveInt(100_000_000, src.network.seed, "reward", height));
  out.push({
    type: "producer_reward_operation",
    block: height,
    opInBlock: out.length,
    value: { producer, vesting_shares: createAssetFormat(src.flavor, style).vests(vests) },
  });
  return out;
}

function render(src: VopSource, vop: Vop, style: "legacy" | "nai"): Record<string, unknown> {
  const base = {
    trx_id: NO_TRX,
    block: vop.block,
    trx_in_block: 4_294_967_295,
    op_in_trx: vop.opInBlock,
    virtual_op: style === "nai" ? true : 1,
    timestamp: formatHiveTime(src.network.timeOfHeight(vop.block)),
  };
  const op = style === "nai" ? { type: vop.type, value: vop.value } : [vop.type.replace(/_operation$/, ""), vop.value];
  return { ...base, op, operation_id: style === "nai" ? String(vop.block * 1_000 + vop.opInBlock) : 0 };
}

function lastVisible(src: VopSource, head: number, includeReversible: boolean): number {
  return includeReversible ? head : Math.max(0, head - src.libLagBlocks);
}

const METHOD = "account_history_api.enum_virtual_ops";

/** account_history_api.enum_virtual_ops over [block_range_begin, block_range_end). */
export function enumVirtualOps(src: VopSource, params: unknown, head: number): Record<string, unknown> {
  const args = namedArgs(params, METHOD);
  const begin = toUint(args.block_range_begin ?? 0, METHOD);
  const end = toUint(args.block_range_end ?? 0, METHOD);
  const limit = args.limit === undefined ? 150_000 : toUint(args.limit, METHOD);
  if (limit < 1 || limit > 150_000) {
    throw assertError(
      "limit <= max_limit: limit of ${l} is greater than maxmimum allowed",
      { l: limit },
      METHOD,
      "account_history_api.cpp",
    );
  }
  if (end <= begin) {
    throw assertError("block_range_begin < block_range_end", {}, METHOD, "account_history_api.cpp");
  }
  const filter = args.filter === undefined ? null : BigInt(toUint(args.filter, METHOD));
  const includeReversible = args.include_reversible === true;
  const grouped = args.group_by_block === true;
  const stop = Math.min(end, begin + MAX_BLOCKS_PER_CALL, lastVisible(src, head, includeReversible) + 1);
  const ops: Record<string, unknown>[] = [];
  const byBlock: Record<string, unknown>[] = [];
  let next = Math.max(begin, stop);
  for (let h = Math.max(1, begin); h < stop; h++) {
    const picked = blockVops(src, h, "nai").filter((v) => filter === null || (filter & VOP_FILTER_BITS[v.type]) !== 0n);
    if (ops.length + picked.length > limit) {
      next = h;
      break;
    }
    const rendered = picked.map((v) => render(src, v, "nai"));
    if (grouped && rendered.length > 0) {
      byBlock.push({
        block: h,
        irreversible: h <= head - src.libLagBlocks,
        timestamp: formatHiveTime(src.network.timeOfHeight(h)),
        ops: rendered,
      });
    }
    ops.push(...rendered);
  }
  return {
    ops: grouped ? [] : ops,
    ops_by_block: byBlock,
    next_block_range_begin: next >= end ? end : next,
    next_operation_begin: 0,
  };
}

/** account_history_api.get_ops_in_block (style nai) / condenser_api.get_ops_in_block (legacy). */
export function opsInBlock(
  src: VopSource,
  args: { blockNum: number; onlyVirtual: boolean; includeReversible: boolean },
  head: number,
  style: "legacy" | "nai",
): Record<string, unknown>[] {
  // Only virtual operations are simulated; the block's transactions (condenser_api.get_block) carry the rest.
  if (args.blockNum < 1 || args.blockNum > lastVisible(src, head, args.includeReversible)) return [];
  return blockVops(src, args.blockNum, style).map((v) => render(src, v, style));
}
