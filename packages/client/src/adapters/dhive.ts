import { hiveHeadOf } from "../heads.js";
import type { FailureVerdict } from "../json-rpc.js";
import { classifyError } from "../json-rpc.js";
import type { EndpointPicker } from "../picker.js";
import { createFailoverTransport, type FailoverTransportOptions } from "../transport.js";

/**
 * Two ways to use the picker with `@hiveio/dhive` (structural types: no dhive import here).
 *
 * 1. `createDhiveFailover`: one single-address dhive Client per endpoint, every call through the failover
 *    transport. Failures, latencies and heads (`head_block_number` of get_dynamic_global_properties) are
 *    reported to the picker, so a node that answers but is stuck falls out too.
 * 2. `syncDhiveAddresses`: keep one dhive Client's `address` array in the picker's order and let dhive's
 *    own failover walk it. Reacts to dead nodes within one call; knows nothing of stale heads.
 */

/** What we need of a dhive Client for `syncDhiveAddresses`. */
export interface DhiveAddressable {
  address: string | string[];
}

export type DhiveFailoverOptions<C> = Omit<
  FailoverTransportOptions<(client: C) => Promise<unknown>, unknown>,
  "call" | "headOf"
> & {
  /** Build a dhive Client for one URL, e.g. `(url) => new Client(url, { timeout: 1000 })`. Called once per URL. */
  createClient: (url: string) => C;
};

export interface DhiveFailover<C> {
  run<T>(fn: (client: C) => Promise<T>, options?: { signal?: AbortSignal }): Promise<T>;
}

/** dhive turns JSON-RPC errors into `RPCError`; only node-side ones (internal, rate limit, missing plugin) fail over. */
export function classifyDhiveError(error: unknown): FailureVerdict {
  if (error instanceof Error && error.name === "RPCError") {
    if (/too many requests|rate limit/i.test(error.message)) return { retry: true, kind: "rate-limited" };
    if (/internal error|method not found|could not find (api|method)/i.test(error.message))
      return { retry: true, kind: "error" };
    return { retry: false, kind: "error" };
  }
  return classifyError(error);
}

export function createDhiveFailover<C>(picker: EndpointPicker, options: DhiveFailoverOptions<C>): DhiveFailover<C> {
  const clients = new Map<string, C>();
  const clientFor = (url: string): C => {
    let client = clients.get(url);
    if (!client) {
      client = options.createClient(url);
      clients.set(url, client);
    }
    return client;
  };
  const transport = createFailoverTransport<(client: C) => Promise<unknown>, unknown>(picker, {
    classify: classifyDhiveError,
    ...options,
    call: (url, fn) => fn(clientFor(url)),
    headOf: (_fn, result) => hiveHeadOf(result),
  });
  return {
    run: <T>(fn: (client: C) => Promise<T>, runOptions?: { signal?: AbortSignal }) =>
      transport.run(fn, runOptions) as Promise<T>,
  };
}

/** Keep `client.address` equal to the picker's ordered URLs; returns a function that stops syncing. */
export function syncDhiveAddresses(picker: EndpointPicker, client: DhiveAddressable): () => void {
  const apply = (urls: string[]): void => {
    if (urls.length > 0) client.address = urls;
  };
  apply(picker.urls());
  return picker.onChange(apply);
}
