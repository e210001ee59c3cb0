import { jsonRpcHeadOf } from "../heads.js";
import { createJsonRpcCall, type JsonRpcCallOptions, type JsonRpcRequest } from "../json-rpc.js";
import type { EndpointPicker } from "../picker.js";
import { createFailoverTransport, type FailoverTransport, type FailoverTransportOptions } from "../transport.js";

/**
 * An EIP-1193 provider (`{ request({ method, params }) }`) over the picker: every request goes through the
 * failover transport, `eth_blockNumber` answers feed stale-head detection. Plug it into viem with
 * `custom(provider)` or into ethers with `new BrowserProvider(provider)`. No viem import here, so the
 * core stays dependency-free.
 */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  readonly transport: FailoverTransport<JsonRpcRequest, unknown>;
}

export type Eip1193ProviderOptions = Omit<FailoverTransportOptions<JsonRpcRequest, unknown>, "call" | "headOf"> &
  JsonRpcCallOptions;

export function createEip1193Provider(picker: EndpointPicker, options: Eip1193ProviderOptions = {}): Eip1193Provider {
  const call = createJsonRpcCall({ fetch: options.fetch, headers: options.headers });
  const transport = createFailoverTransport<JsonRpcRequest, unknown>(picker, {
    ...options,
    call,
    headOf: jsonRpcHeadOf("ethereum"),
  });
  return {
    request: ({ method, params }) => transport.run({ method, params }),
    transport,
  };
}
