/**
 * `@rpcpulse/client/viem`: the viem transport. A separate entry so the core (`@rpcpulse/client`) never
 * imports viem; this one imports viem (optional peer dependency) and the core entry.
 */
export {
  rpcPulse,
  classifyViemError,
  type RpcPulseTransport,
  type RpcPulseTransportConfig,
} from "./adapters/viem-transport.js";
