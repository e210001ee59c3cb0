import {
  clearProbeRankDirty,
  getProbeRankWatermark,
  listProbeRankDirty,
  listProbeSamples,
  rollProbeRankDays,
  rollProbeRankHours,
  upsertProbeRank5m,
  type ProbeRankBucket,
  type RollupCut,
} from "@rpcpulse/db/directory";
import { type SqlPool } from "@rpcpulse/db/sql";
import {
  addSample,
  classifyFreshness,
  emptySummary,
  SCORING,
  type FreshnessLimits,
  type ProbeSummary,
  type SampleFlags,
  type VantageSample,
} from "@rpcpulse/prober";
import { buildRankSamples, toStoredDecisions } from "./rank-samples.js";
import { loadDecisions } from "./rank-shared.js";

export const FIVE_MIN_MS = 300_000;
export const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/**
 * Every run re-measures the 5-minute buckets of this recent span, besides those since the watermark (a
 * late agent batch or a later decision inside it still counts; older late probes stay raw only).
 */
export const ROLLUP_REWRITE_MS = 5 * 60_000;
/** Probes read before a span so freshness (stuck heads), regressions and round consensus see their past. */
export const ROLLUP_CONTEXT_MS = 5 * 60_000;
/** A bucket is written once it ended this long ago (probes of a round still being stored). */
export const ROLLUP_SETTLE_MS = 60_000;
/** Longest span measured at once (backfill after a pause). */
const CHUNK_MS = 6 * HOUR_MS;
/** Without any rollup yet, backfill this far back (the 7 d window and its first partial hour). */
const BACKFILL_MS = 7 * 86_400_000 + HOUR_MS;

export const floorTo = (ms: number, step: number) => Math.floor(ms / step) * step;
export const ceilTo = (ms: number, step: number) => Math.ceil(ms / step) * step;

/** A measured probe: its vantage sample and what the rollups count of it. */
export interface MeasuredProbe extends VantageSample {
  flags: SampleFlags;
}

export interface RollupPass {
  /** Buckets before this are in the rollups; the raw tail starts here. */
  watermark: number;
  /** Measured probes from (start of the last span − context) to now: the tail and the recent sequences. */
  recent: MeasuredProbe[];
  buckets: number;
  hours: number;
}

/**
 * Freshness flags (server probes of an endpoint together, as the overall view classifies them; an
 * agent vantage point's apart) and head regressions (server probes of an endpoint, in time order).
 */
function measure(
  samples: readonly VantageSample[],
  errorClasses: readonly (string | null)[],
  limits: FreshnessLimits,
  blockIntervalMs: number,
): MeasuredProbe[] {
  const groups = new Map<string, number[]>();
  // One pass, each probe built as one literal (not a spread copy of its sample): hundreds of thousands per pass.
  const out: MeasuredProbe[] = new Array<MeasuredProbe>(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i] as VantageSample;
    const key = s.kind === "server" ? `s:${s.endpointId}` : `a:${s.endpointId}:${s.vantagePointId}`;
    const list = groups.get(key);
    if (list) list.push(i);
    else groups.set(key, [i]);
    out[i] = {
      endpointId: s.endpointId,
      region: s.region,
      vantagePointId: s.vantagePointId,
      kind: s.kind,
      organizationId: s.organizationId,
      sample: s.sample,
      flags: { lagging: false, stale: false, regression: false, errorClass: errorClasses[i] ?? null },
    };
  }
  for (const [key, idx] of groups) {
    const flags = classifyFreshness(
      idx.map((i) => samples[i]!.sample),
      limits,
      blockIntervalMs,
    );
    idx.forEach((i, k) => {
      out[i]!.flags.lagging = flags[k]?.lagging ?? false;
      out[i]!.flags.stale = flags[k]?.stale ?? false;
    });
    if (!key.startsWith("s:")) continue;
    const heads = idx
      .filter((i) => samples[i]!.sample.ok && samples[i]!.sample.headBlock != null)
      .sort((a, b) => samples[a]!.sample.at - samples[b]!.sample.at);
    for (let k = 1; k < heads.length; k++) {
      const prev = samples[heads[k - 1]!]!.sample.headBlock as number;
      if ((samples[heads[k]!]!.sample.headBlock as number) < prev) out[heads[k]!]!.flags.regression = true;
    }
  }
  return out;
}

function toBucketRow(endpointId: string, vantagePointId: string, bucket: number, s: ProbeSummary): ProbeRankBucket {
  return { endpointId, vantagePointId, bucket: new Date(bucket), ...s };
}

/** Summaries per (endpoint, vantage point, 5-minute bucket) of the probes in [from, to). */
export function bucketProbes(probes: readonly MeasuredProbe[], from: number, to: number): ProbeRankBucket[] {
  const buckets = new Map<string, { e: string; v: string; b: number; s: ProbeSummary }>();
  for (const p of probes) {
    const at = p.sample.at;
    if (at < from || at >= to) continue;
    const b = floorTo(at, FIVE_MIN_MS);
    const key = `${p.endpointId}|${p.vantagePointId}|${b}`;
    const entry = buckets.get(key) ?? { e: p.endpointId, v: p.vantagePointId, b, s: emptySummary() };
    addSample(entry.s, p.sample, p.flags);
    buckets.set(key, entry);
  }
  return [...buckets.values()].map((x) => toBucketRow(x.e, x.v, x.b, x.s));
}

/** Where a rollup pass starts and ends, and the late-probe marks it clears. */
export interface RollupPlan {
  watermark: number;
  start: number;
  dirty: Array<{ endpointId: string; since: Date }>;
}

/**
 * The span the rollup pass of a run at `now` measures: from the rollups' watermark (at most
 * ROLLUP_REWRITE_MS back on a steady run, the whole 7 d window on the first, back to the oldest late
 * probe) to the settled watermark.
 */
export async function planRollupPass(pool: SqlPool, endpointIds: readonly string[], now: number): Promise<RollupPlan> {
  const watermark = floorTo(now - ROLLUP_SETTLE_MS, FIVE_MIN_MS);
  const resume = (await getProbeRankWatermark(pool, endpointIds))?.getTime() ?? null;
  const rewrite = floorTo(now - ROLLUP_REWRITE_MS, FIVE_MIN_MS);
  const dirty = await listProbeRankDirty(pool, endpointIds);
  const backfill = floorTo(now - BACKFILL_MS, HOUR_MS);
  const oldest = dirty.reduce((m, d) => Math.min(m, d.since.getTime()), Infinity);
  const late = Number.isFinite(oldest) ? Math.max(backfill, floorTo(oldest, FIVE_MIN_MS)) : Infinity;
  const start = Math.min(watermark, resume === null ? backfill : Math.min(rewrite, resume, late));
  return { watermark, start, dirty };
}

/** The first bucket of each rollup table the pass may (re)write: rows before these are settled. */
export function rollupCut(plan: RollupPlan): RollupCut {
  return {
    fiveFrom: new Date(plan.start),
    hourFrom: new Date(floorTo(plan.start, HOUR_MS)),
    dayFrom: new Date(floorTo(plan.start, DAY_MS)),
  };
}

/**
 * The rollup pass of one network's ranking run (planned by planRollupPass): measures the raw probes
 * of the span, writes their closed 5-minute buckets and sums the closed hours and days. Returns the
 * measured recent probes (the tail).
 */
export async function rollUpRankProbes(
  pool: SqlPool,
  input: {
    endpointIds: readonly string[];
    networkId: string | undefined;
    claimants: ReadonlyMap<string, string | null>;
    blockIntervalMs: number;
    limits: FreshnessLimits;
    roundMs: number;
    now: number;
  },
  plan: RollupPlan,
): Promise<RollupPass> {
  const { now } = input;
  const { watermark, start, dirty } = plan;
  const decisions = toStoredDecisions(
    input.networkId
      ? await loadDecisions(pool, input.networkId, start - ROLLUP_CONTEXT_MS - SCORING.lag.decisionMaxDistanceMs)
      : [],
  );
  let buckets = 0;
  let hours = 0;
  let recent: MeasuredProbe[] = [];
  for (let from = start; ; from += CHUNK_MS) {
    const last = from + CHUNK_MS >= watermark;
    const to = last ? watermark : from + CHUNK_MS;
    const rows = await listProbeSamples(pool, {
      endpointIds: input.endpointIds,
      since: new Date(from - ROLLUP_CONTEXT_MS),
      until: new Date(last ? now + 1 : to),
    });
    const samples = buildRankSamples(rows, decisions, input.claimants, {
      blockIntervalMs: input.blockIntervalMs,
      roundMs: input.roundMs,
    });
    const measured = measure(
      samples,
      rows.map((r) => r.errorClass),
      input.limits,
      input.blockIntervalMs,
    );
    buckets += await upsertProbeRank5m(pool, bucketProbes(measured, from, to));
    hours += await rollProbeRankHours(pool, {
      from: new Date(floorTo(from, HOUR_MS)),
      to: new Date(floorTo(to, HOUR_MS)),
    });
    // Days once closed (their last hour just summed), and again when a rewritten hour falls in one.
    await rollProbeRankDays(pool, { from: new Date(floorTo(from, DAY_MS)), to: new Date(floorTo(to, DAY_MS)) });

    if (last) {
      recent = measured;
      break;
    }
  }
  await clearProbeRankDirty(pool, dirty);
  return { watermark, recent, buckets, hours };
}
