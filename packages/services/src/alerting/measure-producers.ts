/**
 * Producer (witness) readings → one number per (rule, producer), "higher is worse". Pure: the inputs
 * are the rows @rpcpulse/db reads (producer_latest, producer_misses).
 */
import type { ProducerMissRow, ProducerStatusRow } from "@rpcpulse/db/producers";
import { describeMissBlocks } from "../producers/find-missed-blocks.js";
import { compareVersions } from "../producers/parse-witness.js";
import type { Measurement } from "./measure.js";
import type { AlertRuleType } from "./rule-params.js";

/** A reading older than this says nothing about now (the worker reads every producer each round). */
export const FRESH_READING_MS = 10 * 60_000;

const shortKey = (key: string): string => (key.length > 16 ? `${key.slice(0, 10)}…${key.slice(-4)}` : key);

export function measureProducer(
  type: AlertRuleType,
  producer: ProducerStatusRow,
  misses: readonly ProducerMissRow[],
  window: { minutes: number },
  now: Date,
): Measurement {
  const l = producer.latest;
  const fresh = l !== null && now.getTime() - l.observedAt.getTime() <= FRESH_READING_MS;
  const since = now.getTime() - window.minutes * 60_000;
  switch (type) {
    case "witness_missed_block": {
      if (l === null) return { value: null };
      const inWindow = misses.filter((m) => m.producerId === producer.id && m.detectedAt.getTime() >= since);
      const newest = inWindow.reduce<ProducerMissRow | null>(
        (a, m) => (a === null || m.totalMissed > a.totalMissed ? m : a),
        null,
      );
      if (!newest) return { value: 0 };
      const block = describeMissBlocks({
        blocks: newest.missedBlocks,
        fromBlock: newest.fromBlock,
        toBlock: newest.toBlock,
      });
      return {
        value: inWindow.reduce((n, m) => n + m.count, 0),
        detail: `${block}, seen ${newest.detectedAt.toISOString()}, total missed ${newest.totalMissed}`,
      };
    }
    case "witness_feed_stale": {
      if (!fresh) return { value: null };
      if (l.feedUpdatedAt === null) return { value: 24 * 365, detail: "no feed ever published" };
      const hours = Math.max(0, (now.getTime() - l.feedUpdatedAt.getTime()) / 3_600_000);
      return {
        value: hours,
        detail: `last feed ${l.feedBase ?? "?"} / ${l.feedQuote ?? "?"} at ${l.feedUpdatedAt.toISOString()}`,
      };
    }
    case "witness_key_changed": {
      if (!fresh) return { value: null };
      if (l.disabled) return { value: 1, detail: "signing key set to the null key: the witness is disabled" };
      if (l.keyChangedAt !== null && l.keyChangedAt.getTime() >= since) {
        return {
          value: 1,
          detail: `signing key changed from ${shortKey(l.previousSigningKey ?? "?")} to ${shortKey(l.signingKey)} at ${l.keyChangedAt.toISOString()}`,
        };
      }
      return { value: 0 };
    }
    case "witness_version_behind": {
      if (!fresh || l.majorityVersion === null) return { value: null };
      const behind = compareVersions(l.runningVersion, l.majorityVersion) < 0;
      return behind
        ? { value: 1, detail: `runs ${l.runningVersion}, the majority runs ${l.majorityVersion}` }
        : { value: 0 };
    }
    default:
      return { value: null };
  }
}
