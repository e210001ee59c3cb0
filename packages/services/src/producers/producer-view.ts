import { type ProducerStatusRow } from "@rpcpulse/db/producers";
import { type SqlClient } from "@rpcpulse/db/sql";
import { type MissExplanation } from "./explain-miss.js";
import { compareVersions } from "./parse-witness.js";

/** Register, list and remove an organization's witness accounts; the fleet page's witness cards. */
export interface ProducerDeps {
  sql: SqlClient;
}

/** Community expectation for Hive/Steem price feeds: published at least every few hours; 24 h is late. */
export const FEED_LATE_HOURS = 24;

export interface ProducerMissView {
  detectedAt: string;
  fromBlock: number;
  toBlock: number;
  count: number;
  /** The exact block(s) from the producer_missed virtual operation; null when only the range is known. */
  blocks: number[] | null;
  /** "block #123", "blocks #123, #150" or "a block in #120–#125". */
  blocksText: string;
}

export interface ProducerView {
  id: string;
  kind: "witness";
  network: string;
  account: string;
  state: "ok" | "trouble" | "unknown";
  problems: string[];
  observedAt: string | null;
  source: string | null;
  totalMissed: number | null;
  lastConfirmedBlock: number | null;
  headBlock: number | null;
  signingKey: string | null;
  disabled: boolean;
  keyChangedAt: string | null;
  runningVersion: string | null;
  hardforkVote: string | null;
  majorityVersion: string | null;
  feed: { base: string; quote: string } | null;
  feedAgeHours: number | null;
  votes: string | null;
  rank: number | null;
  inSchedule: boolean | null;
  error: string | null;
  recentMisses: ProducerMissView[];
  /** The newest miss against the organization's own nodes on the network (advisor); null without a miss. */
  missExplanation: MissExplanation | null;
  history: Array<{ bucket: string; missed: number; feedAgeHours: number | null }>;
}

/** The card's verdict: what is wrong now, in words. Pure. */
export function describeProducerProblems(
  p: ProducerStatusRow,
  recentMisses: number,
  now: Date,
): { state: ProducerView["state"]; problems: string[]; feedAgeHours: number | null } {
  const l = p.latest;
  if (!l) return { state: "unknown", problems: p.error ? [p.error.message] : ["Not read yet."], feedAgeHours: null };
  const problems: string[] = [];
  if (recentMisses > 0) problems.push(`${recentMisses} missed block(s) in the last 24 h.`);
  if (l.disabled) problems.push("Signing key is the null key: the witness is disabled.");
  const feedAgeHours = l.feedUpdatedAt ? (now.getTime() - l.feedUpdatedAt.getTime()) / 3_600_000 : null;
  if (feedAgeHours !== null && feedAgeHours > FEED_LATE_HOURS)
    problems.push(`Price feed is ${Math.floor(feedAgeHours)} h old.`);
  if (feedAgeHours === null) problems.push("No price feed published.");
  if (l.majorityVersion && compareVersions(l.runningVersion, l.majorityVersion) < 0)
    problems.push(`Runs ${l.runningVersion}, behind the majority ${l.majorityVersion}.`);
  if (p.error) problems.push(`Last read failed: ${p.error.message}`);
  return { state: problems.length > 0 ? "trouble" : "ok", problems, feedAgeHours };
}
