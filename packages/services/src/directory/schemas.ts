import { z } from "zod";
import { NetworkHeadSummary } from "./network-head.js";

/**
 * Response shapes of the public directory JSON API (v1). Declared once: the route handlers
 * validate against them in tests and the OpenAPI document is generated from them.
 */
export const DirectoryWindow = z.enum(["1h", "24h", "7d"]);
export type DirectoryWindow = z.infer<typeof DirectoryWindow>;
export const DIRECTORY_CAPABILITIES = ["archive", "websocket", "trace", "batch", "cors", "debug", "logs"] as const;
export const DirectoryCapability = z.enum(DIRECTORY_CAPABILITIES);
export type DirectoryCapability = z.infer<typeof DirectoryCapability>;

const isoDate = z.iso.datetime();

export const ChainSummary = z
  .object({
    network: z.string().meta({ description: "Network slug, e.g. hive, ethereum-mainnet, polkadot." }),
    chain: z.string(),
    name: z.string(),
    families: z.array(z.string()),
    endpoints: z.object({
      total: z.number().int(),
      active: z.number().int(),
      probation: z.number().int(),
      dead: z.number().int(),
    }),
    updatedAt: isoDate.nullable().meta({ description: "Newest ranking snapshot of this network." }),
    head: NetworkHeadSummary.nullable().meta({ description: "Consensus network head; null without agreement." }),
  })
  .strict();
export type ChainSummary = z.infer<typeof ChainSummary>;

export const ChainsResponse = z.object({ chains: z.array(ChainSummary) }).strict();
export type ChainsResponse = z.infer<typeof ChainsResponse>;

export const EndpointCapabilityFlags = z
  .object({
    archive: z.boolean(),
    websocket: z.boolean(),
    trace: z.boolean(),
    debug: z.boolean(),
    batch: z.boolean(),
    cors: z.boolean(),
    logs: z.boolean(),
  })
  .strict()
  .meta({ description: "true only when the last capability check saw it work; unknown reads false." });

/** Scoring status in a window: availability and freshness (methodology: Health). */
export const EndpointHealth = z.enum(["healthy", "degraded", "lagging", "stale", "probation", "dead"]).meta({
  description:
    "Scoring status in this window: lagging = behind the consensus head or head too old (chain thresholds), stale = head not advancing; neither is ever healthy.",
});
export type EndpointHealth = z.infer<typeof EndpointHealth>;

const UptimeShares = z
  .object({ h24: z.number().nullable(), d7: z.number().nullable(), d30: z.number().nullable() })
  .strict();

/** How the vantage points were weighed for one endpoint in one view (methodology: Vantage points). */
export const VantageWeighing = z
  .object({
    sources: z
      .number()
      .int()
      .meta({ description: "Independent sources used: server vantage points, agent organizations." }),
    servers: z.number().int(),
    agents: z.number().int(),
    ownExcluded: z
      .number()
      .int()
      .meta({ description: "Agent probes left out: the probing organization claims the endpoint." }),
    agentIgnored: z
      .number()
      .int()
      .meta({ description: "Overall view: agent probes not used (agents form region views only)." }),
    discounted: z
      .array(
        z
          .object({
            vantagePointIds: z.array(z.string()),
            reason: z.enum(["availability", "latency", "lag"]),
            value: z.number(),
            median: z.number(),
          })
          .strict(),
      )
      .meta({ description: "Agent vantage points that disagreed with the median of the others: left out, flagged." }),
    capped: z
      .array(z.object({ vantagePointIds: z.array(z.string()), kept: z.number().int(), of: z.number().int() }).strict())
      .meta({ description: "Agent vantage points thinned to their capped share of the samples." }),
  })
  .strict();
export type VantageWeighing = z.infer<typeof VantageWeighing>;

export const RankedEndpoint = z
  .object({
    id: z.string().uuid(),
    url: z.string(),
    wsUrl: z.string().nullable(),
    name: z.string(),
    provider: z.string().nullable(),
    family: z.string(),
    status: z.enum(["active", "probation", "dead"]).meta({ description: "Listing status." }),
    health: EndpointHealth,
    rank: z.number().int().positive(),
    score: z.number().min(0).max(100),
    components: z
      .record(z.string(), z.number().nullable())
      .meta({ description: "Score components 0..1 (see methodology)." }),
    latency: z.object({ p50Ms: z.number().nullable(), p95Ms: z.number().nullable() }).strict(),
    lagBlocks: z.number().nullable(),
    headRegressions: z.number().int(),
    uptime: UptimeShares.meta({
      description:
        "Share of RPC Pulse's own probes answered with a fresh head (lagging or stale answers are not counted as up).",
    }),
    uptimeLagging: UptimeShares.meta({
      description: "Share of probes answered while lagging or stale (degraded): served, but with old data.",
    }),
    samples: z.number().int(),
    capabilities: EndpointCapabilityFlags,
    capabilitiesCheckedAt: isoDate.nullable(),
    clientVersion: z.string().nullable(),
    operatorVerified: z.boolean().meta({
      description:
        "True when an organization holds the endpoint by a verified claim (DNS TXT record or well-known file); an agent's report alone never counts.",
    }),
    claimedBy: z.string().nullable().meta({
      description:
        "Organization that proved control of the endpoint (DNS TXT record or https://<host>/.well-known/rpcpulse-claim).",
    }),
    updatedAt: isoDate,
    // PeakD Beacon compatible fields (a Hive app can switch with a URL change).
    endpoint: z.string().meta({ description: "Beacon: same as url." }),
    version: z.string().nullable().meta({ description: "Beacon: client version." }),
    success: z.number().int().meta({ description: "Beacon-style: successful probes in the window." }),
    fail: z
      .number()
      .int()
      .meta({ description: "Beacon-style: consecutive failed probes at the latest probe (0 = answering now)." }),
    features: z
      .array(z.string())
      .meta({ description: "Beacon-style: supported API sets / namespaces and capability flags." }),
    updated_at: isoDate.meta({ description: "Beacon-style: same as updatedAt." }),
  })
  .strict();
export type RankedEndpoint = z.infer<typeof RankedEndpoint>;

export const RankedListResponse = z
  .object({
    network: z.string(),
    window: DirectoryWindow,
    region: z.string(),
    scoringVersion: z.string(),
    updatedAt: isoDate.nullable(),
    regions: z
      .array(z.string())
      .meta({ description: "Regions with their own ranking in this network (values for the region filter)." }),
    networkHead: NetworkHeadSummary.nullable(),
    endpoints: z.array(RankedEndpoint),
  })
  .strict();
export type RankedListResponse = z.infer<typeof RankedListResponse>;

export const BeaconNode = z
  .object({
    name: z.string(),
    endpoint: z.string(),
    version: z.string(),
    score: z.number().int().min(0).max(100),
    success: z.number().int(),
    fail: z.number().int(),
    features: z.array(z.string()),
    updated_at: isoDate,
    lastUpdate: isoDate,
  })
  .strict();
export const BeaconResponse = z.array(BeaconNode);
export type BeaconResponse = z.infer<typeof BeaconResponse>;

export const WindowStats = z
  .object({
    window: DirectoryWindow,
    region: z.string(),
    rank: z.number().int(),
    score: z.number(),
    health: z.string().meta({ description: "As RankedEndpoint.health." }),
    samples: z.number().int(),
    okSamples: z.number().int(),
    availability: z.number().nullable(),
    p50Ms: z.number().nullable(),
    p95Ms: z.number().nullable(),
    lagBlocks: z.number().nullable(),
    headRegressions: z.number().int(),
    components: z.record(z.string(), z.unknown()),
    vantage: VantageWeighing.nullable().meta({ description: "How vantage points were weighed in this view." }),
    updatedAt: isoDate,
  })
  .strict();

export const EndpointDetailResponse = z
  .object({
    id: z.string().uuid(),
    url: z.string(),
    name: z.string(),
    provider: z.string().nullable(),
    family: z.string(),
    network: z.string(),
    chain: z.string(),
    status: z.enum(["active", "probation", "dead"]),
    operatorVerified: z.boolean(),
    claimedBy: z.string().nullable(),
    createdAt: isoDate,
    capabilities: z
      .object({
        checkedAt: isoDate,
        archive: z.boolean().nullable(),
        batch: z.boolean().nullable(),
        websocket: z.boolean().nullable(),
        wsUrl: z.string().nullable(),
        wsNewHeadMs: z.number().nullable(),
        cors: z.boolean().nullable(),
        logsMaxRange: z.number().nullable(),
        coverage: z.number().nullable(),
        clientVersion: z.string().nullable(),
        methods: z.record(z.string(), z.boolean().nullable()),
      })
      .strict()
      .nullable(),
    windows: z.array(WindowStats),
  })
  .strict();
export type EndpointDetailResponse = z.infer<typeof EndpointDetailResponse>;

export const HistoryRange = z.enum(["1h", "24h", "7d", "30d"]);
export type HistoryRange = z.infer<typeof HistoryRange>;

export const EndpointHistoryResponse = z
  .object({
    endpointId: z.string().uuid(),
    range: HistoryRange,
    resolution: z.enum(["raw", "1m", "1h"]),
    points: z.array(
      z
        .object({
          time: isoDate,
          probes: z.number().int(),
          availability: z.number(),
          ttfbMsAvg: z.number().nullable(),
          totalMsAvg: z.number().nullable(),
          totalMsP95: z.number().nullable(),
          headBlockMax: z.number().nullable(),
          rateLimited: z.number().int(),
        })
        .strict(),
    ),
  })
  .strict();
export type EndpointHistoryResponse = z.infer<typeof EndpointHistoryResponse>;

export const SubmitEndpointInput = z
  .object({
    url: z.string().trim().min(1).max(2048),
    network: z.string().min(1).max(64),
    family: z.enum(["hive", "ethereum", "substrate", "sidecar"]).optional(),
    name: z.string().trim().min(1).max(120).optional(),
    provider: z.string().trim().min(1).max(120).optional(),
  })
  .strict();
export type SubmitEndpointInput = z.infer<typeof SubmitEndpointInput>;

export const SubmitEndpointResponse = z
  .object({
    id: z.string().uuid(),
    url: z.string(),
    network: z.string(),
    family: z.string(),
    status: z.literal("probation"),
  })
  .strict();
export type SubmitEndpointResponse = z.infer<typeof SubmitEndpointResponse>;

/** RFC 9457 problem details (application/problem+json) with our `code` and the older `error` member. */
export const ErrorResponse = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().optional(),
    code: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
  })
  .meta({ id: "Error" });
