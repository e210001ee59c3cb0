import {
  listOrganizationNodeUrls,
  listProducerSources,
  listValidatorStatuses,
  recordValidatorError,
  recordValidatorReading,
  type ValidatorStatusRow,
} from "@rpcpulse/db/producers";
import { type SqlClient } from "@rpcpulse/db/sql";
import { findNetwork } from "@rpcpulse/domain";
import { callJsonRpc, type SafeHttpClient } from "@rpcpulse/prober";
import type { z } from "zod";
import { isPrivateLiteralUrl } from "../directory/probe-directory.js";
import {
  ActiveEraValue,
  concatSessionKeys,
  EraRewardPointsValue,
  eraProgress,
  findOfflineStashes,
  medianEraPoints,
  NextKeysValue,
  StakingPayouts,
  StakingProgress,
  StakingValidators,
  storageItem,
  TimestampValue,
  summarisePendingPayouts,
  ValidatorPrefsValue,
} from "./parse-validator.js";

/**
 * The worker's producers task for Polkadot/Kusama validators: per network, the registered stashes
 * are read through substrate-api-sidecar from the organizations' own sidecar nodes first, then the
 * directory's healthy sidecar endpoints (the first that answers wins the round):
 *   /pallets/staking/progress              active era, the session's validator set, next era estimate
 *   /pallets/staking/storage/activeEra     the era's start (ms) for the share of the era elapsed
 *   /pallets/timestamp/storage/now         the block's time (ms), the other end of that share
 *   /pallets/staking/storage/erasRewardPoints?keys[]=<era>   points per validator → the set's median
 *   /pallets/staking/validators            waiting vs not a validator (only when a stash is not in the set)
 *   /pallets/staking/storage/validators?keys[]=<stash>      commission (Perbill), blocked
 *   /pallets/session/storage/nextKeys?keys[]=<stash>        on-chain session keys
 *   /accounts/<stash>/staking-payouts?depth=N&unclaimedOnly=true   unclaimed eras (once per era)
 *   /blocks/<n> for each finalized block since the last round  imOnline.SomeOffline events
 * and author_hasSessionKeys on the organization's own substrate nodes, where they expose it.
 */

export interface PollValidatorsOptions {
  client: SafeHttpClient;
  /** Read only sources whose host is a loopback/private IP literal (the air-gapped demo). */
  onlyPrivate?: boolean;
  maxSources?: number;
  /** Finalized blocks scanned per round for offline reports; older ones are skipped (default 30). */
  maxBlocksPerRound?: number;
  /** Eras back the pending payouts are looked for (default 14; sidecar's limit is the history depth, 84). */
  payoutDepth?: number;
  now?: () => Date;
}

export interface PollValidatorsReport {
  networks: number;
  validators: number;
  read: number;
  failed: number;
  leftSet: number;
  offlineReports: number;
}

const BLOCK_MAX_BYTES = 8 * 1024 * 1024;

async function getJson(client: SafeHttpClient, base: string, path: string, maxBytes?: number): Promise<unknown> {
  const url = `${base.replace(/\/+$/, "")}${path}`;
  const response = await client.request(url, { method: "GET", ...(maxBytes ? { maxResponseBytes: maxBytes } : {}) });
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString("utf8"));
  } catch {
    throw new Error(`GET ${path}: HTTP ${response.status}, not JSON`);
  }
  if (response.status < 200 || response.status >= 300) {
    const message = (body as { message?: unknown } | null)?.message;
    throw new Error(
      `GET ${path}: HTTP ${response.status}${typeof message === "string" ? ` ${message.slice(0, 200)}` : ""}`,
    );
  }
  return body;
}

async function getStorage<T extends z.ZodType>(
  client: SafeHttpClient,
  base: string,
  item: string,
  value: T,
  key?: string,
): Promise<z.infer<T>> {
  const query = key === undefined ? "" : `?keys[]=${encodeURIComponent(key)}`;
  return storageItem(value).parse(await getJson(client, base, `/pallets/${item}${query}`)).value as z.infer<T>;
}

interface StashRead {
  status: "active" | "waiting" | "inactive";
  eraPoints: number;
  commissionPpb: number | null;
  blocked: boolean | null;
  sessionKeys: string | null;
  payouts: { checkedEra: number; eras: number[]; planck: string } | null;
  offlineBlocks: number[];
}

interface NetworkRead {
  source: string;
  head: number;
  activeEra: number;
  eraProgress: number;
  medianPoints: number;
  setSize: number;
  scannedTo: number;
  stashes: Map<string, StashRead>;
}

async function readNetwork(
  client: SafeHttpClient,
  url: string,
  network: string,
  list: readonly ValidatorStatusRow[],
  options: { maxBlocks: number; payoutDepth: number },
): Promise<NetworkRead> {
  const progress = StakingProgress.parse(await getJson(client, url, "/pallets/staking/progress"));
  const head = Number(progress.at.height);
  const activeEra = Number(progress.activeEra);
  const set = progress.validatorSet ?? [];
  const inSet = new Set(set);
  const era = await getStorage(client, url, "staking/storage/activeEra", ActiveEraValue);
  // The era's elapsed share is measured on chain time (Timestamp::Now of the same block), not the worker's clock.
  const chainNowMs = Number(await getStorage(client, url, "timestamp/storage/now", TimestampValue));
  const points = await getStorage(
    client,
    url,
    "staking/storage/erasRewardPoints",
    EraRewardPointsValue,
    String(activeEra),
  );
  const stashes = [...new Set(list.map((p) => p.account))];
  let waiting: Set<string> | null = null;
  if (stashes.some((s) => !inSet.has(s))) {
    const all = StakingValidators.parse(await getJson(client, url, "/pallets/staking/validators"));
    waiting = new Set(all.validators.map((v) => v.address));
  }
  // Offline reports: every finalized block since the oldest stash's last scan (a first read starts here).
  const scannedBefore = list.map((p) => p.latest?.scannedBlock ?? head).reduce((a, b) => Math.min(a, b), head);
  const from = Math.max(scannedBefore + 1, head - options.maxBlocks + 1);
  const offlineByStash = new Map<string, number[]>();
  for (let n = from; n <= head; n += 1) {
    const block = await getJson(client, url, `/blocks/${n}?noFees=true`, BLOCK_MAX_BYTES);
    for (const stash of findOfflineStashes(block)) offlineByStash.set(stash, [...(offlineByStash.get(stash) ?? []), n]);
  }
  const out = new Map<string, StashRead>();
  for (const stash of stashes) {
    const status = inSet.has(stash) ? "active" : waiting?.has(stash) ? "waiting" : "inactive";
    const prefs =
      status === "inactive"
        ? null
        : await getStorage(client, url, "staking/storage/validators", ValidatorPrefsValue, stash);
    const keys = await getStorage(client, url, "session/storage/nextKeys", NextKeysValue, stash);
    const checked = list.find((p) => p.account === stash)?.latest?.payoutsCheckedEra ?? null;
    let payouts: StashRead["payouts"] = null;
    if (activeEra >= 1 && checked !== activeEra && status !== "inactive") {
      const raw = StakingPayouts.parse(
        await getJson(
          client,
          url,
          `/accounts/${encodeURIComponent(stash)}/staking-payouts?depth=${Math.min(options.payoutDepth, activeEra)}&unclaimedOnly=true`,
        ),
      );
      payouts = { checkedEra: activeEra, ...summarisePendingPayouts(raw, stash) };
    }
    out.set(stash, {
      status,
      eraPoints: Number(points.individual[stash] ?? "0"),
      commissionPpb: prefs ? Number(prefs.commission) : null,
      blocked: prefs ? prefs.blocked : null,
      sessionKeys: keys && Object.keys(keys).length > 0 ? concatSessionKeys(keys) : null,
      payouts,
      offlineBlocks: offlineByStash.get(stash) ?? [],
    });
  }
  return {
    source: url,
    head,
    activeEra,
    eraProgress: eraProgress({
      eraStartMs: era?.start ? Number(era.start) : null,
      nowMs: chainNowMs,
      head,
      nextEraBlock: progress.nextActiveEraEstimate ? Number(progress.nextActiveEraEstimate) : null,
      blockIntervalMs: findNetwork(network)?.blockIntervalMs ?? 6_000,
    }),
    medianPoints: medianEraPoints(set, points.individual),
    setSize: set.length,
    scannedTo: head,
    stashes: out,
  };
}

/** author_hasSessionKeys on the organization's own substrate nodes: true on the first that holds them. */
async function checkKeysOnNodes(
  client: SafeHttpClient,
  nodes: ReadonlyArray<{ name: string; url: string }>,
  keys: string,
  cache: Map<string, boolean | null>,
): Promise<{ onNode: boolean | null; node: string | null }> {
  let answered = false;
  for (const node of nodes) {
    const cacheKey = `${node.url}|${keys}`;
    let held = cache.get(cacheKey);
    if (held === undefined) {
      try {
        const reply = await callJsonRpc(client, node.url, "author_hasSessionKeys", [keys]);
        held = reply.ok && typeof reply.result === "boolean" ? reply.result : null;
      } catch {
        held = null;
      }
      cache.set(cacheKey, held);
    }
    if (held === true) return { onNode: true, node: node.name };
    if (held === false) answered = true;
  }
  return { onNode: answered ? false : null, node: null };
}

function describeError(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}

export async function pollValidators(
  deps: { sql: SqlClient },
  options: PollValidatorsOptions,
): Promise<PollValidatorsReport> {
  const now = options.now ?? (() => new Date());
  const validators = await listValidatorStatuses(deps.sql);
  const byNetwork = new Map<string, ValidatorStatusRow[]>();
  for (const v of validators) byNetwork.set(v.network, [...(byNetwork.get(v.network) ?? []), v]);
  const report: PollValidatorsReport = {
    networks: byNetwork.size,
    validators: validators.length,
    read: 0,
    failed: 0,
    leftSet: 0,
    offlineReports: 0,
  };
  const keysCache = new Map<string, boolean | null>();
  for (const [network, list] of byNetwork) {
    const orgs = [...new Set(list.map((p) => p.organizationId))];
    const all = await listProducerSources(deps.sql, {
      network,
      organizationIds: orgs,
      limit: options.maxSources ?? 3,
      family: "sidecar",
    });
    const sources = options.onlyPrivate ? all.filter(isPrivateLiteralUrl) : all;
    let read: NetworkRead | null = null;
    let lastError = sources.length === 0 ? `no sidecar endpoint of ${network} to read from` : "";
    for (const url of sources) {
      try {
        read = await readNetwork(options.client, url, network, list, {
          maxBlocks: options.maxBlocksPerRound ?? 30,
          payoutDepth: options.payoutDepth ?? 14,
        });
        break;
      } catch (error) {
        lastError = `${url}: ${describeError(error)}`;
      }
    }
    const at = now();
    for (const p of list) {
      const facts = read?.stashes.get(p.account);
      if (!read || !facts) {
        report.failed++;
        await recordValidatorError(deps.sql, { producerId: p.id, at, message: lastError });
        continue;
      }
      const nodes = await listOrganizationNodeUrls(deps.sql, {
        organizationId: p.organizationId,
        network,
        family: "substrate",
      });
      const nodeUrls = options.onlyPrivate ? nodes.filter((n) => isPrivateLiteralUrl(n.url)) : nodes;
      const keys = facts.sessionKeys
        ? await checkKeysOnNodes(options.client, nodeUrls, facts.sessionKeys, keysCache)
        : { onNode: null, node: null };
      const recorded = await recordValidatorReading(deps.sql, {
        producerId: p.id,
        observedAt: at,
        source: read.source,
        headBlock: read.head,
        activeEra: read.activeEra,
        eraProgress: read.eraProgress,
        status: facts.status,
        eraPoints: facts.eraPoints,
        medianPoints: read.medianPoints,
        setSize: read.setSize,
        commissionPpb: facts.commissionPpb,
        blocked: facts.blocked,
        sessionKeys: facts.sessionKeys,
        keysOnNode: keys.onNode,
        keysNode: keys.node,
        payouts: facts.payouts,
        scannedBlock: read.scannedTo,
        offlineReports: facts.offlineBlocks.map((block) => ({ block, era: read.activeEra })),
      });
      report.read++;
      if (recorded.leftSet) report.leftSet++;
      report.offlineReports += recorded.newOfflineReports;
    }
  }
  return report;
}
