/** Product version reported by /api/health, the agent's User-Agent and the worker heartbeat. */
export const RPCPULSE_VERSION = "0.1.0";
