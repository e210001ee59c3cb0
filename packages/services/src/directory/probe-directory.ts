import {
  ensureVantagePoint,
  getEndpointCapabilities,
  insertProbeResults,
  listDirectoryEndpoints,
  listEndpointsDueForCapabilityCheck,
  replaceEndpointCapability,
  type DirectoryEndpoint,
  type EndpointCapabilityRow,
  type ProbeResultInput,
} from "@rpcpulse/db/directory";
import { type SqlClient } from "@rpcpulse/db/sql";
import {
  checkCapabilities,
  createProbeScheduler,
  classifyAddress,
  probeEndpoint,
  settleCapabilityReport,
  type CapabilityReport,
  type ProbeResult,
  type RetryPolicy,
  type SafeHttpClient,
} from "@rpcpulse/prober";
import { shuffleTargets } from "./shuffle-targets.js";

export interface VantageSettings {
  /** Unique name of this probe location, e.g. "server:eu-central". */
  name: string;
  region: string;
}

export interface ProbeRoundOptions {
  client: SafeHttpClient;
  vantage: VantageSettings;
  /** Probes in flight at most. */
  concurrency: number;
  /** Starts are spread over this many ms (jitter within the round). */
  spreadMs?: number;
  /** Probe only endpoints whose host is a loopback/private IP literal (air-gapped demo). */
  onlyPrivate?: boolean;
  endpointIds?: readonly string[];
}

export interface ProbeRoundReport {
  vantagePointId: string;
  probed: number;
  ok: number;
  failed: number;
  skipped: number;
  inserted: number;
}

/** The host of the URL is an IP literal in a non-public range (loopback, RFC 1918, ULA, ...). */
export function isPrivateLiteralUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return false;
  }
  if (!/^[\d.]+$/.test(host) && !host.includes(":")) return false;
  return ["loopback", "private", "link_local", "cgnat"].includes(classifyAddress(host));
}

function endpointsToProbe(list: readonly DirectoryEndpoint[], onlyPrivate: boolean | undefined): DirectoryEndpoint[] {
  return onlyPrivate ? list.filter((e) => isPrivateLiteralUrl(e.url)) : [...list];
}

export function toProbeRow(endpointId: string, vantagePointId: string, r: ProbeResult): ProbeResultInput {
  return {
    time: new Date(r.startedAt),
    endpointId,
    vantagePointId,
    ok: r.ok,
    httpStatus: r.httpStatus,
    errorClass: r.errorClass,
    errorMessage: r.errorMessage ?? r.rpcError?.message ?? null,
    dnsMs: r.phases?.dnsMs ?? null,
    connectMs: r.phases?.connectMs ?? null,
    tlsMs: r.phases?.tlsMs ?? null,
    ttfbMs: r.phases?.ttfbMs ?? null,
    totalMs: r.phases?.totalMs ?? null,
    headBlock: r.headBlock,
    headTime: r.headTime === null ? null : new Date(r.headTime),
    finalizedBlock: r.finalizedBlock,
    responseBytes: r.responseBytes,
    rateLimited: r.rateLimited,
  };
}

/**
 * One probe round from this vantage point: every listed endpoint (or the given ones) once, in a random
 * order, at most `concurrency` at a time, starts spread over `spreadMs`; results stored with
 * insertProbeResults.
 */
export async function probeDirectoryRound(
  deps: { sql: SqlClient },
  options: ProbeRoundOptions,
): Promise<ProbeRoundReport> {
  const vantage = await ensureVantagePoint(deps.sql, { ...options.vantage, kind: "server" });
  const all = await listDirectoryEndpoints(deps.sql, options.endpointIds ? { ids: options.endpointIds } : {});
  const targets = endpointsToProbe(all, options.onlyPrivate);
  const rows: ProbeResultInput[] = [];
  const scheduler = createProbeScheduler<DirectoryEndpoint, ProbeResult>({
    concurrency: options.concurrency,
    intervalMs: Math.max(1, options.spreadMs ?? 0),
    jitter: options.spreadMs ? 1 : 0,
    run: (e) => probeEndpoint({ url: e.url, family: e.family, network: e.network }, options.client),
    onResult: (e, result) => {
      if (result) rows.push(toProbeRow(e.id, vantage.id, result));
    },
  });
  // A new random order every round: no endpoint keeps the same place (and slice of the spread) in it.
  const stats = await scheduler.runRound(shuffleTargets(targets), options.spreadMs ?? 0);
  await scheduler.stop();
  const inserted = await insertProbeResults(deps.sql, rows);
  const ok = rows.filter((r) => r.ok).length;
  return {
    vantagePointId: vantage.id,
    probed: rows.length,
    ok,
    failed: rows.length - ok,
    skipped: all.length - targets.length + stats.skipped,
    inserted,
  };
}

export interface CapabilityRoundOptions {
  client: SafeHttpClient;
  /** Endpoints checked longer ago than this (or never) are checked now. */
  maxAgeMs: number;
  concurrency: number;
  onlyPrivate?: boolean;
  now?: Date;
  /** Limit per run, so a long list spreads over several runs. */
  limit?: number;
  /** Retries of transient errors within each check (default the prober's CAPABILITY_RETRY). */
  retry?: RetryPolicy | false;
}

function capabilityRow(endpointId: string, report: CapabilityReport) {
  return {
    endpointId,
    checkedAt: new Date(report.checkedAt),
    archive: report.archive,
    methods: report.methods,
    coverage: report.coverage,
    batch: report.batch,
    logsMaxRange: report.logsMaxRange,
    websocket: report.websocket.supported,
    wsUrl: report.websocket.supported ? report.websocket.url : null,
    wsNewHeadMs: report.websocket.firstHeadMs,
    cors: report.cors.status === null ? null : report.cors.allowed,
    clientVersion: report.clientVersion === null ? null : report.clientVersion.slice(0, 512),
    report: report as unknown as Record<string, unknown>,
  };
}

/** A stored report, when it has the shape of one (rows written before settling existed still do). */
function storedReport(row: EndpointCapabilityRow | undefined): CapabilityReport | null {
  const r = row?.report;
  if (!r || typeof r.websocket !== "object" || typeof r.cors !== "object" || typeof r.methods !== "object") return null;
  return r as unknown as CapabilityReport;
}

/**
 * Settles one raw check into the endpoint's stored report (settleCapabilityReport: transient
 * unknowns keep the last good values, a flip needs agreeing checks) and stores it, guarded against
 * a check stored in between by another worker (then settled again on that one). Returns the stored
 * report, or null when the endpoint kept changing under us.
 */
async function storeSettledCapability(
  sql: SqlClient,
  endpointId: string,
  raw: CapabilityReport,
  known: EndpointCapabilityRow | undefined,
): Promise<CapabilityReport | null> {
  let previous = known;
  for (let attempt = 0; attempt < 3; attempt++) {
    const settled = settleCapabilityReport(storedReport(previous), raw);
    if (await replaceEndpointCapability(sql, capabilityRow(endpointId, settled), previous?.checkedAt ?? null))
      return settled;
    previous = (await getEndpointCapabilities(sql, [endpointId])).get(endpointId);
  }
  return null;
}

/**
 * Capability checks (slow cadence) of the endpoints due, bounded concurrency, each settled into the
 * endpoint's stored report. `pending`: endpoints with a capability change seen but not confirmed yet.
 */
export async function checkDirectoryCapabilities(
  deps: { sql: SqlClient },
  options: CapabilityRoundOptions,
): Promise<{ checked: number; failed: number; pending: number }> {
  const now = options.now ?? new Date();
  const due = await listEndpointsDueForCapabilityCheck(deps.sql, new Date(now.getTime() - options.maxAgeMs));
  const endpoints = endpointsToProbe(
    await listDirectoryEndpoints(deps.sql, { ids: due.slice(0, options.limit ?? 200) }),
    options.onlyPrivate,
  );
  let checked = 0;
  let failed = 0;
  const reports: Array<[string, CapabilityReport]> = [];
  const run = createProbeScheduler<DirectoryEndpoint, CapabilityReport>({
    concurrency: options.concurrency,
    intervalMs: 1,
    jitter: 0,
    run: (e) =>
      checkCapabilities(
        { url: e.url, family: e.family, network: e.network },
        options.client,
        options.retry === undefined ? {} : { retry: options.retry },
      ),
    onResult: (e, report) => {
      if (report) reports.push([e.id, report]);
      else failed++;
    },
  });
  await run.runRound(endpoints);
  await run.stop();
  const stored = await getEndpointCapabilities(
    deps.sql,
    reports.map(([id]) => id),
  );
  let pending = 0;
  for (const [id, report] of reports) {
    const settled = await storeSettledCapability(deps.sql, id, report, stored.get(id));
    if (!settled) continue;
    checked++;
    if (settled.pending) pending++;
  }
  return { checked, failed, pending };
}
