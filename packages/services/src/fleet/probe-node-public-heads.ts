import {
  listPublicHeadTargets,
  prunePublicHeadChecks,
  recordPublicHeadChecks,
  type PublicHeadCheck,
  type PublicHeadTarget,
} from "@rpcpulse/db/fleet";
import { type SqlClient } from "@rpcpulse/db/sql";
import { createProbeScheduler, probeEndpoint, type ProbeResult, type SafeHttpClient } from "@rpcpulse/prober";
import { isPrivateLiteralUrl } from "../directory/probe-directory.js";

export interface PublicHeadRoundOptions {
  /** The prober's SSRF-safe client (PROBE_ALLOW_PRIVATE decides whether loopback/private hosts pass). */
  client: SafeHttpClient;
  /** Checks in flight at most. */
  concurrency: number;
  /** Check only URLs whose host is a loopback/private IP literal (the air-gapped demo). */
  onlyPrivate?: boolean;
  /** Nodes per round at most, least recently checked first. */
  limit?: number;
  nodeIds?: readonly string[];
}

export interface PublicHeadRoundReport {
  checked: number;
  ok: number;
  failed: number;
  skipped: number;
  written: number;
  pruned: number;
}

function toCheck(target: PublicHeadTarget, r: ProbeResult): PublicHeadCheck {
  return {
    nodeId: target.nodeId,
    url: target.url,
    checkedAt: new Date(r.startedAt),
    ok: r.ok,
    latencyMs: r.phases?.totalMs ?? null,
    httpStatus: r.httpStatus,
    errorClass: r.errorClass,
    errorMessage: (r.errorMessage ?? r.rpcError?.message ?? null)?.slice(0, 500) ?? null,
    headBlock: r.ok ? r.headBlock : null,
    headTime: r.ok && r.headTime !== null ? new Date(r.headTime) : null,
    finalizedBlock: r.ok ? r.finalizedBlock : null,
    nodeHeadBlock: target.nodeHeadBlock,
    nodeSampleTime: target.nodeSampleTime,
  };
}

/**
 * One round of public-URL checks: every node with a public URL (or the given ones) gets the same
 * head probe as a directory endpoint, at most `concurrency` at a time, and the result is stored
 * next to the node's own head read just before (see describePublicHead). Checks of URLs that are no
 * longer a node's public URL are pruned.
 */
export async function probeNodePublicHeads(
  deps: { sql: SqlClient },
  options: PublicHeadRoundOptions,
): Promise<PublicHeadRoundReport> {
  const all = await listPublicHeadTargets(deps.sql, {
    limit: options.limit ?? 1_000,
    ...(options.nodeIds ? { nodeIds: [...options.nodeIds] } : {}),
  });
  const targets = options.onlyPrivate ? all.filter((t) => isPrivateLiteralUrl(t.url)) : all;
  const checks: PublicHeadCheck[] = [];
  const scheduler = createProbeScheduler<PublicHeadTarget, ProbeResult>({
    concurrency: options.concurrency,
    intervalMs: 1,
    jitter: 0,
    run: (t) => probeEndpoint({ url: t.url, family: t.family, network: t.network }, options.client),
    onResult: (t, result) => {
      if (result) checks.push(toCheck(t, result));
    },
  });
  const stats = await scheduler.runRound(targets, 0);
  await scheduler.stop();
  const written = await recordPublicHeadChecks(deps.sql, checks);
  const pruned = await prunePublicHeadChecks(deps.sql);
  const ok = checks.filter((c) => c.ok).length;
  return {
    checked: checks.length,
    ok,
    failed: checks.length - ok,
    skipped: all.length - targets.length + stats.skipped,
    written,
    pruned,
  };
}
