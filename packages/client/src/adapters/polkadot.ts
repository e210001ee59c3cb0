import type { EndpointPicker } from "../picker.js";

/**
 * `@polkadot/api`'s WsProvider takes an array of endpoints and, when the socket drops or cannot connect,
 * moves to another one (its `selectEndpointIndex`). Hand it the picker's ranked WebSocket URLs (best
 * first) with `polkadotEndpoints`, then `trackWsProvider` ties the provider to the picker: connections
 * and drops are reported as the endpoint's health, and each reconnect goes to the best endpoint the
 * picker knows now (skipping open breakers and dead listings) instead of simply the next in the array.
 * Structural types only: no @polkadot import here.
 */

/**
 * What `trackWsProvider` uses of a WsProvider. It also replaces the provider's `selectEndpointIndex`
 * (protected in @polkadot/api's types, so not part of this structural type).
 */
export interface WsProviderLike {
  /** The endpoint in use (undefined before the first connect). */
  readonly endpoint: string | undefined;
  on(type: "connected" | "disconnected" | "error", listener: (...args: unknown[]) => void): () => void;
}

interface Rotating {
  selectEndpointIndex?: (endpoints: string[]) => number;
}

/** The picker's ranked WebSocket URLs, best first; throws when none is known. */
export function polkadotEndpoints(picker: EndpointPicker): string[] {
  const urls = picker.wsUrls();
  if (urls.length === 0) throw new Error("no endpoint with a WebSocket URL is known for this network");
  return urls;
}

/**
 * Report a WsProvider's connections and drops to the picker and let the picker choose where it reconnects.
 * Returns a function that stops (the provider's own rotation comes back).
 */
export function trackWsProvider(picker: EndpointPicker, provider: WsProviderLike): () => void {
  const httpUrlOf = (wsUrl: string | undefined): string | undefined =>
    wsUrl === undefined ? undefined : picker.candidates({ websocket: true }).find((e) => e.wsUrl === wsUrl)?.url;
  let failed: string | undefined;
  let attemptReported = false;

  const onConnected = (): void => {
    failed = undefined;
    const url = httpUrlOf(provider.endpoint);
    if (url) picker.reportSuccess(url);
  };
  const onDrop = (): void => {
    failed = provider.endpoint;
    // One failure per connection attempt: "error" and "disconnected" often arrive together.
    if (attemptReported) return;
    attemptReported = true;
    const url = httpUrlOf(provider.endpoint);
    if (url) picker.reportFailure(url, "error");
  };

  const rotating = provider as WsProviderLike & Rotating;
  const own = Object.prototype.hasOwnProperty.call(provider, "selectEndpointIndex")
    ? rotating.selectEndpointIndex
    : undefined;
  const rotate = rotating.selectEndpointIndex?.bind(provider);
  if (!rotate) throw new TypeError("trackWsProvider needs a WsProvider (@polkadot/api) with selectEndpointIndex");
  rotating.selectEndpointIndex = (endpoints: string[]): number => {
    attemptReported = false;
    const ranked = picker.wsUrls().filter((u) => endpoints.includes(u));
    const choice = ranked.find((u) => u !== failed) ?? ranked[0];
    return choice === undefined ? rotate(endpoints) : endpoints.indexOf(choice);
  };
  const offs = [
    provider.on("connected", onConnected),
    provider.on("disconnected", onDrop),
    provider.on("error", onDrop),
  ];
  return () => {
    for (const off of offs) off();
    if (own) rotating.selectEndpointIndex = own;
    else delete rotating.selectEndpointIndex; // back to the prototype's method
  };
}
