/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS consumer is what this file checks */
// The require() side of the exports map: CommonJS declarations (.d.cts) for both entries.
import core = require("@rpcpulse/client");
import viemEntry = require("@rpcpulse/client/viem");

export const picker: core.EndpointPicker = core.createEndpointPicker({ network: "hive", apiBase: "https://x" });
export const transport: viemEntry.RpcPulseTransport = viemEntry.rpcPulse({ picker });
