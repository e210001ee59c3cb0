import {
  listProducerSources,
  listProducerStatuses,
  recordProducerError,
  recordProducerReading,
  type ProducerStatusRow,
} from "@rpcpulse/db/producers";
import { type SqlClient } from "@rpcpulse/db/sql";
import { callJsonRpc, type SafeHttpClient } from "@rpcpulse/prober";
import { isPrivateLiteralUrl } from "../directory/probe-directory.js";
import { lookupMissedBlocks } from "./find-missed-blocks.js";
import { parseWitness, WitnessSchedule, type WitnessFacts } from "./parse-witness.js";

/**
 * The worker's producers task for Hive/Steem witnesses: per network, the registered accounts are read
 * from the organizations' own nodes (their public URLs) first, then the directory's active endpoints,
 * through the prober's SSRF-safe client; the first source that answers wins for the round.
 */

export interface PollWitnessesOptions {
  client: SafeHttpClient;
  /** Read only sources whose host is a loopback/private IP literal (the air-gapped demo). */
  onlyPrivate?: boolean;
  /** Sources tried per network, in order. */
  maxSources?: number;
  now?: () => Date;
}

export interface PollWitnessesReport {
  networks: number;
  producers: number;
  read: number;
  failed: number;
  misses: number;
  keyChanges: number;
}

interface NetworkRead {
  source: string;
  headBlock: number;
  majorityVersion: string | null;
  schedule: Set<string>;
  /** Rank by votes (1 = most), for the top RANKED witnesses; absent below them or when the call fails. */
  ranks: Map<string, number>;
  witnesses: Map<string, WitnessFacts>;
}

/** Witnesses ranked per read (condenser_api.get_witnesses_by_vote); below them, rank stays unknown. */
const RANKED = 150;

async function call(client: SafeHttpClient, url: string, method: string, params: unknown): Promise<unknown> {
  const reply = await callJsonRpc(client, url, method, params);
  if (!reply.ok) throw new Error(`${method}: ${reply.error.message}`);
  return reply.result;
}

/** One source, every account of the network: global properties, schedule, then each witness. */
async function readNetwork(client: SafeHttpClient, url: string, accounts: readonly string[]): Promise<NetworkRead> {
  const dgp = (await call(client, url, "condenser_api.get_dynamic_global_properties", [])) as {
    head_block_number?: unknown;
  } | null;
  const headBlock = Number(dgp?.head_block_number);
  if (!Number.isSafeInteger(headBlock) || headBlock < 1) throw new Error("no head_block_number in the answer");
  const schedule = WitnessSchedule.parse(await call(client, url, "condenser_api.get_witness_schedule", []));
  const witnesses = new Map<string, WitnessFacts>();
  for (const account of accounts) {
    const raw = await call(client, url, "condenser_api.get_witness_by_account", [account]);
    if (raw !== null) witnesses.set(account, parseWitness(raw));
  }
  // Rank is information only: a node without the call (or a failure) leaves it unknown.
  const ranks = new Map<string, number>();
  try {
    const byVote = await call(client, url, "condenser_api.get_witnesses_by_vote", ["", RANKED]);
    if (Array.isArray(byVote)) {
      byVote.forEach((w: unknown, i) => {
        const owner = (w as { owner?: unknown } | null)?.owner;
        if (typeof owner === "string") ranks.set(owner, i + 1);
      });
    }
  } catch {
    // keep ranks empty
  }
  return {
    source: url,
    ranks,
    headBlock,
    majorityVersion: schedule.majority_version ?? null,
    schedule: new Set(schedule.current_shuffled_witnesses),
    witnesses,
  };
}

function describeError(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}

export async function pollWitnesses(
  deps: { sql: SqlClient },
  options: PollWitnessesOptions,
): Promise<PollWitnessesReport> {
  const now = options.now ?? (() => new Date());
  const producers = await listProducerStatuses(deps.sql, { kind: "witness" });
  const byNetwork = new Map<string, ProducerStatusRow[]>();
  for (const p of producers) byNetwork.set(p.network, [...(byNetwork.get(p.network) ?? []), p]);
  const report: PollWitnessesReport = {
    networks: byNetwork.size,
    producers: producers.length,
    read: 0,
    failed: 0,
    misses: 0,
    keyChanges: 0,
  };
  for (const [network, list] of byNetwork) {
    const all = await listProducerSources(deps.sql, {
      network,
      organizationIds: [...new Set(list.map((p) => p.organizationId))],
      limit: options.maxSources ?? 3,
    });
    const sources = options.onlyPrivate ? all.filter(isPrivateLiteralUrl) : all;
    const accounts = [...new Set(list.map((p) => p.account))];
    let read: NetworkRead | null = null;
    let lastError = sources.length === 0 ? `no endpoint of ${network} to read from` : "";
    for (const url of sources) {
      try {
        read = await readNetwork(options.client, url, accounts);
        break;
      } catch (error) {
        lastError = `${url}: ${describeError(error)}`;
      }
    }
    const at = now();
    for (const p of list) {
      const facts = read?.witnesses.get(p.account);
      if (!read || !facts) {
        report.failed++;
        await recordProducerError(deps.sql, {
          producerId: p.id,
          at,
          message: read ? `${p.account} is not a witness on ${network}` : lastError,
        });
        continue;
      }
      // A miss since the last read: its exact block(s) first, so the miss row is written with them.
      const prev = p.latest;
      const missedBlocks =
        prev !== null && facts.totalMissed > prev.totalMissed
          ? await lookupMissedBlocks(options.client, [read.source, ...sources], {
              network,
              account: p.account,
              fromBlock: Math.min(prev.headBlock + 1, read.headBlock),
              toBlock: read.headBlock,
            })
          : null;
      const recorded = await recordProducerReading(deps.sql, {
        missedBlocks,
        producerId: p.id,
        observedAt: at,
        source: read.source,
        headBlock: read.headBlock,
        totalMissed: facts.totalMissed,
        lastConfirmedBlock: facts.lastConfirmedBlock,
        signingKey: facts.signingKey,
        disabled: facts.disabled,
        runningVersion: facts.runningVersion,
        hardforkVote: facts.hardforkVote,
        majorityVersion: read.majorityVersion,
        feedBase: facts.feedBase,
        feedQuote: facts.feedQuote,
        feedUpdatedAt: facts.feedUpdatedAt,
        votes: facts.votes,
        rank: read.ranks.get(p.account) ?? null,
        inSchedule: read.schedule.has(p.account),
      });
      report.read++;
      if (recorded.miss) report.misses++;
      if (recorded.keyChanged) report.keyChanges++;
    }
  }
  return report;
}
