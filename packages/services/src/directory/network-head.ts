import { listLatestHeadObservations, type SqlClient } from "@rpcpulse/db";
import { findNetwork } from "@rpcpulse/domain";
import { computeNetworkHead } from "@rpcpulse/prober";
import { z } from "zod";

/** The consensus head of a network as the public pages and the API show it. */
export const NetworkHeadSummary = z
  .object({
    block: z.number().int().meta({ description: "Consensus head projected to `at` (not the maximum reported)." }),
    at: z.iso.datetime(),
    agreeing: z.number().int().meta({ description: "Endpoints within the agreement band of the head." }),
    considered: z.number().int().meta({ description: "Fresh, healthy endpoints considered." }),
  })
  .strict();
export type NetworkHeadSummary = z.infer<typeof NetworkHeadSummary>;

const OBSERVATION_WINDOW_MS = 5 * 60_000;
/** Fresh for 5 s, then served stale (up to 60 s) while one background refresh runs. */
const MEMO_FRESH_MS = 5_000;
const MEMO_STALE_MS = 60_000;
interface Entry {
  at: number;
  value: Promise<NetworkHeadSummary | null>;
  refreshing: boolean;
}
const memos = new WeakMap<object, Map<string, Entry>>();

async function computeHead(sql: SqlClient, network: string, now: number): Promise<NetworkHeadSummary | null> {
  const info = findNetwork(network);
  if (!info) return null;
  const rows = await listLatestHeadObservations(sql, { network, since: new Date(now - OBSERVATION_WINDOW_MS) });
  const healthy = rows.filter((r) => r.ok && r.headBlock !== null).length;
  const head = computeNetworkHead(
    rows.map((r) => ({
      endpointId: r.endpointId,
      ok: r.ok,
      headBlock: r.headBlock,
      headTime: r.headTime?.getTime() ?? null,
      observedAt: r.observedAt.getTime(),
    })),
    // As the ranking job: two agreeing endpoints when there are enough to disagree, one otherwise.
    { now, blockIntervalMs: info.blockIntervalMs, minAgreeing: healthy >= 3 ? 2 : 1 },
  );
  if (head.head === null) return null;
  return { block: head.head, at: new Date(now).toISOString(), agreeing: head.supporters, considered: head.considered };
}

/**
 * The network's consensus head now (computeNetworkHead over each endpoint's latest probe of the last
 * 5 minutes: two endpoints must agree when three or more are healthy, a bogus future head is
 * ignored); null without consensus.
 * Memoised per pool: fresh 5 s, then stale up to 60 s while one refresh runs (no request waits on it).
 */
export function getNetworkHead(
  deps: { sql: SqlClient; now?: () => Date },
  input: { network: string },
): Promise<NetworkHeadSummary | null> {
  const now = (deps.now?.() ?? new Date()).getTime();
  let memo = memos.get(deps.sql);
  if (!memo) memos.set(deps.sql, (memo = new Map()));
  const entries = memo;
  const hit = entries.get(input.network);
  const age = hit ? now - hit.at : Infinity;
  if (hit && age >= 0 && age < MEMO_FRESH_MS) return hit.value;
  if (hit && age >= 0 && age < MEMO_STALE_MS) {
    if (!hit.refreshing) {
      hit.refreshing = true;
      const next = computeHead(deps.sql, input.network, now);
      next.then(
        () => entries.set(input.network, { at: now, value: next, refreshing: false }),
        () => (hit.refreshing = false),
      );
    }
    return hit.value;
  }
  const value = computeHead(deps.sql, input.network, now);
  entries.set(input.network, { at: now, value, refreshing: false });
  value.catch(() => entries.delete(input.network));
  return value;
}
