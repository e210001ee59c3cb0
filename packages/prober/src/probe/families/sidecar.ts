import { z } from "zod";
import { CallError, toBlockNumber } from "../rpc.js";
import type { Tri } from "../types.js";
import { supportsRoute, type FamilyAdapter } from "./types.js";

const headerSchema = z.object({ number: z.string() }).loose();
const versionSchema = z.object({ clientVersion: z.string(), clientImplName: z.string().optional() }).loose();
const NO_STATE = /state already discarded|unknownblock|pruned|not found in the database/i;

/** Sidecar routes checked for coverage (group -> path). */
export const SIDECAR_ROUTES: ReadonlyArray<[string, string]> = [
  ["node_version", "/node/version"],
  ["node_network", "/node/network"],
  ["runtime_spec", "/runtime/spec"],
  ["transaction_material", "/transaction/material?noMeta=true"],
  ["pallets_staking_progress", "/pallets/staking/progress"],
];

export const sidecarAdapter: FamilyAdapter = {
  archiveDepth: 1_000_000,
  methodGroups: SIDECAR_ROUTES.map(([group]) => group),
  corsMethod: "GET",

  async head(ctx, { finality }) {
    // /blocks/head defaults to the finalized head; finalized=false asks for the best block.
    const { body, response } = await ctx.get("/blocks/head/header?finalized=false");
    const parsed = headerSchema.safeParse(body);
    const headBlock = parsed.success ? toBlockNumber(parsed.data.number) : null;
    if (headBlock === null)
      throw new CallError("rpc", "/blocks/head/header: unexpected body shape", {
        httpStatus: response.status,
        response,
      });
    let finalizedBlock: number | null = null;
    if (finality) {
      try {
        const fin = headerSchema.safeParse((await ctx.get("/blocks/head/header")).body);
        finalizedBlock = fin.success ? toBlockNumber(fin.data.number) : null;
      } catch {
        finalizedBlock = null;
      }
    }
    return { headBlock, headTime: null, finalizedBlock, response };
  },

  /** A block's events are read from its state, so an old block only answers on an archive backend. */
  async archive(ctx, head, depth) {
    const block = Math.max(1, head - depth);
    try {
      await ctx.get(`/blocks/${block}?noFees=true`);
      return { supported: true, block, detail: null };
    } catch (err) {
      const message = err instanceof CallError ? (err.rpcError?.message ?? err.message) : (err as Error).message;
      return { supported: NO_STATE.test(message) ? false : null, block, detail: message };
    }
  },

  async methods(ctx) {
    const out: Record<string, Tri> = {};
    for (const [group, path] of SIDECAR_ROUTES) out[group] = await supportsRoute(ctx, path);
    return out;
  },

  batch: null,

  async clientVersion(ctx) {
    try {
      const parsed = versionSchema.safeParse((await ctx.get("/node/version")).body);
      if (!parsed.success) return null;
      return parsed.data.clientImplName
        ? `${parsed.data.clientImplName} ${parsed.data.clientVersion}`
        : parsed.data.clientVersion;
    } catch {
      return null;
    }
  },

  ws: null,
};
