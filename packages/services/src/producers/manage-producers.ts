import { AppError } from "@rpcpulse/config";
import {
  countProducers,
  deleteProducer as deleteProducerRow,
  insertProducer,
  listNodesAroundMiss,
  listProducerMisses,
  listProducerStatuses,
  PRODUCER_ACCOUNT_PATTERN,
  readProducerHistory,
  type ProducerStatusRow,
} from "@rpcpulse/db/producers";
import { type SqlClient } from "@rpcpulse/db/sql";
import { findNetwork } from "@rpcpulse/domain";
import { z } from "zod";
import { requireRole, type ServiceContext } from "../context.js";
import { explainWitnessMiss, type MissExplanation } from "./explain-miss.js";
import { describeMissBlocks } from "./find-missed-blocks.js";
import { insertValidatorProducer, listValidatorViews, type ValidatorView } from "./manage-validators.js";
import { compareVersions } from "./parse-witness.js";

/** Register, list and remove an organization's witness accounts; the fleet page's witness cards. */
export interface ProducerDeps {
  sql: SqlClient;
}

export const MAX_PRODUCERS_PER_ORG = 50;
/** Community expectation for Hive/Steem price feeds: published at least every few hours; 24 h is late. */
export const FEED_LATE_HOURS = 24;

export const RegisterProducerInput = z
  .object({
    network: z.string().trim().min(1).max(64),
    /** A Hive/Steem witness account, or a Polkadot/Kusama validator stash (SS58) on those networks. */
    account: z.string().trim().min(1).max(64),
  })
  .strict();
const WitnessAccount = z
  .string()
  .toLowerCase()
  .regex(PRODUCER_ACCOUNT_PATTERN, "A Hive/Steem account name: 3-16 of a-z, 0-9, '.', '-'.");
export type RegisterProducerInput = z.input<typeof RegisterProducerInput>;

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

export async function registerProducer(
  deps: ProducerDeps,
  ctx: ServiceContext,
  input: unknown,
): Promise<ProducerView | ValidatorView> {
  requireRole(ctx, "admin");
  const parsed = RegisterProducerInput.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("VALIDATION", issue?.message ?? "Invalid producer.", {
      details: { field: String(issue?.path[0] ?? "account") },
    });
  }
  const { network } = parsed.data;
  const info = findNetwork(network);
  if (info?.chain === "polkadot") {
    // Validators (Polkadot, Kusama): the stash is an SS58 address, case-sensitive.
    const id = await insertValidatorProducer(deps, ctx, { network, stash: parsed.data.account });
    const [view] = await listValidatorViews(deps, ctx, { ids: [id] });
    if (!view) throw new AppError("INTERNAL", "The validator just registered is missing.");
    return view;
  }
  if (!info || (info.chain !== "hive" && info.chain !== "steem")) {
    throw new AppError(
      "VALIDATION",
      "Witnesses are watched on Hive and Steem networks, validators on Polkadot and Kusama.",
      {
        details: { field: "network" },
      },
    );
  }
  const witness = WitnessAccount.safeParse(parsed.data.account);
  if (!witness.success) {
    throw new AppError("VALIDATION", witness.error.issues[0]?.message ?? "Invalid account.", {
      details: { field: "account" },
    });
  }
  const account = witness.data;
  if ((await countProducers(deps.sql, ctx.organizationId)) >= MAX_PRODUCERS_PER_ORG) {
    throw new AppError("VALIDATION", `At most ${MAX_PRODUCERS_PER_ORG} producers per organization.`);
  }
  const row = await insertProducer(deps.sql, { organizationId: ctx.organizationId, network, account });
  if (!row) throw new AppError("VALIDATION", "Unknown network.", { details: { field: "network" } });
  const [view] = await listProducerViews(deps, ctx, { ids: [row.id] });
  if (!view) throw new AppError("INTERNAL", "The producer just registered is missing.");
  return view;
}

export async function deleteProducer(deps: ProducerDeps, ctx: ServiceContext, input: { id: string }): Promise<void> {
  requireRole(ctx, "admin");
  const id = z.string().uuid().safeParse(input.id);
  if (!id.success || !(await deleteProducerRow(deps.sql, { organizationId: ctx.organizationId, id: id.data }))) {
    throw new AppError("NOT_FOUND", "Producer not found.");
  }
}

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
