import { WIRE_LIMITS, chainGroupSchema, collectErrorSchema, tcpStateCountsSchema } from "@rpcpulse/domain";
import { isValidIPv6 } from "zod/v4/core";
import {
  isArrayOf,
  isBoolean,
  isBooleanOrNull,
  isCount,
  isCountOrNull,
  isIntIn,
  isIntOrNull,
  isNonNegative,
  isNumberIn,
  isObject,
  isPositiveInt,
  isString,
  isStringOrNull,
  type Json,
  type WirePatterns,
} from "./primitives.js";

/**
 * One wire sample (agentSampleSchema of @rpcpulse/domain), checked by hand group by group. Each
 * line mirrors one field of the zod schema; unknown keys are ignored, as zod strips them.
 */

const MS_MAX = 86_400_000;
const L = WIRE_LIMITS;
const isMillis = (v: unknown) => isNumberIn(v, 0, MS_MAX);
const isMillisOrNull = (v: unknown) => v === null || isNumberIn(v, 0, MS_MAX);
const isPort = (v: unknown) => isIntIn(v, 1, 65_535);
const isPortRange = (v: unknown) => isObject(v) && isPort(v.low) && isPort(v.high) && isCount(v.size);
const isPortRangeOrNull = (v: unknown) => v === null || isPortRange(v);
const isMessageOrNull = (v: unknown) => isStringOrNull(v, 0, L.maxMessageLength);

// Names the contract lists, taken from it.
const STATES = Object.keys(tcpStateCountsSchema.shape);
const FAMILIES: ReadonlySet<unknown> = new Set(chainGroupSchema.shape.family.options);
const HEAD_TIME_SOURCES: ReadonlySet<unknown> = new Set([
  ...chainGroupSchema.shape.headTimeSource.unwrap().options,
  null,
]);
const ERROR_GROUPS: ReadonlySet<unknown> = new Set(collectErrorSchema.shape.group.options);

function isTcp(v: Json): boolean {
  const states = v.states;
  if (!isObject(states)) return false;
  for (const state of STATES) if (!isCount(states[state])) return false;
  return (
    isCount(v.total) &&
    isCount(v.ipv4) &&
    isCount(v.ipv6) &&
    isCount(v.timeWaitInbound) &&
    isCount(v.timeWaitOutbound) &&
    isArrayOf(v.listeningPorts, L.maxListeningPorts, isPort) &&
    isMillis(v.scanMs)
  );
}

const isSockstat = (v: Json) =>
  isCountOrNull(v.socketsUsed) &&
  isCount(v.tcpInuse) &&
  isCount(v.tcpOrphan) &&
  isCount(v.tcpTw) &&
  isCount(v.tcpAlloc) &&
  isCount(v.tcpMemPages) &&
  isCount(v.tcpMemBytes) &&
  isCountOrNull(v.tcp6Inuse);

const isCounterDelta = (v: unknown) => isObject(v) && isCount(v.total) && isCountOrNull(v.delta);

const isNetstat = (v: Json) =>
  isCounterDelta(v.listenOverflows) &&
  isCounterDelta(v.listenDrops) &&
  isCounterDelta(v.tcpTimeWaitOverflow) &&
  isMillisOrNull(v.intervalMs) &&
  isBoolean(v.counterReset);

const isProcess = (v: unknown) =>
  v === null ||
  (isObject(v) &&
    isPositiveInt(v.pid) &&
    isString(v.name, 0, 64) &&
    isCount(v.openFds) &&
    isCountOrNull(v.softLimit) &&
    isCountOrNull(v.hardLimit));

const isFds = (v: Json) => isCount(v.systemAllocated) && isCount(v.systemMax) && isProcess(v.process);

const isHost = (v: Json) =>
  (v.cpuPct === null || isNumberIn(v.cpuPct, 0, 100)) &&
  isPositiveInt(v.cpuCount) &&
  isNonNegative(v.load1) &&
  isNonNegative(v.load5) &&
  isNonNegative(v.load15) &&
  isCount(v.memTotalBytes) &&
  isCount(v.memAvailableBytes) &&
  isCount(v.shmemBytes) &&
  isCount(v.swapTotalBytes) &&
  isCount(v.swapUsedBytes) &&
  (v.uptimeSeconds === null || isNonNegative(v.uptimeSeconds));

const isDisk = (v: unknown) =>
  isObject(v) &&
  isString(v.path, 1, L.maxPathLength) &&
  isCountOrNull(v.totalBytes) &&
  isCountOrNull(v.freeBytes) &&
  isCountOrNull(v.availableBytes) &&
  isCountOrNull(v.inodesTotal) &&
  isCountOrNull(v.inodesFree) &&
  isMessageOrNull(v.error);

const isStaleSysctl = (v: unknown) =>
  isObject(v) &&
  isString(v.file, 1, L.maxPathLength) &&
  isPositiveInt(v.line) &&
  isString(v.text, 0, L.maxMessageLength);

const isNodeArg = (v: unknown) => isObject(v) && isString(v.flag, 3, 64) && isString(v.value, 0, 256);

const isSettings = (v: Json) =>
  isIntOrNull(v.tcpTwReuse) &&
  isIntOrNull(v.tcpFinTimeout) &&
  isIntOrNull(v.somaxconn) &&
  isIntOrNull(v.tcpMaxSynBacklog) &&
  isIntOrNull(v.tcpMaxTwBuckets) &&
  isPortRangeOrNull(v.ipLocalPortRange) &&
  isArrayOf(v.tcpTwRecycleLines, L.maxStaleSysctlFindings, isStaleSysctl) &&
  (v.nodeArgs === undefined || v.nodeArgs === null || isArrayOf(v.nodeArgs, L.maxNodeArgs, isNodeArg));

const isLatencyOrNull = (v: unknown) =>
  v === null || (isObject(v) && isMillisOrNull(v.connectMs) && isMillis(v.firstByteMs) && isMillis(v.totalMs));

export type SampleCheck = (sample: unknown) => boolean;

export function createSampleCheck(p: WirePatterns): SampleCheck {
  const isTimestamp = (v: unknown) => typeof v === "string" && p.dateTime.test(v);
  const isIp = (v: unknown) => typeof v === "string" && (p.ipv4.test(v) || isValidIPv6(v));

  const isChain = (v: Json) =>
    FAMILIES.has(v.family) &&
    isBoolean(v.ok) &&
    isCountOrNull(v.headBlock) &&
    isStringOrNull(v.headHash, 0, 130) &&
    (v.headTime === null || isTimestamp(v.headTime)) &&
    HEAD_TIME_SOURCES.has(v.headTimeSource) &&
    (v.headAgeMs === null || isNumberIn(v.headAgeMs, -L.maxHeadAheadMs, L.maxHeadAgeMs)) &&
    (v.headAgeSkewed === undefined || isBoolean(v.headAgeSkewed)) &&
    isCountOrNull(v.finalizedBlock) &&
    isCountOrNull(v.peers) &&
    isBooleanOrNull(v.syncing) &&
    isStringOrNull(v.clientVersion, 0, 256) &&
    isLatencyOrNull(v.latency) &&
    isMessageOrNull(v.error);

  const isBeacon = (v: Json) =>
    isBoolean(v.ok) &&
    isCountOrNull(v.headSlot) &&
    isCountOrNull(v.wallSlot) &&
    (v.slotsBehind === null || isIntIn(v.slotsBehind, -1_000_000, 1_000_000_000)) &&
    isCountOrNull(v.syncDistance) &&
    isBooleanOrNull(v.syncing) &&
    isBooleanOrNull(v.optimistic) &&
    isBooleanOrNull(v.elOffline) &&
    isCountOrNull(v.peers) &&
    isStringOrNull(v.version, 0, 256) &&
    (v.execBlock === undefined || isCountOrNull(v.execBlock)) &&
    (v.execHash === undefined ||
      v.execHash === null ||
      (typeof v.execHash === "string" && p.execHash.test(v.execHash))) &&
    isLatencyOrNull(v.latency) &&
    isMessageOrNull(v.error);

  const isRemoteIp = (v: unknown) =>
    isObject(v) && isIp(v.ip) && isCount(v.connections) && isCount(v.established) && isCount(v.timeWait);

  const isRemoteIps = (v: Json) =>
    isArrayOf(v.ports, L.maxListeningPorts, isPort) &&
    isCount(v.distinctIps) &&
    isCount(v.totalConnections) &&
    isArrayOf(v.top, L.maxRemoteIps, isRemoteIp);

  const isDestination = (v: unknown) =>
    isObject(v) &&
    isIp(v.ip) &&
    isPort(v.port) &&
    isCount(v.sockets) &&
    isCount(v.established) &&
    isCount(v.timeWait) &&
    isNonNegative(v.portRangeUsage);

  const isOutbound = (v: Json) =>
    isPortRangeOrNull(v.portRange) &&
    isCount(v.distinctDestinations) &&
    isCount(v.totalSockets) &&
    isArrayOf(v.top, L.maxOutboundDestinations, isDestination);

  const isSelf = (v: Json) =>
    (v.cpuPct === null || isNonNegative(v.cpuPct)) &&
    isCount(v.rssBytes) &&
    isMillis(v.collectMs) &&
    isCountOrNull(v.spoolBacklog) &&
    isCountOrNull(v.spoolDropped);

  const isError = (v: unknown) =>
    isObject(v) && ERROR_GROUPS.has(v.group) && isString(v.message, 0, L.maxMessageLength);

  /** A nullable group: null, or an object its check accepts. */
  const group = (v: unknown, check: (g: Json) => boolean) => v === null || (isObject(v) && check(v));

  return (s) =>
    isObject(s) &&
    isTimestamp(s.collectedAt) &&
    group(s.tcp, isTcp) &&
    group(s.sockstat, isSockstat) &&
    group(s.netstat, isNetstat) &&
    group(s.conntrack, (c) => isCount(c.count) && isCount(c.max)) &&
    group(s.fds, isFds) &&
    group(s.host, isHost) &&
    isArrayOf(s.disks, L.maxDisks, isDisk) &&
    group(s.settings, isSettings) &&
    group(s.chain, isChain) &&
    (s.beacon === undefined || group(s.beacon, isBeacon)) &&
    group(s.remoteIps, isRemoteIps) &&
    group(s.outbound, isOutbound) &&
    group(s.self, isSelf) &&
    isArrayOf(s.errors, L.maxErrors, isError);
}
