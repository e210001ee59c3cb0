import type { ApiFamily, ChainLatency } from "@rpcpulse/domain";

/** What one adapter reads from its node in one cycle; the collector turns it into the wire group. */
export interface ChainReading {
  headBlock: number;
  headHash: string | null;
  /** Head block time, ms since the epoch; null when the family cannot tell. */
  headTimeMs: number | null;
  headTimeSource: "block" | "storage" | "first-seen" | null;
  finalizedBlock: number | null;
  peers: number | null;
  syncing: boolean | null;
  clientVersion: string | null;
  latency: ChainLatency;
  /** Failures of auxiliary calls (the head call succeeded). */
  warnings: string[];
}

export interface ChainAdapter {
  readonly family: ApiFamily;
  read(): Promise<ChainReading>;
}

export interface AdapterOptions {
  url: URL;
  timeoutMs: number;
}

/**
 * Head time for APIs whose header carries no timestamp: the moment the agent first saw this head
 * number. Accurate to one collection interval at best, and meaningless on the first sample after
 * start (age 0); used only when the chain's Timestamp.Now storage cannot be read.
 */
export class HeadFirstSeen {
  private head: number | null = null;
  private at = 0;

  observe(head: number, nowMs: number): number {
    if (head !== this.head) {
      this.head = head;
      this.at = nowMs;
    }
    return this.at;
  }
}

export function str(value: unknown, max = 256): string | null {
  return typeof value === "string" && value.length > 0 ? value.slice(0, max) : null;
}
