export * from "./types.js";
export { probeEndpoint, type ProbeOptions } from "./probe-endpoint.js";
export { checkCapabilities, websocketUrlOf, type CapabilityOptions } from "./capabilities.js";
export {
  CAPABILITY_FLIP_CHECKS,
  CAPABILITY_FORGET_CHECKS,
  coverageOf,
  settleCapabilityReport,
} from "./capability-settle.js";
export {
  CAPABILITY_RETRY,
  createRetrier,
  isTransientError,
  isTransientRpcError,
  isTransientStatus,
  type Retrier,
  type RetryPolicy,
} from "./transient-retry.js";
export { checkCors, CORS_TEST_ORIGIN } from "./cors-check.js";
export { checkWebSocket, type WebSocketCheckOptions } from "./websocket-check.js";
export { createProbeScheduler, type ProbeScheduler, type ProbeSchedulerOptions, type RoundStats } from "./scheduler.js";
export { CallError, callJsonRpc, callJsonRpcBatch, isMethodMissing, toBlockNumber } from "./rpc.js";
export { FAMILY_ADAPTERS, LOGS_RANGES, SIDECAR_ROUTES, SUBSTRATE_GROUPS, SYSTEM_NUMBER_KEY } from "./families/index.js";
