/** Shapes of the RPC Pulse directory API (`GET /api/v1/chains/{network}/endpoints`) as the client reads them. */

export type EndpointStatus = "active" | "probation" | "dead";

/**
 * Scoring status in the requested window (the listing `status` can be active while this says dead).
 * lagging = behind the network head, stale = head not advancing: usable, but never healthy.
 */
export type EndpointHealthStatus = "healthy" | "degraded" | "lagging" | "stale" | "probation" | "dead";

export interface EndpointCapabilities {
  archive: boolean;
  websocket: boolean;
  trace: boolean;
  batch: boolean;
  /** Further capability flags the API may add (e.g. Hive API sets); unknown ones are kept. */
  [name: string]: boolean;
}

export interface RankedEndpoint {
  id: string;
  url: string;
  wsUrl: string | null;
  name: string;
  provider: string | null;
  status: EndpointStatus;
  rank: number;
  /** 0-100. */
  score: number;
  latency: { p50Ms: number | null; p95Ms: number | null };
  lagBlocks: number | null;
  uptime: { h24: number | null; d7: number | null; d30: number | null };
  capabilities: EndpointCapabilities;
  operatorVerified: boolean;
  updatedAt: string;
  /** Optional fields of the API that the picker uses when present. */
  health?: EndpointHealthStatus;
  family?: string;
  /** Beacon-style feature list (API sets / namespaces and capability flags). */
  features?: string[];
}

export interface RankedList {
  network: string;
  window: string;
  region?: string;
  /** Newest ranking snapshot; null when the network has not been ranked yet. */
  updatedAt: string | null;
  endpoints: RankedEndpoint[];
}

/** Where the list the picker serves came from. */
export type ListSource = "api" | "storage" | "fallback" | "none";

/** Why a call against an endpoint counts as failed. */
export type FailureKind = "error" | "timeout" | "http" | "rate-limited" | "stale-head";

/** What a fallback entry may be: a URL, or a partial endpoint with at least a URL. */
export type FallbackEndpoint = string | (Partial<RankedEndpoint> & { url: string });

/** The subset of the Web Storage API the picker uses to keep the last good list (e.g. `localStorage`). */
export interface ListStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
