import { z } from "zod";
import { CallError, requireResult, toBlockNumber } from "../rpc.js";
import type { Tri } from "../types.js";
import { supportsBatch, type FamilyAdapter, type FamilyContext, type NewHead } from "./types.js";

const headerSchema = z.object({ number: z.string() }).loose();
const methodsSchema = z.object({ methods: z.array(z.string()) }).loose();
/** twox128("System") ++ twox128("Number"): present at every block, so it needs that block's state. */
export const SYSTEM_NUMBER_KEY = "0x26aa394eea5630e07c48ae0c9558cef702a5c1b19ab7a04f536c519aca4983ac";
const NO_STATE = /state already discarded|unknownblock|pruned|not found in the database/i;

/** RPC groups reported from rpc_methods (prefix -> group). */
export const SUBSTRATE_GROUPS: ReadonlyArray<[string, string]> = [
  ["chain", "chain_"],
  ["state", "state_"],
  ["system", "system_"],
  ["author", "author_"],
  ["childstate", "childstate_"],
  ["payment", "payment_"],
  ["grandpa", "grandpa_"],
  ["babe", "babe_"],
  ["beefy", "beefy_"],
  ["mmr", "mmr_"],
  ["archive_v1", "archive_"],
  ["chainHead_v1", "chainHead_"],
  ["transaction_v1", "transaction"],
];

function parseHeader(result: unknown): NewHead | null {
  const parsed = headerSchema.safeParse(result);
  const number = parsed.success ? toBlockNumber(parsed.data.number) : null;
  return number === null ? null : { number, timestampMs: null };
}

async function headerNumber(
  ctx: FamilyContext,
  params: unknown[],
): Promise<{ number: number | null; reply: Awaited<ReturnType<FamilyContext["rpc"]>> }> {
  const reply = await ctx.rpc("chain_getHeader", params);
  return { number: parseHeader(requireResult(reply, "chain_getHeader"))?.number ?? null, reply };
}

export const substrateAdapter: FamilyAdapter = {
  archiveDepth: 1_000_000,
  methodGroups: SUBSTRATE_GROUPS.map(([group]) => group),
  corsMethod: "POST",

  async head(ctx, { finality }) {
    const { number, reply } = await headerNumber(ctx, []);
    if (number === null)
      throw new CallError("rpc", "chain_getHeader: unexpected result shape", {
        httpStatus: reply.response.status,
        response: reply.response,
      });
    let finalizedBlock: number | null = null;
    if (finality) {
      try {
        const fin = await ctx.rpc("chain_getFinalizedHead", []);
        if (fin.ok && typeof fin.result === "string") finalizedBlock = (await headerNumber(ctx, [fin.result])).number;
      } catch {
        finalizedBlock = null;
      }
    }
    return { headBlock: number, headTime: null, finalizedBlock, response: reply.response };
  },

  async archive(ctx, head, depth) {
    const block = Math.max(1, head - depth);
    try {
      const hash = await ctx.rpc("chain_getBlockHash", [block]);
      if (!hash.ok || typeof hash.result !== "string")
        return { supported: null, block, detail: hash.ok ? "no hash" : hash.error.message };
      const reply = await ctx.rpc("state_getStorage", [SYSTEM_NUMBER_KEY, hash.result]);
      if (reply.ok) return { supported: typeof reply.result === "string", block, detail: null };
      return { supported: NO_STATE.test(reply.error.message) ? false : null, block, detail: reply.error.message };
    } catch (err) {
      return { supported: null, block, detail: (err as Error).message };
    }
  },

  async methods(ctx) {
    const out: Record<string, Tri> = {};
    let names: string[] | null = null;
    try {
      const reply = await ctx.rpc("rpc_methods", []);
      const parsed = methodsSchema.safeParse(reply.ok ? reply.result : null);
      names = parsed.success ? parsed.data.methods : null;
    } catch {
      names = null;
    }
    for (const [group, prefix] of SUBSTRATE_GROUPS)
      out[group] = names === null ? null : names.some((n) => n.startsWith(prefix));
    return out;
  },

  batch: (ctx) =>
    supportsBatch(ctx, [
      { method: "system_chain", params: [] },
      { method: "chain_getHeader", params: [] },
    ]),

  async clientVersion(ctx) {
    try {
      const [name, version] = await Promise.all([ctx.rpc("system_name", []), ctx.rpc("system_version", [])]);
      const v = version.ok && typeof version.result === "string" ? version.result : null;
      const n = name.ok && typeof name.result === "string" ? name.result : null;
      return v === null ? n : n ? `${n} ${v}` : v;
    } catch {
      return null;
    }
  },

  ws: {
    call: { method: "system_chain", params: [] },
    subscribe: { method: "chain_subscribeNewHeads", params: [], parse: parseHeader },
  },
};
