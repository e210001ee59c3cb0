/**
 * Value of the consensus_client_behind rule ("higher is worse"): slots the Ethereum consensus client's
 * head is behind the wall-clock slot. Pure: the input is the node's node_beacon_latest row
 * (listNodeBeaconLatest), what the agent read from the Beacon API (https://ethereum.github.io/beacon-APIs/:
 * /eth/v1/beacon/headers/head → header.message.slot; wall-clock slot from /eth/v1/beacon/genesis
 * genesis_time and 12 s slots; /eth/v1/node/syncing → sync_distance).
 */
import type { NodeBeaconLatest } from "@rpcpulse/db/fleet";
import type { HeadMeasurement } from "./measure-chain-heads.js";

export const SECONDS_PER_SLOT = 12;

const flags = (b: NodeBeaconLatest): string[] => [
  ...(b.elOffline ? ["execution client offline (el_offline)"] : []),
  ...(b.optimistic ? ["optimistic"] : []),
  ...(b.syncing ? ["syncing"] : []),
  ...(b.peers !== null ? [`${b.peers} peers`] : []),
];

/**
 * The latest reading's slots behind (wall − head; its sync_distance when the wall slot is unknown).
 * A failing Beacon API counts from the last head it served, with the wall clock advanced by the time
 * since (12 s slots): a dead consensus client is the worst kind of behind. No reading, or one older than
 * `freshMs` (the agent is silent: node_down speaks for that), gives no value (the state is kept).
 */
export function measureConsensusBehind(
  beacon: NodeBeaconLatest | undefined,
  now: Date,
  options: { freshMs: number },
): HeadMeasurement {
  if (!beacon || now.getTime() - beacon.time.getTime() > options.freshMs) return { value: null };
  const version = beacon.version ? `${beacon.version.split("/").slice(0, 2).join("/")}: ` : "";
  if (!beacon.ok) {
    if (beacon.lastHeadSlot === null || beacon.lastOkAt === null) return { value: null };
    // Agents read the wall-clock slot even when the head read fails; else a lower bound: slots since
    // the last successful read.
    const sinceOk = Math.floor((now.getTime() - beacon.lastOkAt.getTime()) / (SECONDS_PER_SLOT * 1000));
    const behind = Math.max(0, beacon.wallSlot !== null ? beacon.wallSlot - beacon.lastHeadSlot : sinceOk);
    return {
      value: behind,
      detail: `${version}Beacon API failing${beacon.error ? ` (${beacon.error.slice(0, 120)})` : ""}; last head slot ${beacon.lastHeadSlot} at ${beacon.lastOkAt.toISOString()}`,
    };
  }
  const behind = beacon.slotsBehind ?? beacon.syncDistance;
  if (behind === null) return { value: null };
  const extra = flags(beacon);
  return {
    value: Math.max(0, behind),
    detail: `${version}head slot ${beacon.headSlot ?? "?"}${beacon.wallSlot !== null ? ` of ${beacon.wallSlot}` : ""}, sync distance ${beacon.syncDistance ?? "?"}${extra.length ? `, ${extra.join(", ")}` : ""}`,
  };
}
