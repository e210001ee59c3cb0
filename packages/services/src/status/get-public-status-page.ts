import { AppError } from "@rpcpulse/config";
import {
  findPublicStatusPage,
  listPageIncidents,
  listPageMaintenance,
  queryComponentHourSeries,
  queryLatestEndpointProbes,
  queryNodeComponentTelemetry,
  type StatusPageTree,
} from "@rpcpulse/db/status";
import { listNodeHeads, queryFinalityHourSeries, finalityLagOf, type FinalityHourPoint } from "@rpcpulse/db/fleet";
import { type PrismaClient, type SqlClient } from "@rpcpulse/db/sql";
import { z } from "zod";
import {
  dayLevel,
  deriveEndpointState,
  deriveNodeState,
  PROBE_FRESH_MS,
  incidentImpactState,
  worstState,
  type ComponentState,
  type DayLevel,
} from "./component-state.js";
import { getComponentUptime, summarizeUptime, uptimeKey, utcDay, UPTIME_DAYS } from "./component-uptime.js";
import { loadConsensusComponents, type PublicConsensusClient } from "./consensus-components.js";
import { loadProducerComponents, type PublicProducer } from "./producer-components.js";
import { markdownToText } from "./render-markdown.js";
import { cachedSnapshot } from "./snapshot-cache.js";

/**
 * Everything a public status page, its feeds and its badges show, built from what the page lists
 * and nothing else: components are identified by their status-component id (never a node or
 * endpoint id, URL or IP), incidents keep only the links to this page's components.
 */

export interface PublicDay {
  /** YYYY-MM-DD (UTC). */
  date: string;
  uptime: number | null;
  level: DayLevel;
  incidents: { id: string; title: string }[];
}

export interface PublicComponent {
  id: string;
  name: string;
  description: string;
  kind: "node" | "endpoint" | "producer" | "consensus_client";
  network: string;
  state: ComponentState;
  uptime90: number | null;
  days: PublicDay[];
  /** Hourly mean response time over the last 24 h (oldest first). */
  responseMs: (number | null)[];
  /** Nodes: hourly worst lag in blocks over the last 24 h. */
  lagBlocks: (number | null)[];
  /** Nodes: blocks not yet final now (head − finalized; Hive/Steem: last irreversible), null without data. */
  finalityLagBlocks: number | null;
  /** Nodes: hourly finality lag over the last 24 h (about each hour's last sample). */
  finalityLag: (number | null)[];
  /** Producers (witnesses): producing or not, recent misses with their block numbers, key, feed. */
  producer: PublicProducer | null;
  /** Consensus clients (beside an Ethereum node): client and version, head slot against the wall slot, flags. */
  consensus?: PublicConsensusClient | null;
}

export interface PublicIncidentUpdate {
  id: string;
  status: string;
  html: string;
  text: string;
  createdAt: Date;
}

export interface PublicIncident {
  id: string;
  title: string;
  status: string;
  impact: string;
  auto: boolean;
  startedAt: Date;
  resolvedAt: Date | null;
  updatedAt: Date;
  componentIds: string[];
  updates: PublicIncidentUpdate[];
}

export interface PublicMaintenance {
  id: string;
  title: string;
  html: string;
  text: string;
  startsAt: Date;
  endsAt: Date;
  componentIds: string[];
  active: boolean;
}

export interface PublicStatusPage {
  page: {
    id: string;
    slug: string;
    title: string;
    description: string;
    accentColor: string;
    theme: string;
    customDomain: string | null;
  };
  generatedAt: Date;
  overall: ComponentState;
  groups: { id: string | null; name: string; components: PublicComponent[] }[];
  components: PublicComponent[];
  activeIncidents: PublicIncident[];
  pastIncidents: PublicIncident[];
  maintenance: PublicMaintenance[];
  /** Hour starts (unix seconds) of the 24 h charts. */
  hours: number[];
}

const Slug = z.string().regex(/^[a-z0-9][a-z0-9-]{1,62}$/);
const Domain = z.string().regex(/^[a-z0-9.-]{3,253}$/);
const HOUR_MS = 3_600_000;

export type PageLookup = { slug: string } | { domain: string };

/** The public page by slug or verified domain, cached ~30 s per process; NOT_FOUND otherwise. */
export async function getPublicStatusPage(
  deps: { prisma: PrismaClient; sql: SqlClient },
  lookup: PageLookup,
  options: { now?: Date; fresh?: boolean } = {},
): Promise<PublicStatusPage> {
  const cacheKey = "slug" in lookup ? `slug:${lookup.slug}` : `domain:${lookup.domain.toLowerCase()}`;
  const load = async () => {
    const tree = await loadTree(deps.prisma, lookup);
    if (!tree) throw new AppError("NOT_FOUND", "Status page not found.");
    return buildPublicStatusPage(deps, tree, options.now ?? new Date());
  };
  return options.fresh ? load() : cachedSnapshot(cacheKey, load);
}

async function loadTree(prisma: PrismaClient, lookup: PageLookup): Promise<StatusPageTree | null> {
  if ("slug" in lookup) {
    const slug = Slug.safeParse(lookup.slug);
    return slug.success ? findPublicStatusPage(prisma, { slug: slug.data }) : null;
  }
  const domain = Domain.safeParse(lookup.domain.toLowerCase().replace(/:\d+$/, ""));
  return domain.success ? findPublicStatusPage(prisma, { domain: domain.data }) : null;
}

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export async function buildPublicStatusPage(
  deps: { prisma: PrismaClient; sql: SqlClient },
  tree: StatusPageTree,
  now: Date,
): Promise<PublicStatusPage> {
  const [producerFacts, consensusFacts] = await Promise.all([
    loadProducerComponents(
      deps.sql,
      tree.components.flatMap((c) => (c.kind === "producer" && c.producerId ? [c.producerId] : [])),
      now,
    ),
    loadConsensusComponents(
      deps.sql,
      tree.components.flatMap((c) => (c.kind === "consensus_client" && c.beaconNode ? [c.beaconNode.id] : [])),
      now,
    ),
  ]);
  const comps = tree.components.filter((c) =>
    c.kind === "node"
      ? c.node
      : c.kind === "endpoint"
        ? c.endpoint
        : c.kind === "consensus_client"
          ? c.beaconNode
          : c.producerId && producerFacts.has(c.producerId),
  );
  const nodeIds = comps.flatMap((c) => (c.kind === "node" && c.nodeId ? [c.nodeId] : []));
  const endpointIds = comps.flatMap((c) => (c.kind === "endpoint" && c.endpointId ? [c.endpointId] : []));
  const refOf = (c: (typeof comps)[number]) =>
    (c.kind === "node"
      ? c.nodeId
      : c.kind === "endpoint"
        ? c.endpointId
        : c.kind === "consensus_client"
          ? c.beaconNodeId
          : c.producerId) as string;
  const createdOf = (c: (typeof comps)[number]): Date =>
    (c.kind === "node"
      ? c.node?.createdAt
      : c.kind === "endpoint"
        ? c.endpoint?.createdAt
        : c.kind === "consensus_client"
          ? c.beaconNode?.createdAt
          : producerFacts.get(c.producerId ?? "")?.createdAt) ?? c.createdAt;
  const hourTo = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS);
  const hourFrom = new Date(hourTo.getTime() - 24 * HOUR_MS);
  const since = new Date(utcDay(now).getTime() - (UPTIME_DAYS - 1) * 86_400_000);

  const [telemetry, probes, uptime, hourly, incidents, maintenance, heads, finalityHours] = await Promise.all([
    queryNodeComponentTelemetry(deps.sql, nodeIds),
    queryLatestEndpointProbes(deps.sql, { endpointIds, since: new Date(now.getTime() - PROBE_FRESH_MS) }),
    getComponentUptime(deps, {
      now,
      refs: comps.map((c) => ({ kind: c.kind, refId: refOf(c), createdAt: createdOf(c) })),
    }),
    queryComponentHourSeries(deps.sql, { nodeIds, endpointIds, from: hourFrom, to: hourTo }),
    listPageIncidents(deps.prisma, { pageId: tree.id, organizationId: tree.organizationId, since, limit: 200 }),
    listPageMaintenance(deps.prisma, { pageId: tree.id, endsAfter: now, limit: 50 }),
    listNodeHeads(deps.sql, nodeIds),
    queryFinalityHourSeries(deps.sql, { nodeIds, from: hourFrom, to: hourTo }),
  ]);

  const ownIds = new Set(comps.map((c) => c.id));
  const publicIncidents: PublicIncident[] = incidents.map((i) => ({
    id: i.id,
    title: i.title,
    status: i.status,
    impact: i.impact,
    auto: i.auto,
    startedAt: i.startedAt,
    resolvedAt: i.resolvedAt,
    updatedAt: i.updates[0]?.createdAt ?? i.startedAt,
    componentIds: i.components.map((l) => l.componentId).filter((id) => ownIds.has(id)),
    updates: i.updates.map((u) => ({
      id: u.id,
      status: u.status,
      html: u.bodyHtml,
      text: markdownToText(u.body),
      createdAt: u.createdAt,
    })),
  }));
  const publicMaintenance: PublicMaintenance[] = maintenance.map((m) => ({
    id: m.id,
    title: m.title,
    html: m.bodyHtml,
    text: markdownToText(m.body),
    startsAt: m.startsAt,
    endsAt: m.endsAt,
    componentIds: m.componentIds.filter((id) => ownIds.has(id)),
    active: m.startsAt <= now && m.endsAt > now,
  }));
  const inMaintenance = new Set(publicMaintenance.filter((m) => m.active).flatMap((m) => m.componentIds));
  const telemetryByNode = new Map(telemetry.map((t) => [t.nodeId, t]));
  const probesByEndpoint = groupBy(probes, (p) => p.endpointId);
  const hours = Array.from({ length: 24 }, (_, i) => hourFrom.getTime() + i * HOUR_MS);
  const hourlyByRef = groupBy(hourly, (h) => h.refId);
  const finalityNow = new Map(
    heads
      .filter((h) => h.sampleTime !== null && now.getTime() - h.sampleTime.getTime() <= PROBE_FRESH_MS)
      .map((h) => [h.nodeId, finalityLagOf(h.headBlock, h.finalizedBlock)]),
  );
  const finalityByNode = groupBy(finalityHours, (h) => h.nodeId);

  const components: PublicComponent[] = comps.map((c) => {
    const ref = refOf(c);
    const producer = c.kind === "producer" ? producerFacts.get(ref) : undefined;
    const consensus = c.kind === "consensus_client" ? consensusFacts.get(ref) : undefined;
    let state: ComponentState =
      c.kind === "node"
        ? deriveNodeState(telemetryByNode.get(ref), now)
        : c.kind === "endpoint"
          ? deriveEndpointState(probesByEndpoint.get(ref) ?? [], now)
          : ((producer ?? consensus)?.state ?? "unknown");
    if (inMaintenance.has(c.id)) state = "maintenance";
    const series = uptime.get(uptimeKey({ kind: c.kind, refId: ref })) ?? [];
    // Hourly series are a node's or an endpoint's (a consensus client's ref is its node's id: not its series).
    const ownHourly = c.kind === "node" || c.kind === "endpoint" ? hourlyByRef.get(ref) : undefined;
    const points = new Map((ownHourly ?? []).map((h) => [h.bucket.getTime(), h]));
    const network =
      c.kind === "node"
        ? c.node?.network.name
        : (c.endpoint?.network.name ?? c.beaconNode?.network.name ?? producer?.network);
    return {
      id: c.id,
      name: c.displayName,
      description: c.description,
      kind: c.kind,
      network: network ?? "",
      state,
      uptime90: summarizeUptime(series),
      days: series.map((d) => {
        const dayEnd = d.day.getTime() + 86_400_000;
        return {
          date: isoDate(d.day),
          uptime: d.uptime,
          level: dayLevel(d.uptime, d.degradedShare),
          incidents: publicIncidents
            .filter(
              (i) =>
                (i.componentIds.length === 0 || i.componentIds.includes(c.id)) &&
                i.startedAt.getTime() < dayEnd &&
                (i.resolvedAt ?? now).getTime() >= d.day.getTime(),
            )
            .map((i) => ({ id: i.id, title: i.title })),
        };
      }),
      responseMs: hours.map((h) => round1(points.get(h)?.avgMs ?? null)),
      lagBlocks: hours.map((h) => (c.kind === "node" ? (points.get(h)?.lagBlocksMax ?? null) : null)),
      finalityLagBlocks: c.kind === "node" ? (finalityNow.get(ref) ?? null) : null,
      finalityLag: hourValues(hours, c.kind === "node" ? finalityByNode.get(ref) : undefined),
      producer: producer?.producer ?? null,
      consensus: consensus?.consensus ?? null,
    };
  });

  const byGroup = new Map<string | null, PublicComponent[]>();
  comps.forEach((c, i) => {
    const list = byGroup.get(c.groupId) ?? [];
    list.push(components[i] as PublicComponent);
    byGroup.set(c.groupId, list);
  });
  const groups = [
    ...tree.groups.map((g) => ({ id: g.id, name: g.name, components: byGroup.get(g.id) ?? [] })),
    ...(byGroup.has(null)
      ? [{ id: null, name: tree.groups.length > 0 ? "Other" : "", components: byGroup.get(null) ?? [] }]
      : []),
  ].filter((g) => g.components.length > 0);

  return {
    page: {
      id: tree.id,
      slug: tree.slug,
      title: tree.title,
      description: tree.description,
      accentColor: tree.accentColor,
      theme: tree.theme,
      customDomain: tree.verifiedDomain,
    },
    generatedAt: now,
    overall: worstState([
      ...components.map((c) => c.state),
      ...publicIncidents.filter((i) => i.resolvedAt === null).map((i) => incidentImpactState(i.impact)),
    ]),
    groups,
    components,
    activeIncidents: publicIncidents.filter((i) => i.resolvedAt === null),
    pastIncidents: publicIncidents.filter((i) => i.resolvedAt !== null),
    maintenance: publicMaintenance,
    hours: hours.map((h) => h / 1000),
  };
}

/** One value per hour start (null where the hour has none). */
function hourValues(hours: number[], points: FinalityHourPoint[] | undefined): (number | null)[] {
  const byHour = new Map((points ?? []).map((p) => [p.bucket.getTime(), p.finalityLagBlocks]));
  return hours.map((h) => byHour.get(h) ?? null);
}

function round1(v: number | null): number | null {
  return v === null ? null : Math.round(v * 10) / 10;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = keyOf(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}
