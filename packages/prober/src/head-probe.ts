/**
 * The head probe alone, over the SSRF-safe HTTP client: what a node agent needs to act as a vantage
 * point. Imports no WebSocket code, so the agent bundle stays small (`@rpcpulse/prober/head-probe`).
 */
export {
  createSafeHttpClient,
  type SafeHttpClient,
  type SafeHttpClientOptions,
  type Phases,
} from "./ssrf/http-client.js";
export { probeEndpoint, type ProbeOptions } from "./probe/probe-endpoint.js";
export type { ProbeResult, ProbeTarget } from "./probe/types.js";
