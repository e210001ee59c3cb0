import { z } from "zod";
import { CallError, hexQuantity, isMethodMissing, requireResult, toBlockNumber } from "../rpc.js";
import type { Tri } from "../types.js";
import { supportsBatch, supportsMethod, type FamilyAdapter, type FamilyContext } from "./types.js";

const blockSchema = z.object({ number: z.string(), timestamp: z.string() }).loose();
const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";
/** eth_getLogs ranges tried, widest first; the first accepted one is reported. */
export const LOGS_RANGES = [10_000, 5_000, 2_000, 1_000, 500, 100] as const;
const NO_STATE =
  /missing trie node|state .*not available|historical state|no state available|pruned|header not found|state .*unavailable/i;

function parseBlock(result: unknown): { number: number; timestampMs: number } | null {
  const parsed = blockSchema.safeParse(result);
  if (!parsed.success) return null;
  const number = toBlockNumber(parsed.data.number);
  const ts = toBlockNumber(parsed.data.timestamp);
  return number === null || ts === null ? null : { number, timestampMs: ts * 1000 };
}

async function logsRange(
  ctx: FamilyContext,
  head: number,
  { logsRanges }: { logsRanges: readonly number[] },
): Promise<{ logsMaxRange: number | null; logsRangeLimited: Tri }> {
  for (const range of logsRanges) {
    try {
      const reply = await ctx.rpc("eth_getLogs", [
        { fromBlock: hexQuantity(Math.max(0, head - range + 1)), toBlock: hexQuantity(head), address: ZERO_ADDRESS },
      ]);
      if (reply.ok) return { logsMaxRange: range, logsRangeLimited: range !== logsRanges[0] };
      if (isMethodMissing(reply.error)) return { logsMaxRange: null, logsRangeLimited: null };
    } catch {
      return { logsMaxRange: null, logsRangeLimited: null };
    }
  }
  return { logsMaxRange: null, logsRangeLimited: true };
}

/** Namespace → one method proving it; params chosen so any node answers quickly. */
const METHOD_CHECKS: ReadonlyArray<[string, string, unknown]> = [
  ["eth", "eth_chainId", []],
  ["net", "net_version", []],
  ["web3", "web3_clientVersion", []],
  // Block 1 has no transactions: cheap to trace, and a pruned node still proves the namespace exists.
  ["debug", "debug_traceBlockByNumber", ["0x1", { tracer: "callTracer" }]],
  ["trace", "trace_block", ["0x1"]],
  ["txpool", "txpool_status", []],
];

export const ethereumAdapter: FamilyAdapter = {
  archiveDepth: 1_000_000,
  methodGroups: METHOD_CHECKS.map(([group]) => group),
  corsMethod: "POST",

  async head(ctx, { finality }) {
    const method = "eth_getBlockByNumber";
    const reply = await ctx.rpc(method, ["latest", false]);
    const block = parseBlock(requireResult(reply, method));
    if (!block)
      throw new CallError("rpc", `${method}: unexpected result shape`, {
        httpStatus: reply.response.status,
        response: reply.response,
      });
    let finalizedBlock: number | null = null;
    if (finality) {
      // Separate request after the timed head call; a node without the tag just reports no finality.
      try {
        const fin = await ctx.rpc(method, ["finalized", false]);
        finalizedBlock = fin.ok ? (parseBlock(fin.result)?.number ?? null) : null;
      } catch {
        finalizedBlock = null;
      }
    }
    return { headBlock: block.number, headTime: block.timestampMs, finalizedBlock, response: reply.response };
  },

  async archive(ctx, head, depth) {
    const block = Math.max(1, head - depth);
    try {
      const reply = await ctx.rpc("eth_getBalance", [ZERO_ADDRESS, hexQuantity(block)]);
      if (reply.ok) return { supported: typeof reply.result === "string", block, detail: null };
      return { supported: NO_STATE.test(reply.error.message) ? false : null, block, detail: reply.error.message };
    } catch (err) {
      return { supported: null, block, detail: (err as Error).message };
    }
  },

  async methods(ctx) {
    const out: Record<string, Tri> = {};
    for (const [group, method, params] of METHOD_CHECKS) out[group] = await supportsMethod(ctx, method, params);
    return out;
  },

  batch: (ctx) =>
    supportsBatch(ctx, [
      { method: "eth_chainId", params: [] },
      { method: "eth_blockNumber", params: [] },
    ]),

  async clientVersion(ctx) {
    try {
      const reply = await ctx.rpc("web3_clientVersion", []);
      return reply.ok && typeof reply.result === "string" ? reply.result.slice(0, 200) : null;
    } catch {
      return null;
    }
  },

  ws: {
    call: { method: "eth_blockNumber", params: [] },
    subscribe: { method: "eth_subscribe", params: ["newHeads"], parse: parseBlock },
  },

  extras: logsRange,
};
