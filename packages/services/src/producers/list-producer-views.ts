import {
  listNodesAroundMiss,
  listProducerMisses,
  listProducerStatuses,
  readProducerHistory,
} from "@rpcpulse/db/producers";
import { findNetwork } from "@rpcpulse/domain";
import { type ServiceContext } from "../context.js";
import { explainWitnessMiss } from "./explain-miss.js";
import { describeMissBlocks } from "./find-missed-blocks.js";
import { describeProducerProblems, type ProducerDeps, type ProducerView } from "./producer-view.js";

/** The organization's producers with their latest reading, misses of the last 24 h and a 24 h history. */
export async function listProducerViews(
  deps: ProducerDeps,
  ctx: ServiceContext,
  options: { ids?: string[]; now?: Date } = {},
): Promise<ProducerView[]> {
  const now = options.now ?? new Date();
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const rows = await listProducerStatuses(deps.sql, {
    organizationIds: [ctx.organizationId],
    kind: "witness",
    ...(options.ids ? { ids: options.ids } : {}),
  });
  const misses = await listProducerMisses(deps.sql, { producerIds: rows.map((r) => r.id), since: dayAgo });
  const views: ProducerView[] = [];
  for (const p of rows) {
    const own = misses.filter((m) => m.producerId === p.id);
    const verdict = describeProducerProblems(
      p,
      own.reduce((n, m) => n + m.count, 0),
      now,
    );
    const newest = own[0];
    const missExplanation = newest
      ? explainWitnessMiss(
          await listNodesAroundMiss(deps.sql, {
            organizationId: ctx.organizationId,
            network: p.network,
            from: new Date(newest.detectedAt.getTime() - 3 * 60_000),
            to: newest.detectedAt,
          }),
          { account: p.account, chain: findNetwork(p.network)?.chain === "steem" ? "steem" : "hive" },
        )
      : null;
    const history = await readProducerHistory(deps.sql, {
      producerId: p.id,
      from: dayAgo,
      to: now,
      bucketSeconds: 3600,
    });
    const l = p.latest;
    views.push({
      id: p.id,
      kind: "witness",
      network: p.network,
      account: p.account,
      ...verdict,
      observedAt: l?.observedAt.toISOString() ?? null,
      source: l?.source ?? null,
      totalMissed: l?.totalMissed ?? null,
      lastConfirmedBlock: l?.lastConfirmedBlock ?? null,
      headBlock: l?.headBlock ?? null,
      signingKey: l?.signingKey ?? null,
      disabled: l?.disabled ?? false,
      keyChangedAt: l?.keyChangedAt?.toISOString() ?? null,
      runningVersion: l?.runningVersion ?? null,
      hardforkVote: l?.hardforkVote ?? null,
      majorityVersion: l?.majorityVersion ?? null,
      feed: l?.feedBase && l.feedQuote ? { base: l.feedBase, quote: l.feedQuote } : null,
      votes: l?.votes ?? null,
      rank: l?.rank ?? null,
      inSchedule: l?.inSchedule ?? null,
      error: p.error?.message ?? null,
      recentMisses: own.map((m) => ({
        detectedAt: m.detectedAt.toISOString(),
        fromBlock: m.fromBlock,
        toBlock: m.toBlock,
        count: m.count,
        blocks: m.missedBlocks,
        blocksText: describeMissBlocks({ blocks: m.missedBlocks, fromBlock: m.fromBlock, toBlock: m.toBlock }),
      })),
      missExplanation,
      history: history.map((h) => ({
        bucket: h.bucket.toISOString(),
        missed: h.missed,
        feedAgeHours: h.feedAgeS === null ? null : Math.round((h.feedAgeS / 3600) * 10) / 10,
      })),
    });
  }
  return views;
}
