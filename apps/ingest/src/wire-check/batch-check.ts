import { VANTAGE_LIMITS, WIRE_FORMAT_VERSION, WIRE_LIMITS } from "@rpcpulse/domain";
import {
  isArrayOf,
  isBoolean,
  isIntIn,
  isNumberIn,
  isObject,
  isString,
  isStringOrNull,
  readWirePatterns,
  type WirePatterns,
} from "./primitives.js";
import { createSampleCheck } from "./sample-check.js";

/**
 * The agent batch (agentBatchSchema of @rpcpulse/domain) checked by hand in one pass without
 * building anything: accept/refuse only, the same decision as zod's (apps/ingest's corpus test
 * compares them on thousands of mutated batches). Regular expressions come from the contract.
 */

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const PHASE_MAX_MS = 600_000;
const isPhase = (v: unknown) => isNumberIn(v, 0, PHASE_MAX_MS);
const isPhases = (v: unknown) =>
  v === null ||
  (isObject(v) &&
    isPhase(v.dnsMs) &&
    isPhase(v.connectMs) &&
    isPhase(v.tlsMs) &&
    isPhase(v.firstByteMs) &&
    isPhase(v.totalMs));

export function createWireCheck(patterns: WirePatterns = readWirePatterns()): (body: unknown) => boolean {
  const isSample = createSampleCheck(patterns);
  const isTimestamp = (v: unknown) => typeof v === "string" && patterns.dateTime.test(v);

  const isProbe = (v: unknown) =>
    isObject(v) &&
    typeof v.endpointId === "string" &&
    patterns.uuid.test(v.endpointId) &&
    isTimestamp(v.startedAt) &&
    isBoolean(v.ok) &&
    (v.httpStatus === null || isIntIn(v.httpStatus, 0, 999)) &&
    isStringOrNull(v.errorClass, 1, 64) &&
    isStringOrNull(v.errorMessage, 0, VANTAGE_LIMITS.maxMessageLength) &&
    isBoolean(v.rateLimited) &&
    isIntIn(v.responseBytes, 0, 2_147_483_647) &&
    (v.headBlock === null || isIntIn(v.headBlock, 0, MAX_SAFE)) &&
    (v.headTime === null || isTimestamp(v.headTime)) &&
    (v.finalizedBlock === null || isIntIn(v.finalizedBlock, 0, MAX_SAFE)) &&
    isPhases(v.phases);

  const isVantage = (v: unknown) =>
    isObject(v) &&
    isString(v.region, 2, 32) &&
    patterns.region.test(v.region as string) &&
    isArrayOf(v.probes, VANTAGE_LIMITS.maxProbesPerBatch, isProbe);

  return (b) =>
    isObject(b) &&
    b.wireVersion === WIRE_FORMAT_VERSION &&
    isObject(b.agent) &&
    isString(b.agent.version, 1, 32) &&
    isString(b.agent.hostname, 1, 253) &&
    (b.nodeId === undefined || isString(b.nodeId, 1, 64)) &&
    isIntIn(b.batchSeq, 0, MAX_SAFE) &&
    (b.installId === undefined || (typeof b.installId === "string" && patterns.installId.test(b.installId))) &&
    isTimestamp(b.sentAt) &&
    Array.isArray(b.samples) &&
    b.samples.length >= 1 &&
    isArrayOf(b.samples, WIRE_LIMITS.maxSamplesPerBatch, isSample) &&
    (b.vantage === undefined || isVantage(b.vantage));
}
