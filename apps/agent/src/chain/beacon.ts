import type { BeaconGroup } from "@rpcpulse/domain";
import { timedRequest, type TimedResponse } from "./http-timing.js";

/**
 * The Ethereum consensus client (Beacon node REST API, https://ethereum.github.io/beacon-APIs/, served
 * alike by Lighthouse, Prysm, Teku, Nimbus and Lodestar). Per sample: GET /eth/v1/beacon/headers/head
 * (head slot; its latency is the one reported), then /eth/v1/node/syncing (sync_distance, is_syncing,
 * is_optimistic, el_offline), /eth/v1/node/peer_count (connected) and /eth/v1/node/version. Genesis time
 * (GET /eth/v1/beacon/genesis, read once) turns the clock into the wall-clock slot: 12 s slots.
 * GET /eth/v1/beacon/blinded_blocks/head gives the head's execution block (number and hash, from the
 * execution_payload_header): the blinded form carries the transactions' root instead of the
 * transactions, a few kB where /eth/v2/beacon/blocks/head can be megabytes. The server compares it
 * with the execution node's head of the same sample to tell whether this is the EL the beacon drives.
 */

export const SECONDS_PER_SLOT = 12;

const clip = (s: string): string => (s.length > 500 ? `${s.slice(0, 497)}...` : s);

/** Beacon API quantities are decimal strings ("1234"); numbers are accepted too. */
function uint(value: unknown): number | null {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === "string" && /^\d{1,15}$/.test(value)) return Number(value);
  return null;
}

const bool = (value: unknown): boolean | null => (typeof value === "boolean" ? value : null);

/** The slot the clock is in, from genesis time (seconds); null before genesis. */
export function wallClockSlot(nowMs: number, genesisSeconds: number): number | null {
  const s = Math.floor((nowMs / 1000 - genesisSeconds) / SECONDS_PER_SLOT);
  return s >= 0 ? s : null;
}

/**
 * data.message.body.execution_payload_header of a blinded block (Beacon API SignedBlindedBeaconBlock,
 * Bellatrix and later): block_number (decimal string) and block_hash (0x + 32 bytes). null before the
 * merge or when the shape is not there.
 */
export function executionHeadOf(data: Record<string, unknown>): { block: number; hash: string } | null {
  const message = data.message as { body?: { execution_payload_header?: Record<string, unknown> } } | undefined;
  const header = message?.body?.execution_payload_header;
  const block = uint(header?.block_number);
  const hash = typeof header?.block_hash === "string" ? header.block_hash : "";
  return block !== null && /^0x[0-9a-fA-F]{64}$/.test(hash) ? { block, hash: hash.toLowerCase() } : null;
}

export class BeaconAdapter {
  private genesisSeconds: number | null = null;

  constructor(private readonly options: { url: URL; timeoutMs: number }) {}

  private url(path: string): URL {
    const base = new URL(this.options.url);
    if (!base.pathname.endsWith("/")) base.pathname += "/";
    return new URL(path.replace(/^\//, ""), base);
  }

  private async get(
    path: string,
    maxBytes = 256 * 1024,
  ): Promise<{ data: Record<string, unknown>; res: TimedResponse }> {
    const res = await timedRequest({
      url: this.url(path),
      method: "GET",
      timeoutMs: this.options.timeoutMs,
      maxBytes,
    });
    if (res.status < 200 || res.status >= 300) throw new Error(`GET ${path}: HTTP ${res.status}`);
    let json: unknown;
    try {
      json = JSON.parse(res.body.toString("utf8"));
    } catch {
      throw new Error(`GET ${path}: invalid JSON`);
    }
    const data = (json as { data?: unknown } | null)?.data;
    if (typeof data !== "object" || data === null) throw new Error(`GET ${path}: no data object`);
    return { data: data as Record<string, unknown>, res };
  }

  /** One reading as the wire group; never throws (ok=false and error say what failed). */
  async collect(nowMs: () => number): Promise<BeaconGroup> {
    const empty: BeaconGroup = {
      ok: false,
      headSlot: null,
      wallSlot: null,
      slotsBehind: null,
      syncDistance: null,
      syncing: null,
      optimistic: null,
      elOffline: null,
      peers: null,
      version: null,
      execBlock: null,
      execHash: null,
      latency: null,
      error: null,
    };
    let head: Awaited<ReturnType<BeaconAdapter["get"]>>;
    try {
      head = await this.get("/eth/v1/beacon/headers/head");
    } catch (error) {
      // The wall-clock slot still says how far behind the last head the server saw is.
      const wallSlot = this.genesisSeconds === null ? null : wallClockSlot(nowMs(), this.genesisSeconds);
      return { ...empty, wallSlot, error: clip(error instanceof Error ? error.message : String(error)) };
    }
    const message = (head.data.header as { message?: Record<string, unknown> } | undefined)?.message;
    const headSlot = uint(message?.slot);
    const warnings: string[] = [];
    const aux = async <T>(
      path: string,
      pick: (d: Record<string, unknown>) => T,
      maxBytes?: number,
    ): Promise<T | null> => {
      try {
        return pick((await this.get(path, maxBytes)).data);
      } catch (error) {
        warnings.push(error instanceof Error ? error.message : String(error));
        return null;
      }
    };
    if (this.genesisSeconds === null) {
      this.genesisSeconds = await aux("/eth/v1/beacon/genesis", (d) => uint(d.genesis_time));
    }
    const [sync, peers, version, exec] = await Promise.all([
      aux("/eth/v1/node/syncing", (d) => d),
      aux("/eth/v1/node/peer_count", (d) => uint(d.connected)),
      aux("/eth/v1/node/version", (d) => (typeof d.version === "string" ? d.version.slice(0, 256) : null)),
      // Electra blocks carry attestations with aggregation bits of up to 128 Ki bits each: allow 4 MiB.
      aux("/eth/v1/beacon/blinded_blocks/head", executionHeadOf, 4 * 1024 * 1024),
    ]);
    const wallSlot = this.genesisSeconds === null ? null : wallClockSlot(nowMs(), this.genesisSeconds);
    if (headSlot === null) warnings.unshift("GET /eth/v1/beacon/headers/head: no slot in the header");
    return {
      ok: headSlot !== null,
      headSlot,
      wallSlot,
      slotsBehind: headSlot !== null && wallSlot !== null ? wallSlot - headSlot : null,
      syncDistance: sync ? uint(sync.sync_distance) : null,
      syncing: sync ? bool(sync.is_syncing) : null,
      optimistic: sync ? bool(sync.is_optimistic) : null,
      elOffline: sync ? bool(sync.el_offline) : null,
      peers,
      version,
      execBlock: exec?.block ?? null,
      execHash: exec?.hash ?? null,
      latency: head.res.timing,
      error: warnings[0] ? clip(warnings[0]) : null,
    };
  }
}
