import type { ApiFamily } from "@rpcpulse/domain";
import type { ProbeErrorReason } from "../ssrf/errors.js";
import type { Phases } from "../ssrf/http-client.js";

export interface ProbeTarget {
  url: string;
  family: ApiFamily;
  /** Network slug from @rpcpulse/domain NETWORKS (e.g. "hive", "ethereum-mainnet"). */
  network: string;
  /** WebSocket URL when it differs from `url` with http(s) swapped for ws(s). */
  wsUrl?: string | null;
}

export interface RpcErrorInfo {
  code: number | null;
  message: string;
}

export interface ProbeResult {
  url: string;
  family: ApiFamily;
  network: string;
  /** Wall-clock start of the probe (ms since epoch). */
  startedAt: number;
  ok: boolean;
  httpStatus: number | null;
  rpcError: RpcErrorInfo | null;
  errorClass: ProbeErrorReason | null;
  errorMessage: string | null;
  /** HTTP 429 (or a JSON-RPC "too many requests" answer). */
  rateLimited: boolean;
  /** Body bytes on the wire of the head call. */
  responseBytes: number;
  headBlock: number | null;
  /** Production time of the head block (ms since epoch); null where the family's header has none. */
  headTime: number | null;
  finalizedBlock: number | null;
  /** Phases of the head call on a fresh connection; null when no response arrived. */
  phases: Phases | null;
  remoteAddress: string | null;
}

export type Tri = boolean | null;

export interface WebSocketCapability {
  /** null: the family has no WebSocket API (Sidecar). */
  supported: Tri;
  url: string | null;
  openMs: number | null;
  /** Round trip of one call over the open socket. */
  callMs: number | null;
  /** The new-head subscription was accepted. */
  subscription: Tri;
  /** From the subscription ack to the first new-head notification. */
  firstHeadMs: number | null;
  /** Receive time minus the header's own timestamp (where headers carry one). */
  headDelayMs: number | null;
  error: string | null;
}

export interface CorsCapability {
  /** Preflight allowed our Origin (ACAO is * or echoes it, and content-type is allowed for POST). */
  allowed: boolean;
  status: number | null;
  allowOrigin: string | null;
  allowMethods: string | null;
  allowHeaders: string | null;
}

export interface CapabilityReport {
  url: string;
  family: ApiFamily;
  network: string;
  checkedAt: number;
  headBlock: number | null;
  /** Historical state/blocks answer at `archiveBlock`. */
  archive: Tri;
  archiveBlock: number | null;
  archiveDetail: string | null;
  /** Method group (API set, namespace, route) -> supported. null = could not tell. */
  methods: Record<string, Tri>;
  /** Share of method groups supported, of those that could be told (0..1), null when none could. */
  coverage: number | null;
  /** JSON-RPC batch requests answered correctly. null for REST. */
  batch: Tri;
  /** Ethereum: widest eth_getLogs range (blocks) accepted of the tried ones; null elsewhere or none. */
  logsMaxRange: number | null;
  /** Ethereum: the widest tried range was refused (so a limit exists). */
  logsRangeLimited: Tri;
  websocket: WebSocketCapability;
  cors: CorsCapability;
  clientVersion: string | null;
  errors: string[];
  /** Calls of this check repeated after a transient failure (5xx, 429, timeout, reset). */
  retries?: number;
  /**
   * Settled reports (what the directory stores, see settleCapabilityReport): capabilities whose latest
   * checks disagree with the value shown, by facet ("archive", "methods.eth", ...), until they agree often enough.
   */
  pending?: Record<string, PendingCapability>;
  /** Settled reports: consecutive checks that could not tell, by facet, while the last known value is shown. */
  unknownChecks?: Record<string, number>;
}

/** A different answer seen on the latest consecutive checks, not shown yet. */
export interface PendingCapability {
  /** The answer as text ("true", "false", a getLogs range or "none"). */
  value: string;
  checks: number;
  /** checkedAt (ms) of the first check that gave it. */
  since: number;
}
