import { listProducerMisses, listProducerStatuses, type ProducerStatusRow } from "@rpcpulse/db/producers";
import { type SqlClient } from "@rpcpulse/db/sql";
import { findNetwork } from "@rpcpulse/domain";
import { FRESH_READING_MS } from "../alerting/measure-producers.js";
import { describeMissBlocks } from "../producers/find-missed-blocks.js";
import { FEED_LATE_HOURS } from "../producers/producer-view.js";
import type { ComponentState } from "./component-state.js";
import { deriveValidatorComponent, loadValidatorReadings, type PublicValidator } from "./validator-components.js";

/**
 * Producer components of status pages (kind 'producer', migration 0024): what the public page says
 * about a witness from producer_latest and producer_misses (a validator: validator-components.ts). Only chain facts are public: account, misses with their block numbers, the null
 * key, feed age; never the source URL the worker read from.
 *
 * State:
 *  - unknown:     never read, or the last read is older than 10 minutes (FRESH_READING_MS);
 *  - major_outage: the signing key is the null key (the witness is disabled: it produces nothing);
 *  - degraded:    a missed block in the last hour (MISS_DEGRADED_MS), or (witnesses) the price feed
 *                 older than 24 h (FEED_LATE_HOURS);
 *  - operational: otherwise. Misses of the last 24 h are listed either way.
 */

export const MISS_DEGRADED_MS = 60 * 60_000;
export const RECENT_MISSES_MS = 24 * 3_600_000;

export interface PublicProducerMiss {
  detectedAt: Date;
  /** The exact block(s) (producer_missed virtual operation); null when only the range is known. */
  blocks: number[] | null;
  fromBlock: number;
  toBlock: number;
  count: number;
  /** The block(s) in words (describeMissBlocks). */
  text: string;
}

export interface PublicProducer {
  kind: "witness" | "validator";
  account: string;
  /** Witness: fresh reading, key set, no miss in the last hour. Validator: fresh, in the set, no offline report in the last hour. */
  producing: boolean;
  disabled: boolean;
  totalMissed: number | null;
  lastConfirmedBlock: number | null;
  feedAgeHours: number | null;
  feedStale: boolean;
  /** Misses of the last 24 h, newest first. */
  recentMisses: PublicProducerMiss[];
  /** Validators: active set, era points, offline reports, session keys (null for a witness or before a read). */
  validator: PublicValidator | null;
}

export interface ProducerComponentFacts {
  producer: PublicProducer;
  state: ComponentState;
  network: string;
  createdAt: Date;
}

export function deriveProducerComponent(
  p: ProducerStatusRow,
  misses: readonly PublicProducerMiss[],
  now: Date,
): { producer: PublicProducer; state: ComponentState } {
  const l = p.latest;
  const fresh = l !== null && now.getTime() - l.observedAt.getTime() <= FRESH_READING_MS;
  const feedAgeHours =
    l?.feedUpdatedAt && p.kind === "witness"
      ? Math.round(((now.getTime() - l.feedUpdatedAt.getTime()) / 3_600_000) * 10) / 10
      : null;
  const feedStale = p.kind === "witness" && l !== null && (feedAgeHours === null || feedAgeHours > FEED_LATE_HOURS);
  const missedLately = misses.some((m) => now.getTime() - m.detectedAt.getTime() <= MISS_DEGRADED_MS);
  const disabled = l?.disabled ?? false;
  const state: ComponentState = !fresh
    ? "unknown"
    : disabled
      ? "major_outage"
      : missedLately || feedStale
        ? "degraded"
        : "operational";
  return {
    state,
    producer: {
      kind: p.kind,
      account: p.account,
      producing: fresh && !disabled && !missedLately,
      disabled,
      totalMissed: l?.totalMissed ?? null,
      lastConfirmedBlock: l?.lastConfirmedBlock ?? null,
      feedAgeHours,
      feedStale,
      recentMisses: [...misses],
      validator: null,
    },
  };
}

/** Facts of the listed producers by id (a producer deleted since is absent). */
export async function loadProducerComponents(
  sql: SqlClient,
  producerIds: readonly string[],
  now: Date,
): Promise<Map<string, ProducerComponentFacts>> {
  const out = new Map<string, ProducerComponentFacts>();
  if (producerIds.length === 0) return out;
  const ids = [...new Set(producerIds)];
  const [rows, misses] = await Promise.all([
    listProducerStatuses(sql, { ids }),
    listProducerMisses(sql, { producerIds: ids, since: new Date(now.getTime() - RECENT_MISSES_MS) }),
  ]);
  const validators = await loadValidatorReadings(
    sql,
    rows.filter((p) => p.kind === "validator").map((p) => p.id),
    now,
  );
  for (const p of rows) {
    const network = findNetwork(p.network)?.name ?? p.network;
    const v = validators.get(p.id);
    if (p.kind === "validator") {
      const facts = v ? deriveValidatorComponent(v.row, v.reports, now) : null;
      out.set(p.id, {
        state: facts?.state ?? "unknown",
        network,
        createdAt: p.createdAt,
        producer: {
          kind: "validator",
          account: p.account,
          producing: facts?.producing ?? false,
          disabled: false,
          totalMissed: null,
          lastConfirmedBlock: null,
          feedAgeHours: null,
          feedStale: false,
          recentMisses: [],
          validator: facts?.validator ?? null,
        },
      });
      continue;
    }
    const own = misses
      .filter((m) => m.producerId === p.id)
      .map((m) => ({
        detectedAt: m.detectedAt,
        blocks: m.missedBlocks,
        fromBlock: m.fromBlock,
        toBlock: m.toBlock,
        count: m.count,
        text: describeMissBlocks({ blocks: m.missedBlocks, fromBlock: m.fromBlock, toBlock: m.toBlock }),
      }));
    out.set(p.id, {
      ...deriveProducerComponent(p, own, now),
      network,
      createdAt: p.createdAt,
    });
  }
  return out;
}
