import { AppError } from "@rpcpulse/config";
import {
  ALL_REGIONS,
  listRankedRows,
  listRankingRegions,
  type RankedListRow,
  type RankingKey,
} from "@rpcpulse/db/directory";
import { type SqlClient } from "@rpcpulse/db/sql";
import { findNetwork } from "@rpcpulse/domain";
import { SCORING } from "@rpcpulse/prober";
import { z } from "zod";
import { getNetworkHead, type NetworkHeadSummary } from "./network-head.js";
import { presentRankedRow } from "./present.js";
import { createStaleMemo } from "./stale-memo.js";
import { DirectoryCapability, DirectoryWindow, type RankedListResponse } from "./schemas.js";

export const ListRankedEndpointsInput = z
  .object({
    network: z.string().min(1).max(64),
    region: z
      .string()
      .regex(/^[a-z0-9-]{1,64}$/, "lowercase letters, digits and '-'")
      .default(ALL_REGIONS),
    capabilities: z.array(DirectoryCapability).max(8).default([]),
    minScore: z.number().min(0).max(100).default(0),
    window: DirectoryWindow.default("24h"),
  })
  .strict();
export type ListRankedEndpointsInput = z.input<typeof ListRankedEndpointsInput>;

/**
 * In-process memo of the snapshot per (network, window, region): fresh for 5 s, then served stale (up
 * to 60 s) while one background refresh reads the database, so no request waits on it after the
 * first. Filtered answers are memoised per full query key for as long as their base is.
 */
type Base = { rows: RankedListRow[]; regions: string[]; at: number };
const memoiseBase = createStaleMemo<Base>({ freshMs: 5_000, staleMs: 60_000, maxEntries: 1_000 });
type Answer = { base: Base; head: NetworkHeadSummary | null; value: RankedListResponse };
const answersByPool = new WeakMap<object, Map<string, Answer>>();

async function readBase(sql: SqlClient, key: RankingKey, now: number): Promise<Base> {
  const [rows, regions] = await Promise.all([listRankedRows(sql, key), listRankingRegions(sql, key.network)]);
  return { rows, regions: regions.filter((r) => r !== ALL_REGIONS), at: now };
}

function loadBase(sql: SqlClient, key: RankingKey, now: number): Promise<Base> {
  return memoiseBase(sql, `${key.network}|${key.window}|${key.region}`, now, () => readBase(sql, key, now));
}

function answersOf(sql: SqlClient): Map<string, Answer> {
  let answers = answersByPool.get(sql);
  if (!answers) answersByPool.set(sql, (answers = new Map()));
  return answers;
}

/**
 * The ranked list of a network for one window and region, filtered by capabilities and minimum score.
 * Reads the snapshot the ranking job writes (one indexed query), memoised as above.
 */
export async function listRankedEndpoints(
  deps: { sql: SqlClient; now?: () => Date },
  input: ListRankedEndpointsInput,
): Promise<RankedListResponse> {
  const q = ListRankedEndpointsInput.parse(input);
  if (!findNetwork(q.network)) throw new AppError("NOT_FOUND", `Unknown network "${q.network}".`);
  const now = deps.now?.() ?? new Date();
  const answers = answersOf(deps.sql);
  const [base, head] = await Promise.all([
    loadBase(deps.sql, { network: q.network, window: q.window, region: q.region }, now.getTime()),
    getNetworkHead(deps, { network: q.network }).catch(() => null),
  ]);
  const key = JSON.stringify([q.network, q.region, [...q.capabilities].sort(), q.minScore, q.window]);
  const answer = answers.get(key);
  if (answer && answer.base === base && answer.head === head) return answer.value;
  const value = presentList(base, head, q);
  answers.set(key, { base, head, value });
  if (answers.size > 5_000) answers.delete(answers.keys().next().value as string);
  return value;
}

function presentList(
  base: Base,
  head: NetworkHeadSummary | null,
  q: z.output<typeof ListRankedEndpointsInput>,
): RankedListResponse {
  const rows = base.rows;
  const endpoints = rows
    .map(presentRankedRow)
    .filter((e) => e.score >= q.minScore && q.capabilities.every((c) => e.capabilities[c]));
  const updatedAt = rows.reduce<Date | null>((m, r) => (m === null || r.updatedAt > m ? r.updatedAt : m), null);
  return {
    network: q.network,
    window: q.window,
    region: q.region,
    scoringVersion: SCORING.version,
    updatedAt: updatedAt?.toISOString() ?? null,
    regions: base.regions,
    networkHead: head,
    endpoints,
  };
}
