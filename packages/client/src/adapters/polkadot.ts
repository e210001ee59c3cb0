import type { EndpointPicker } from "../picker.js";

/**
 * `@polkadot/api`'s WsProvider takes an array of endpoints and moves to the next one when the connection
 * drops. Hand it the picker's ranked WebSocket URLs (best first); refresh the picker before creating the
 * provider. The order is fixed for the provider's lifetime, so stale heads are only acted on when the
 * socket drops; for per-call failover use the failover transport with HTTP JSON-RPC instead.
 */
export function polkadotEndpoints(picker: EndpointPicker): string[] {
  const urls = picker.wsUrls();
  if (urls.length === 0) throw new Error("no endpoint with a WebSocket URL is known for this network");
  return urls;
}
