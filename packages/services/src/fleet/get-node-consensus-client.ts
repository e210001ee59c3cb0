import { AppError } from "@rpcpulse/config";
import {
  findOrganizationNodeRow,
  listBeaconSeries,
  listNodeBeaconLatest,
  type NodeBeaconLatest,
} from "@rpcpulse/db/fleet";
import { type PrismaClient, type SqlClient } from "@rpcpulse/db/sql";
import type { ServiceContext } from "../context.js";

/**
 * The Ethereum consensus client beside a node, for the node page and the fleet table: the newest
 * Beacon API reading (node_beacon_latest), whether it drives this node's execution client, and its
 * history (beacon_samples) over the page's range. Field sources: https://ethereum.github.io/beacon-APIs/
 * (/eth/v1/beacon/headers/head, /eth/v1/node/syncing, /eth/v1/node/peer_count, /eth/v1/node/version,
 * /eth/v1/beacon/blinded_blocks/head).
 */

/** A reading older than this is shown as stale (the agent reports every ~10 s). */
const STALE_MS = 5 * 60_000;

export type OwnElState = "consistent" | "not-own" | "unknown";

export interface OwnElVerdict {
  state: OwnElState;
  text: string;
}

export interface ConsensusClientView {
  time: string;
  stale: boolean;
  ok: boolean;
  version: string | null;
  headSlot: number | null;
  wallSlot: number | null;
  slotsBehind: number | null;
  syncDistance: number | null;
  syncing: boolean | null;
  optimistic: boolean | null;
  elOffline: boolean | null;
  peers: number | null;
  error: string | null;
  lastOkAt: string | null;
  lastHeadSlot: number | null;
  /** "healthy" | "behind" (≥ 4 slots or syncing) | "failing" (API down or el_offline). */
  health: "healthy" | "behind" | "failing";
  ownEl: OwnElVerdict;
}

/** What the own-EL check (node_beacon_latest.el_check, see ingest/normalise-beacon.ts) says, in words. */
export function describeOwnEl(b: NodeBeaconLatest, now: Date): OwnElVerdict {
  if (b.elCheck === null || b.elCheckAt === null) {
    return {
      state: "unknown",
      text: "Not compared yet: its head's execution block and this node's head have not been read at the same height.",
    };
  }
  const when =
    now.getTime() - b.elCheckAt.getTime() > STALE_MS ? ` (last comparable reading ${b.elCheckAt.toISOString()})` : "";
  switch (b.elCheck) {
    case "match":
      return {
        state: "consistent",
        text: `Its head's execution block is this node's head (same number, same hash)${when}: consistent with it driving this node. The Beacon API does not name the engine endpoint, so this is consistency, not proof.`,
      };
    case "hash-mismatch":
      return {
        state: "not-own",
        text: `At the same height its head's execution block has another hash than this node's${when}: it follows another chain or fork, not this node.`,
      };
    case "el-ahead":
      return {
        state: "not-own",
        text: `This node's head is past its head's execution block${when}: another consensus client drives this node (an execution client moves only when its own consensus client says so).`,
      };
    case "el-offline":
      return {
        state: "not-own",
        text: `It reports its execution client offline (el_offline) while this node answers${when}: it does not reach this node's engine API (endpoint or JWT secret).`,
      };
  }
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toConsensusClientView(b: NodeBeaconLatest, now: Date): ConsensusClientView {
  const behind = b.slotsBehind ?? b.syncDistance;
  const failing = !b.ok || b.elOffline === true;
  return {
    time: b.time.toISOString(),
    stale: now.getTime() - b.time.getTime() > STALE_MS,
    ok: b.ok,
    version: b.version,
    headSlot: b.headSlot,
    wallSlot: b.wallSlot,
    slotsBehind: b.slotsBehind,
    syncDistance: b.syncDistance,
    syncing: b.syncing,
    optimistic: b.optimistic,
    elOffline: b.elOffline,
    peers: b.peers,
    error: b.error,
    lastOkAt: iso(b.lastOkAt),
    lastHeadSlot: b.lastHeadSlot,
    health: failing ? "failing" : (behind !== null && behind >= 4) || b.syncing === true ? "behind" : "healthy",
    ownEl: describeOwnEl(b, now),
  };
}

export interface ConsensusClientPage {
  latest: ConsensusClientView;
  /** Bucketed history over the range: Unix seconds, slots behind (max per bucket), peers (min). */
  series: { time: number[]; slotsBehind: (number | null)[]; peers: (number | null)[] };
  from: string;
  to: string;
}

/** The node page's consensus-client panel; null when the node's agent never reported one. */
export async function getNodeConsensusClient(
  deps: { prisma: PrismaClient; sql: SqlClient },
  ctx: ServiceContext,
  input: { nodeId: string; from: Date; to: Date },
): Promise<ConsensusClientPage | null> {
  const node = await findOrganizationNodeRow(deps.prisma, {
    organizationId: ctx.organizationId,
    nodeId: input.nodeId,
  });
  if (!node) throw new AppError("NOT_FOUND", "Node not found.");
  const [latest] = await listNodeBeaconLatest(deps.sql, [node.id]);
  if (!latest) return null;
  // About 120 points over the range, never finer than the agent's 10 s.
  const bucketMs = Math.max(10_000, Math.ceil((input.to.getTime() - input.from.getTime()) / 120));
  const points = await listBeaconSeries(deps.sql, { nodeId: node.id, from: input.from, to: input.to, bucketMs });
  return {
    latest: toConsensusClientView(latest, input.to),
    series: {
      time: points.map((p) => Math.floor(p.time.getTime() / 1000)),
      slotsBehind: points.map((p) => p.slotsBehind ?? p.syncDistance),
      peers: points.map((p) => p.peers),
    },
    from: input.from.toISOString(),
    to: input.to.toISOString(),
  };
}

/** The fleet table's column: the newest reading of each node that has a consensus client. */
export async function listFleetConsensusClients(
  deps: { sql: SqlClient },
  input: { nodeIds: readonly string[]; now: Date },
): Promise<Map<string, ConsensusClientView>> {
  const rows = await listNodeBeaconLatest(deps.sql, input.nodeIds);
  return new Map(rows.map((b) => [b.nodeId, toConsensusClientView(b, input.now)]));
}
