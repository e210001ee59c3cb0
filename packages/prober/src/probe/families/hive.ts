import { z } from "zod";
import { CallError, requireResult } from "../rpc.js";
import type { Tri } from "../types.js";
import { parseUtcTime, supportsBatch, supportsMethod, type FamilyAdapter } from "./types.js";

const globalsSchema = z
  .object({
    head_block_number: z.number().int().nonnegative(),
    time: z.string(),
    last_irreversible_block_num: z.number().int().nonnegative(),
  })
  .loose();
const versionSchema = z.object({ blockchain_version: z.string() }).loose();

/** Account known to exist on each Hive-family chain, for account-history checks. */
const HISTORY_ACCOUNT: Record<string, string> = { hive: "hiveio", steem: "steemit" };

/** API set → one call proving it (params from the chain's history account and the head). */
const METHOD_CHECKS: ReadonlyArray<[string, string, (account: string, head: number) => unknown]> = [
  ["condenser_api", "condenser_api.get_version", () => []],
  ["database_api", "database_api.get_dynamic_global_properties", () => ({})],
  ["block_api", "block_api.get_block", (_, head) => ({ block_num: Math.max(1, head - 100) })],
  ["account_history_api", "account_history_api.get_account_history", (account) => ({ account, start: -1, limit: 1 })],
  ["bridge", "bridge.get_ranked_posts", () => ({ sort: "trending", limit: 1 })],
  ["rc_api", "rc_api.get_resource_params", () => ({})],
];

export const hiveAdapter: FamilyAdapter = {
  archiveDepth: 0,
  methodGroups: METHOD_CHECKS.map(([group]) => group),
  corsMethod: "POST",

  async head(ctx) {
    const method = "condenser_api.get_dynamic_global_properties";
    const reply = await ctx.rpc(method, []);
    const parsed = globalsSchema.safeParse(requireResult(reply, method));
    if (!parsed.success)
      throw new CallError("rpc", `${method}: unexpected result shape`, {
        httpStatus: reply.response.status,
        response: reply.response,
      });
    return {
      headBlock: parsed.data.head_block_number,
      headTime: parseUtcTime(parsed.data.time),
      finalizedBlock: parsed.data.last_irreversible_block_num,
      response: reply.response,
    };
  },

  /** Hive keeps no historical state; "archive" here means the full block log back to block 1. */
  async archive(ctx) {
    try {
      const reply = await ctx.rpc("condenser_api.get_block", [1]);
      if (!reply.ok) return { supported: false, block: 1, detail: reply.error.message };
      const ok = typeof reply.result === "object" && reply.result !== null;
      return { supported: ok, block: 1, detail: ok ? null : "block 1 not returned" };
    } catch (err) {
      return { supported: null, block: 1, detail: (err as Error).message };
    }
  },

  async methods(ctx, head) {
    const account = HISTORY_ACCOUNT[ctx.target.network] ?? "hiveio";
    const out: Record<string, Tri> = {};
    for (const [group, method, params] of METHOD_CHECKS)
      out[group] = await supportsMethod(ctx, method, params(account, head));
    return out;
  },

  batch: (ctx) =>
    supportsBatch(ctx, [
      { method: "condenser_api.get_version", params: [] },
      { method: "condenser_api.get_dynamic_global_properties", params: [] },
    ]),

  async clientVersion(ctx) {
    try {
      const reply = await ctx.rpc("condenser_api.get_version", []);
      const parsed = versionSchema.safeParse(reply.ok ? reply.result : null);
      if (!parsed.success) return null;
      const rev = Object.entries(parsed.data).find(([k]) => k.endsWith("_revision") && k !== "fc_revision")?.[1];
      return typeof rev === "string"
        ? `${parsed.data.blockchain_version} (${rev.slice(0, 8)})`
        : parsed.data.blockchain_version;
    } catch {
      return null;
    }
  },

  ws: { call: { method: "condenser_api.get_dynamic_global_properties", params: [] }, subscribe: null },
};
