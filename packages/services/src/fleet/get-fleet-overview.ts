import {
  type FleetIndexRow,
  type FleetOverviewRow,
  finalityLagOf,
  getFleetOverview as queryFleetOverview,
  listFleetIndex,
  listFleetLatency,
  listNodeHeads,
  listOrganizationNodeHeads,
  type NodeHeadsRow,
} from "@rpcpulse/db/fleet";
import { type SqlClient } from "@rpcpulse/db/sql";
import { NETWORKS } from "@rpcpulse/domain";
import { z } from "zod";
import type { ServiceContext } from "../context.js";
import { computeNodeStatus, NODE_STATUSES, type NodeStatus } from "./node-status.js";
import { describePublicHead, type PublicHeadView } from "./public-head-view.js";

export const FLEET_SORT_KEYS = [
  "name",
  "status",
  "network",
  "client",
  "lag",
  "finality",
  "headAge",
  "publicHead",
  "p50",
  "p95",
  "connections",
  "timeWait",
  "lastSeen",
  "agent",
] as const;
export type FleetSortKey = (typeof FLEET_SORT_KEYS)[number];

/** The overview's URL search params; anything unknown falls back to the default (never an error). */
export const FleetQuery = z.object({
  sort: z.enum(FLEET_SORT_KEYS).catch("name"),
  dir: z.enum(["asc", "desc"]).catch("asc"),
  network: z
    .string()
    .max(64)
    .optional()
    .catch(undefined)
    .transform((v) => (v && NETWORKS.some((n) => n.slug === v) ? v : undefined)),
  status: z.enum(NODE_STATUSES).optional().catch(undefined),
  q: z
    .string()
    .max(100)
    .optional()
    .catch(undefined)
    .transform((v) => v?.trim() || undefined),
  /** 1-based page of FLEET_PAGE_SIZE rows (a 10,000-node organization renders one page). */
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});
export type FleetQuery = z.infer<typeof FleetQuery>;

export interface FleetRow {
  id: string;
  name: string;
  status: NodeStatus;
  networkSlug: string;
  networkName: string;
  chainName: string;
  clientName: string;
  clientVersion: string | null;
  region: string | null;
  lagBlocks: number | null;
  /** Newest sample's head − finalized block (null when the node reports no finality). */
  finalityLagBlocks: number | null;
  /** Latest check of the node's public URL (null: no public URL, or not checked yet). */
  publicHead: PublicHeadView | null;
  /** As of `now`: newest head time's age. */
  headAgeMs: number | null;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  connections: number | null;
  timeWait: number | null;
  lastSeenAt: Date | null;
  agentVersion: string | null;
}

/** Rows per page of the overview. */
export const FLEET_PAGE_SIZE = 100;

export interface FleetOverview {
  now: Date;
  /** The query as parsed; `page` clamped to the pages there are. */
  query: FleetQuery;
  /** One page of the nodes after filter and sort. */
  rows: FleetRow[];
  /** Nodes that match the filter (all pages). */
  matched: number;
  pageCount: number;
  /** Counts over the whole organization (not the filter). */
  summary: Record<NodeStatus, number> & { total: number };
  /** Networks the organization has nodes on (for the filter). */
  networks: { slug: string; name: string }[];
}

/** Latency percentiles on the overview cover the last 15 minutes of 1-minute rollups. */
export const FLEET_LATENCY_WINDOW_MS = 15 * 60_000;

function laterOf(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a.getTime() >= b.getTime() ? a : b;
}

const STATUS_ORDER: Record<NodeStatus, number> = { down: 0, lagging: 1, waiting: 2, up: 3 };

function sortValue(row: FleetRow, key: FleetSortKey): string | number | null {
  switch (key) {
    case "name":
      return row.name.toLowerCase();
    case "status":
      return STATUS_ORDER[row.status];
    case "network":
      return row.networkName.toLowerCase();
    case "client":
      return `${row.clientName} ${row.clientVersion ?? ""}`.toLowerCase();
    case "lag":
      return row.lagBlocks;
    case "finality":
      return row.finalityLagBlocks;
    case "headAge":
      return row.headAgeMs;
    case "publicHead":
      // Most behind first in ascending order; a failing URL before any answer.
      return row.publicHead === null
        ? null
        : row.publicHead.verdict === "failing"
          ? Number.NEGATIVE_INFINITY
          : row.publicHead.diffBlocks;
    case "p50":
      return row.latencyP50Ms;
    case "p95":
      return row.latencyP95Ms;
    case "connections":
      return row.connections;
    case "timeWait":
      return row.timeWait;
    case "lastSeen":
      return row.lastSeenAt?.getTime() ?? null;
    case "agent":
      return row.agentVersion;
  }
}

/** Finality lag and the public-URL check of a fleet row (listOrganizationNodeHeads). */
function chainHeadsOf(
  h: NodeHeadsRow | undefined,
  blockIntervalMs: number,
): Pick<FleetRow, "finalityLagBlocks" | "publicHead"> {
  if (!h) return { finalityLagBlocks: null, publicHead: null };
  return {
    finalityLagBlocks: finalityLagOf(h.headBlock, h.finalizedBlock),
    publicHead: describePublicHead({ publicHead: h.publicHead, blockIntervalMs }),
  };
}

/** Sort by `key`; empty values always last, ties by name. Each row's key is computed once. */
export function sortFleetRows(rows: FleetRow[], key: FleetSortKey, dir: "asc" | "desc"): FleetRow[] {
  const sign = dir === "asc" ? 1 : -1;
  const keyed = rows.map((row) => ({ row, v: sortValue(row, key) }));
  keyed.sort((a, b) => {
    const va = a.v;
    const vb = b.v;
    if (va !== vb) {
      if (va === null) return 1;
      if (vb === null) return -1;
      return (va < vb ? -1 : 1) * sign;
    }
    return a.row.name.localeCompare(b.row.name);
  });
  return keyed.map((k) => k.row);
}

type RowBasis = Pick<
  FleetIndexRow,
  | "id"
  | "name"
  | "networkSlug"
  | "networkName"
  | "blockIntervalMs"
  | "clientName"
  | "clientVersion"
  | "agentVersion"
  | "lagBlocks"
  | "syncing"
  | "tcpEstablished"
  | "tcpTimeWait"
>;

/** A fleet row with its status; chain, region, latency and chain heads empty (filled by the caller). */
function baseRowOf(r: RowBasis, lastSeenAt: Date | null, headAgeMs: number | null, now: Date): FleetRow {
  return {
    id: r.id,
    name: r.name,
    status: computeNodeStatus(
      { lastSeenAt, lagBlocks: r.lagBlocks, headAgeMs, syncing: r.syncing, blockIntervalMs: r.blockIntervalMs },
      now,
    ),
    networkSlug: r.networkSlug,
    networkName: r.networkName,
    chainName: "",
    clientName: r.clientName,
    clientVersion: r.clientVersion,
    region: null,
    lagBlocks: r.lagBlocks,
    finalityLagBlocks: null,
    publicHead: null,
    headAgeMs,
    latencyP50Ms: null,
    latencyP95Ms: null,
    connections: r.tcpEstablished,
    timeWait: r.tcpTimeWait,
    lastSeenAt,
    agentVersion: r.agentVersion,
  };
}

/** A fleet row from the overview's full row (chain heads filled in by the caller). */
function fleetRowOf(r: FleetOverviewRow, now: Date): FleetRow {
  const headAgeMs = r.headTime ? Math.max(0, now.getTime() - r.headTime.getTime()) : r.headAgeMs;
  return {
    ...baseRowOf(r, laterOf(r.sampleTime, r.lastSeenAt), headAgeMs, now),
    chainName: r.chainName,
    region: r.region,
    latencyP50Ms: r.latencyP50Ms,
    latencyP95Ms: r.latencyP95Ms,
  };
}

/**
 * A fleet row from the lean index: status and every sort key but latency and chain heads, from the
 * same inputs as fleetRowOf (epoch milliseconds instead of Dates). The page's rows are read in full
 * afterwards.
 */
function indexRowOf(r: FleetIndexRow, now: Date): FleetRow {
  const headAgeMs = r.headTimeMs !== null ? Math.max(0, now.getTime() - r.headTimeMs) : r.headAgeMs;
  return baseRowOf(r, r.lastSeenMs === null ? null : new Date(r.lastSeenMs), headAgeMs, now);
}

/**
 * Every node of the context's organization with its status and newest telemetry, filtered and
 * sorted as the URL asks. Any member may read it.
 *
 * Unless the sort needs every node's latency or chain heads, status, counts, filter, sort and
 * paging run on a lean index of the organization (listFleetIndex: no timestamps to parse, ~15
 * columns), and only the page's rows are read in full: a 10,000-node organization's full rows cost
 * about 3x the index.
 */
export async function getFleetOverview(
  deps: { sql: SqlClient },
  ctx: ServiceContext,
  input: { query: Record<string, unknown>; now?: Date },
): Promise<FleetOverview> {
  const query = FleetQuery.parse(input.query);
  const now = input.now ?? new Date();
  const latencySince = new Date(now.getTime() - FLEET_LATENCY_WINDOW_MS);
  const organizationId = ctx.organizationId;
  const allLatency = query.sort === "p50" || query.sort === "p95";
  const allHeads = query.sort === "finality" || query.sort === "publicHead";
  const full = allLatency || allHeads;
  const blockIntervalOf = new Map<string, number>();
  let all: FleetRow[];
  if (full) {
    const [raw, heads] = await Promise.all([
      queryFleetOverview(deps.sql, { organizationId, latencySince, ...(allLatency ? {} : { latencyOf: [] }) }),
      allHeads ? listOrganizationNodeHeads(deps.sql, organizationId) : [],
    ]);
    const headsById = new Map(heads.map((h) => [h.nodeId, h]));
    all = raw.map((r) => {
      blockIntervalOf.set(r.id, r.blockIntervalMs);
      return { ...fleetRowOf(r, now), ...chainHeadsOf(headsById.get(r.id), r.blockIntervalMs) };
    });
  } else {
    all = (await listFleetIndex(deps.sql, { organizationId })).map((r) => indexRowOf(r, now));
  }
  const summary = { total: all.length, up: 0, lagging: 0, down: 0, waiting: 0 };
  const networks = new Map<string, string>();
  for (const r of all) {
    summary[r.status]++;
    networks.set(r.networkSlug, r.networkName);
  }
  const needle = query.q?.toLowerCase();
  const filtered = all.filter(
    (r) =>
      (!query.network || r.networkSlug === query.network) &&
      (!query.status || r.status === query.status) &&
      (!needle || r.name.toLowerCase().includes(needle)),
  );
  const pageCount = Math.max(1, Math.ceil(filtered.length / FLEET_PAGE_SIZE));
  const page = Math.min(query.page, pageCount);
  const start = (page - 1) * FLEET_PAGE_SIZE;
  let rows = sortFleetRows(filtered, query.sort, query.dir).slice(start, start + FLEET_PAGE_SIZE);
  const pageIds = rows.map((r) => r.id);
  const [pageFull, pageLatency, pageHeads] = await Promise.all([
    full || pageIds.length === 0
      ? null
      : queryFleetOverview(deps.sql, { organizationId, latencySince, latencyOf: [], nodeIds: pageIds }),
    allLatency || pageIds.length === 0
      ? null
      : listFleetLatency(deps.sql, { organizationId, latencySince, latencyOf: pageIds }),
    allHeads || pageIds.length === 0 ? null : listNodeHeads(deps.sql, pageIds),
  ]);
  if (pageFull) {
    // In the index's order; a node deleted in between drops out.
    const fullById = new Map(pageFull.map((r) => [r.id, r]));
    rows = rows.flatMap((row) => {
      const r = fullById.get(row.id);
      if (!r) return [];
      blockIntervalOf.set(r.id, r.blockIntervalMs);
      return [fleetRowOf(r, now)];
    });
  }
  const pageHeadsById = new Map((pageHeads ?? []).map((h) => [h.nodeId, h]));
  for (const row of rows) {
    if (pageLatency) {
      const latency = pageLatency.get(row.id);
      row.latencyP50Ms = latency?.latencyP50Ms ?? null;
      row.latencyP95Ms = latency?.latencyP95Ms ?? null;
    }
    if (pageHeads) Object.assign(row, chainHeadsOf(pageHeadsById.get(row.id), blockIntervalOf.get(row.id)!));
  }
  return {
    now,
    query: { ...query, page },
    rows,
    matched: filtered.length,
    pageCount,
    summary,
    networks: [...networks].map(([slug, name]) => ({ slug, name })).sort((a, b) => a.name.localeCompare(b.name)),
  };
}
