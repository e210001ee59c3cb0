import { hiveHeadOf } from "../heads.js";
import type { FailureVerdict } from "../json-rpc.js";
import { classifyError } from "../json-rpc.js";
import { createEndpointPicker, type EndpointPicker, type EndpointPickerOptions } from "../picker.js";
import { createFailoverTransport, NoEndpointError, type FailoverTransportOptions } from "../transport.js";

/**
 * Two ways to use the picker with `@hiveio/dhive` (structural types: no dhive import here).
 *
 * 1. `createDhiveFailover`: one single-address dhive Client per endpoint, every call through the failover
 *    transport. Failures, latencies and heads (`head_block_number` of get_dynamic_global_properties) are
 *    reported to the picker, so a node that answers but is stuck falls out too.
 * 2. `createDhiveAddressList` / `syncDhiveAddresses`: keep one dhive Client's `address` array in the
 *    picker's order (refreshed from the directory every `refreshMs`) and let dhive's own failover walk it.
 *    The client's calls are watched: the answering node and its `head_block_number` go to the picker, so
 *    a node that answers but is stuck moves to the back of the array for the next call.
 */

/** What we need of a dhive Client for `syncDhiveAddresses`. */
export interface DhiveAddressable {
  address: string | string[];
  /** dhive's node of the last answer (dhive >= 1.3 sets it after its own failover). */
  currentAddress?: string;
  /** dhive's `Client.call(api, method, params)`; wrapped while syncing when `observeCalls` is on. */
  call?: (api: string, method: string, params?: unknown) => Promise<unknown>;
}

export interface SyncDhiveOptions {
  /**
   * Watch the client's calls (default true): the answering node is reported as healthy, its
   * `get_dynamic_global_properties` head feeds stale-head detection, and a failed call counts against the
   * node dhive tried last. `stop()` restores the client's own `call`.
   */
  observeCalls?: boolean;
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

/** Report what a dhive call showed about the node that answered it (or failed last). */
function observeDhiveCalls(picker: EndpointPicker, client: DhiveAddressable): () => void {
  const own = Object.prototype.hasOwnProperty.call(client, "call") ? client.call : undefined;
  const original = client.call;
  if (!original) return () => undefined;
  client.call = async (api, method, params) => {
    try {
      const result = await original.call(client, api, method, params);
      const url = client.currentAddress;
      if (url) {
        const head = method === "get_dynamic_global_properties" ? hiveHeadOf(result) : undefined;
        if (head === undefined || !picker.reportHead(url, head)) picker.reportSuccess(url);
      }
      return result;
    } catch (error) {
      const verdict = classifyDhiveError(error);
      if (client.currentAddress) {
        if (verdict.retry) picker.reportFailure(client.currentAddress, verdict.kind);
        else picker.reportSuccess(client.currentAddress);
      }
      throw error;
    }
  };
  return () => {
    if (own) client.call = own;
    else delete client.call; // back to the prototype's method
  };
}

/**
 * Keep `client.address` equal to the picker's ordered URLs (and move `currentAddress` off a node that
 * left the list); returns a function that stops syncing.
 */
export function syncDhiveAddresses(
  picker: EndpointPicker,
  client: DhiveAddressable,
  options: SyncDhiveOptions = {},
): () => void {
  const apply = (urls: string[]): void => {
    if (urls.length === 0) return;
    client.address = urls;
    if (client.currentAddress !== undefined && !urls.includes(client.currentAddress))
      client.currentAddress = urls[0] as string;
  };
  apply(picker.urls());
  const unsubscribe = picker.onChange(apply);
  const unobserve = options.observeCalls === false ? () => undefined : observeDhiveCalls(picker, client);
  return () => {
    unsubscribe();
    unobserve();
  };
}

export interface DhiveAddressList {
  readonly picker: EndpointPicker;
  /** The ranked URLs now (best first). */
  urls(): string[];
  /** Resolves with the ranked URLs once the directory answered (or failed: then the fallback/stored list). */
  ready(): Promise<string[]>;
  /** Keep a dhive Client's `address` in the ranked order; returns a function that stops. */
  attach(client: DhiveAddressable, options?: SyncDhiveOptions): () => void;
  /** Stop every attached client, and the picker's timers when this list created it. */
  close(): void;
}

/**
 * A self-refreshing dhive address list:
 * `const list = createDhiveAddressList({ network: "hive", apiBase });`
 * `const client = new Client(await list.ready()); list.attach(client);`
 * The picker re-reads the directory every `refreshMs` (default 60 s); every new order is written to
 * each attached client's `address`.
 */
export function createDhiveAddressList(options: EndpointPickerOptions | { picker: EndpointPicker }): DhiveAddressList {
  const owned = !("picker" in options);
  const picker = "picker" in options ? options.picker : createEndpointPicker(options);
  const stops = new Set<() => void>();
  return {
    picker,
    urls: () => picker.urls(),
    async ready() {
      await picker.ready();
      const urls = picker.urls();
      if (urls.length === 0) throw new NoEndpointError();
      return urls;
    },
    attach(client, syncOptions) {
      const stop = syncDhiveAddresses(picker, client, syncOptions);
      stops.add(stop);
      return () => {
        stops.delete(stop);
        stop();
      };
    },
    close() {
      for (const stop of stops) stop();
      stops.clear();
      if (owned) picker.close(); // a picker passed in belongs to the caller
    },
  };
}
