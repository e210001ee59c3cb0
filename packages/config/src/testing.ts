/**
 * Test helpers every workspace may import (`@rpcpulse/config/testing`): config is a leaf, so the agent,
 * the client's tests and the benches can use them without pulling in the database or the queue.
 * `@rpcpulse/db/testing` re-exports them beside its database factories.
 *
 *   waitFor(what, probe, options?)  poll until the probe answers, or fail with what was awaited
 *   freePort()                      a TCP port on 127.0.0.1 that nothing listens on right now
 *   seededRandom, allPaths, getAt, setAt   seeded corpora over JSON values (testing-corpus.ts)
 *   parsePrometheusText             a /metrics scrape parsed by an independent parser (testing-prometheus.ts)
 */
import { once } from "node:events";
import { createServer, type AddressInfo } from "node:net";

export { allPaths, getAt, seededRandom, setAt, type Json, type JsonPath } from "./testing-corpus.js";
export { parsePrometheusText, type PrometheusFamily } from "./testing-prometheus.js";

export interface WaitForOptions {
  /** Give up after this long; default 5 000 ms. */
  timeoutMs?: number;
  /** Pause between two probes; default 50 ms. */
  intervalMs?: number;
  /**
   * A probe that throws counts as "not yet" (its last error is named in the timeout message), for
   * probes of something still starting. By default a throw ends the wait at once, so a probe can
   * abort (a child that exited, say).
   */
  retryErrors?: boolean;
}

/** What a probe answers while the awaited condition does not hold yet. */
export type NotYet = undefined | null | false;

/**
 * Call `probe` every `intervalMs` until it answers something other than undefined, null or false, and
 * return that answer (a predicate's `true`, or the value looked for: 0 and "" count as answers). On
 * timeout, throws "timed out after <ms> ms waiting for <what>". `options` may be the timeout alone.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | Promise<T>,
  options: number | WaitForOptions = {},
): Promise<Exclude<T, NotYet>> {
  const {
    timeoutMs = 5_000,
    intervalMs = 50,
    retryErrors = false,
  } = typeof options === "number" ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value as Exclude<T, NotYet>;
    } catch (error) {
      if (!retryErrors) throw error;
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError === undefined ? "" : ` (last error: ${errorText(lastError)})`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A port on 127.0.0.1 that was free a moment ago (listen on 0, read the port, close). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
