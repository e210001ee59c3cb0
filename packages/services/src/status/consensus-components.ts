import { AppError } from "@rpcpulse/config";
import { findOrganizationNodeRow, listNodeBeaconLatest, type NodeBeaconLatest, type NodeRow } from "@rpcpulse/db/fleet";
import { type PrismaClient, type SqlClient } from "@rpcpulse/db/sql";
import { measureConsensusBehind } from "../alerting/measure-beacon.js";
import { RULE_TYPES } from "../alerting/rule-params.js";
import type { ComponentState } from "./component-state.js";

/**
 * Consensus-client components of status pages (kind consensus_client, migration 0025): what the public
 * page says about the Ethereum consensus client the agent reads beside a node of the organization
 * (node_beacon_latest). Public facts only: the client's name and version, its head slot against the
 * wall-clock slot, syncing / optimistic / execution client offline; never the Beacon API URL, the error
 * text (it may name a host) or the own-EL check.
 *
 * State (the thresholds are the consensus_client_behind rule's defaults: 8 slots firing, 4 degraded):
 *  - unknown:      no reading, or the newest is older than 10 minutes (CONSENSUS_FRESH_MS);
 *  - major_outage: its Beacon API fails, it is 8 or more slots behind, or it reports el_offline;
 *  - degraded:     4 or more slots behind, or optimistic (its execution client has not validated the head);
 *  - operational:  otherwise.
 * While the Beacon API fails, slots behind count from the last head it served (measureConsensusBehind).
 */

export const CONSENSUS_FRESH_MS = 10 * 60_000;
export const CONSENSUS_MAJOR_SLOTS = RULE_TYPES.consensus_client_behind.defaults.threshold;
export const CONSENSUS_DEGRADED_SLOTS = RULE_TYPES.consensus_client_behind.defaults.degraded ?? 4;

export interface PublicConsensusClient {
  /** "Lighthouse", "teku", … from /eth/v1/node/version (null before the client said). */
  client: string | null;
  version: string | null;
  /** Whether the Beacon API answered at the newest reading. */
  apiOk: boolean;
  headSlot: number | null;
  wallSlot: number | null;
  /** Wall-clock slot − head slot (from the last head served while the API fails); null when unknown. */
  slotsBehind: number | null;
  syncing: boolean | null;
  optimistic: boolean | null;
  elOffline: boolean | null;
  readAt: Date;
}

/** "Teku/v24.1.0/linux-x86_64/…" → client and version (the platform part is left out). */
export function parseClientVersion(raw: string | null): { client: string | null; version: string | null } {
  if (!raw) return { client: null, version: null };
  const [client, version] = raw.split("/");
  const clean = (s: string | undefined) => s?.split(/\s|\(/)[0]?.trim() || null;
  return { client: clean(client), version: clean(version) };
}

/** A consensus client component's public facts and state (see file comment). Pure. */
export function deriveConsensusComponent(
  b: NodeBeaconLatest | undefined,
  now: Date,
): { consensus: PublicConsensusClient | null; state: ComponentState } {
  if (!b) return { consensus: null, state: "unknown" };
  const fresh = now.getTime() - b.time.getTime() <= CONSENSUS_FRESH_MS;
  const behind = measureConsensusBehind(b, now, { freshMs: CONSENSUS_FRESH_MS }).value;
  // A stale reading (state unknown) still shows the slots behind it last reported.
  const slotsBehind = behind ?? (b.ok ? b.slotsBehind : null);
  const state: ComponentState = !fresh
    ? "unknown"
    : !b.ok || (slotsBehind ?? 0) >= CONSENSUS_MAJOR_SLOTS || b.elOffline === true
      ? "major_outage"
      : (slotsBehind ?? 0) >= CONSENSUS_DEGRADED_SLOTS || b.optimistic === true
        ? "degraded"
        : "operational";
  return {
    state,
    consensus: {
      ...parseClientVersion(b.version),
      apiOk: b.ok,
      headSlot: b.ok ? b.headSlot : b.lastHeadSlot,
      wallSlot: b.wallSlot,
      slotsBehind,
      syncing: b.ok ? b.syncing : null,
      optimistic: b.ok ? b.optimistic : null,
      elOffline: b.ok ? b.elOffline : null,
      readAt: b.time,
    },
  };
}

/** Facts of the listed consensus clients by node id (a node without a reading maps to no data). */
export async function loadConsensusComponents(
  sql: SqlClient,
  nodeIds: readonly string[],
  now: Date,
): Promise<Map<string, { consensus: PublicConsensusClient | null; state: ComponentState }>> {
  const ids = [...new Set(nodeIds)];
  const latest = new Map((await listNodeBeaconLatest(sql, ids)).map((b) => [b.nodeId, b]));
  return new Map(ids.map((id) => [id, deriveConsensusComponent(latest.get(id), now)]));
}

/**
 * The node a consensus-client component may list: an Ethereum node of the organization (another
 * organization's node is null, as one that does not exist); a node of another family has no consensus
 * client (VALIDATION).
 */
export async function findOrgConsensusNode(
  prisma: PrismaClient,
  input: { organizationId: string; nodeId: string },
): Promise<{ id: string; name: string } | null> {
  const node = await findOrganizationNodeRow(prisma, input);
  if (!node) return null;
  if (node.apiFamily !== "ethereum") {
    throw new AppError("VALIDATION", "Only an Ethereum node has a consensus client.", { details: { field: "ref" } });
  }
  return { id: node.id, name: `${node.name} consensus client` };
}

/** The picker's consensus clients: the organization's Ethereum nodes whose agent reads one. */
export async function listConsensusCandidates(
  sql: SqlClient,
  nodes: readonly NodeRow[],
): Promise<{ ref: string; label: string }[]> {
  const eth = nodes.filter((n) => n.apiFamily === "ethereum");
  const latest = new Map(
    (
      await listNodeBeaconLatest(
        sql,
        eth.map((n) => n.id),
      )
    ).map((b) => [b.nodeId, b]),
  );
  return eth.flatMap((n) => {
    const b = latest.get(n.id);
    if (!b) return [];
    const { client, version } = parseClientVersion(b.version);
    const what = [client ?? "Consensus client", version].filter(Boolean).join(" ");
    return [{ ref: `consensus_client:${n.id}`, label: `${what} · beside ${n.name} (${n.networkName})` }];
  });
}
