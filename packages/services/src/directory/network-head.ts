import { listLatestNetworkHeads } from "@rpcpulse/db/ingest";
import { type SqlClient } from "@rpcpulse/db/sql";
import { findNetwork, projectHead } from "@rpcpulse/domain";
import { computeNetworkDecisions } from "../ingest/decide-network-heads.js";
import { createStaleMemo } from "./stale-memo.js";
import { z } from "zod";

/** The consensus head of a network as the public pages and the API show it. */
export const NetworkHeadSummary = z
  .object({
    block: z.number().int().meta({ description: "Consensus head projected to `at` (not the maximum reported)." }),
    at: z.iso.datetime(),
    agreeing: z.number().int().meta({ description: "Independent sources within the agreement band of the head." }),
    considered: z.number().int().meta({ description: "Independent sources that counted (fresh, plausible)." }),
    quorum: z
      .number()
      .int()
      .meta({ description: "Sources that must reach the head: max(2, a third of those considered)." }),
    decidedAt: z.iso.datetime().meta({ description: "When the worker decided it (projected from then to `at`)." }),
  })
  .strict();
export type NetworkHeadSummary = z.infer<typeof NetworkHeadSummary>;

/** A stored decision older than this is not used: the head is decided live from the same sources. */
const DECISION_MAX_AGE_MS = 2 * 60_000;
/** Fresh for 5 s, then served stale (up to 60 s) while one background refresh runs. */
const memoiseHead = createStaleMemo<NetworkHeadSummary | null>({ freshMs: 5_000, staleMs: 60_000 });

async function computeHead(sql: SqlClient, network: string, now: number): Promise<NetworkHeadSummary | null> {
  if (!findNetwork(network)) return null;
  const [stored] = await listLatestNetworkHeads(sql, {
    since: new Date(now - DECISION_MAX_AGE_MS),
    networkSlug: network,
  });
  if (stored && stored.time.getTime() <= now) {
    const anchor = { block: stored.headBlock, anchorMs: stored.anchorTime.getTime() };
    return {
      block: projectHead(anchor, now, stored.blockIntervalMs),
      at: new Date(now).toISOString(),
      agreeing: stored.agreeing,
      considered: stored.considered,
      quorum: stored.quorum,
      decidedAt: stored.time.toISOString(),
    };
  }
  const [live] = await computeNetworkDecisions(sql, { at: now, networkSlug: network });
  const head = live?.decision.head;
  if (!live || !head) return null;
  return {
    block: head.block,
    at: new Date(now).toISOString(),
    agreeing: live.decision.agreeing,
    considered: live.decision.considered,
    quorum: live.decision.quorum,
    decidedAt: new Date(now).toISOString(),
  };
}

/**
 * The network's consensus head now: the worker's latest decision (network_heads) projected to now, or,
 * when the worker has not decided one lately, the same decision made live (computeNetworkDecisions);
 * null without a quorum.
 * Memoised per pool: fresh 5 s, then stale up to 60 s while one refresh runs (no request waits on it).
 */
export function getNetworkHead(
  deps: { sql: SqlClient; now?: () => Date },
  input: { network: string },
): Promise<NetworkHeadSummary | null> {
  const now = (deps.now?.() ?? new Date()).getTime();
  return memoiseHead(deps.sql, input.network, now, () => computeHead(deps.sql, input.network, now));
}
