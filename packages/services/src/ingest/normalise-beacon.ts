import type { BeaconSampleRow, ElCheck } from "@rpcpulse/db/fleet";
import type { AgentSample } from "@rpcpulse/domain";

/**
 * The wire `beacon` group (the Ethereum consensus client beside the node, read by the agent through the
 * Beacon API, https://ethereum.github.io/beacon-APIs/) → the rows the worker writes to beacon_samples
 * and node_beacon_latest. Pure; runs in the ingest API with the rest of the normalisation.
 *
 * Is the execution client this beacon node drives the node's own? The Beacon API does not say which
 * engine endpoint a beacon node is configured with, so the check compares what both sides report in the
 * same agent sample (the agent reads the execution head first, then the beacon node):
 * - Since the merge an execution client moves its head only when its consensus client tells it to
 *   (engine_forkchoiceUpdated), so the EL's head is the beacon head's execution block
 *   (/eth/v1/beacon/blinded_blocks/head → execution_payload_header.block_number/block_hash) or just
 *   behind it while it imports.
 * - Same number, same hash: `match` — consistent with this beacon node driving this EL (a second beacon
 *   node following the same chain would match too: a match is consistency, not proof).
 * - Same number, another hash: `hash-mismatch` — the two follow different chains or forks.
 * - The EL's head at least EL_AHEAD_BLOCKS past the beacon head's execution block: `el-ahead` — the EL
 *   was moved by another consensus client (its own cannot hand it blocks it does not have). One block
 *   is allowed for a reorg between the two reads.
 * - /eth/v1/node/syncing `el_offline` true while this EL answers: `el-offline` — the beacon node does
 *   not reach this EL (engine URL or JWT secret wrong, or it is set up for another EL).
 * - Anything else (the beacon ahead: the EL is importing, or a new slot arrived between the reads; data
 *   missing): null, not comparable.
 */
/** The EL head this many blocks past the beacon's execution head means another CL drives it. */
export const EL_AHEAD_BLOCKS = 2;

type Chain = AgentSample["chain"];
type Beacon = NonNullable<AgentSample["beacon"]>;

export function checkExecutionClient(chain: Chain, beacon: Beacon): ElCheck | null {
  const elUp = chain !== null && chain.ok && chain.headBlock !== null;
  if (beacon.elOffline === true && elUp) return "el-offline";
  const execBlock = beacon.execBlock ?? null;
  if (!elUp || !beacon.ok || execBlock === null) return null;
  const elBlock = chain.headBlock as number;
  if (elBlock === execBlock) {
    const ours = chain.headHash?.toLowerCase() ?? null;
    const theirs = beacon.execHash?.toLowerCase() ?? null;
    if (ours === null || theirs === null) return null;
    return ours === theirs ? "match" : "hash-mismatch";
  }
  return elBlock >= execBlock + EL_AHEAD_BLOCKS ? "el-ahead" : null;
}

export function beaconRowOf(sample: AgentSample): BeaconSampleRow | null {
  const b = sample.beacon;
  if (!b) return null;
  return {
    time: Date.parse(sample.collectedAt),
    ok: b.ok,
    headSlot: b.headSlot,
    wallSlot: b.wallSlot,
    slotsBehind: b.slotsBehind,
    syncDistance: b.syncDistance,
    syncing: b.syncing,
    optimistic: b.optimistic,
    elOffline: b.elOffline,
    peers: b.peers,
    version: b.version,
    execBlock: b.execBlock ?? null,
    execHash: b.execHash ?? null,
    elBlock: sample.chain?.headBlock ?? null,
    elCheck: checkExecutionClient(sample.chain, b),
    error: b.error,
  };
}
