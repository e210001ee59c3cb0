import {
  clientConfigFromNodeArgs,
  type AdvisorInput,
  type AdvisorOutboundDestination,
  type AdvisorSettings,
} from "@rpcpulse/advisor";
import type { AdvisorNodeRow, AdvisorWindow, ReportedSettingsRow } from "@rpcpulse/db/advisor";
import { z } from "zod";

/** Stored telemetry → the advisor's input (pure). */

const num = z.number().finite().nullable().catch(null);
const ReportedSettings = z.object({
  tcpTwReuse: num.optional(),
  tcpFinTimeout: num.optional(),
  somaxconn: num.optional(),
  tcpMaxSynBacklog: num.optional(),
  tcpMaxTwBuckets: num.optional(),
  ipLocalPortRange: z.object({ low: z.number(), high: z.number() }).nullable().catch(null).optional(),
  tcpTwRecycleLines: z
    .array(z.object({ file: z.string(), line: z.number(), text: z.string() }))
    .catch([])
    .optional(),
  listeningPorts: z.array(z.number().int()).nullable().catch(null).optional(),
  shmTotalBytes: num.optional(),
  nodeArgs: z
    .array(z.object({ flag: z.string(), value: z.string() }))
    .nullable()
    .catch(null)
    .optional(),
});

/** The agent's last report in the advisor's shape (unknown or malformed parts read as unknown). */
export function toAdvisorSettings(row: ReportedSettingsRow | null): AdvisorSettings | null {
  if (!row) return null;
  const s = ReportedSettings.parse(row.settings);
  return {
    tcpTwReuse: s.tcpTwReuse ?? null,
    tcpFinTimeout: s.tcpFinTimeout ?? null,
    somaxconn: s.somaxconn ?? null,
    tcpMaxSynBacklog: s.tcpMaxSynBacklog ?? null,
    tcpMaxTwBuckets: s.tcpMaxTwBuckets ?? null,
    ipLocalPortRange: s.ipLocalPortRange ?? null,
    tcpTwRecycleLines: s.tcpTwRecycleLines ?? [],
    ...(s.listeningPorts ? { listeningPorts: s.listeningPorts } : {}),
    shmTotalBytes: s.shmTotalBytes ?? null,
    clientConfig: clientConfigFromNodeArgs(s.nodeArgs),
  };
}

const Outbound = z
  .object({
    time: z.number(),
    top: z.array(
      z.object({
        ip: z.string(),
        port: z.number(),
        sockets: z.number(),
        established: z.number(),
        timeWait: z.number(),
      }),
    ),
  })
  .nullable()
  .catch(null);

/**
 * The busiest outbound destinations the agent reported last, when that report falls inside the
 * window (the advisor's per-destination rules; without it they read the aggregate series).
 */
export function toAdvisorOutbound(
  row: ReportedSettingsRow | null,
  window: { from: Date; to: Date },
): AdvisorOutboundDestination[] {
  const outbound = Outbound.parse(row?.settings.outbound ?? null);
  if (!outbound || outbound.time < window.from.getTime() || outbound.time >= window.to.getTime()) return [];
  const time = new Date(outbound.time);
  return outbound.top.map((d) => ({ time, ...d }));
}

function portOf(url: string | null): number | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    if (u.port) return Number(u.port);
    if (u.protocol === "https:" || u.protocol === "wss:") return 443;
    if (u.protocol === "http:" || u.protocol === "ws:") return 80;
    return null;
  } catch {
    return null;
  }
}

export function toAdvisorInput(
  node: AdvisorNodeRow,
  window: AdvisorWindow,
  settings: AdvisorSettings | null,
  outbound: AdvisorOutboundDestination[] = [],
  /** The verification window in effect when the app overrides the rules' own (minutes). */
  verifyWindowMinutes?: number,
): AdvisorInput {
  const rpcPort = portOf(node.localRpcUrl);
  const publicPorts = [...new Set([portOf(node.publicUrl), rpcPort].filter((p): p is number => p !== null))];
  return {
    node: {
      id: node.id,
      family: node.apiFamily,
      chain: node.chainSlug,
      clientVersion: node.clientVersion,
      publicPorts,
      rpcPort,
      blockIntervalMs: node.blockIntervalMs,
    },
    window: {
      from: window.from,
      to: window.to,
      samples: window.samples,
      remoteIps: window.remoteIps,
      ...(outbound.length > 0 ? { outbound } : {}),
    },
    settings,
    ...(verifyWindowMinutes !== undefined ? { verifyWindowMinutes } : {}),
  };
}
