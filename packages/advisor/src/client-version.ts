import type { AdvisorNode, ClientKind } from "./types.js";

export interface ClientInfo {
  kind: ClientKind;
  /** [major, minor, patch] when the version string has one. */
  version: [number, number, number] | null;
  raw: string | null;
}

const SEMVER = /v?(\d+)\.(\d+)(?:\.(\d+))?/;

function parseVersion(text: string | null): ClientInfo["version"] {
  const m = text ? SEMVER.exec(text) : null;
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : null;
}

/**
 * Which client a node runs, from what the agent reports:
 * Ethereum `web3_clientVersion` ("Nethermind/v1.31.0+…", "Geth/v1.16.7-stable-…"), Hive/Steem
 * `get_version.blockchain_version` (chain decides hived vs steemd), Substrate `system_version`,
 * Sidecar `/node/version`. An explicit `node.client` wins.
 */
export function parseClient(node: AdvisorNode): ClientInfo {
  const raw = node.clientVersion;
  const version = parseVersion(raw);
  if (node.client) return { kind: node.client, version, raw };
  switch (node.family) {
    case "hive":
      return { kind: node.chain === "steem" ? "steemd" : "hived", version, raw };
    case "substrate":
      return { kind: "substrate", version, raw };
    case "sidecar":
      return { kind: "sidecar", version, raw };
    case "ethereum": {
      if (raw && /^nethermind\//i.test(raw)) return { kind: "nethermind", version, raw };
      if (raw && /^geth\//i.test(raw)) return { kind: "geth", version, raw };
      return { kind: "unknown", version, raw };
    }
  }
}

/** a >= b for [major, minor, patch]. */
export function versionAtLeast(v: ClientInfo["version"], min: readonly [number, number, number]): boolean {
  if (!v) return false;
  for (let i = 0; i < 3; i++) if (v[i]! !== min[i]!) return v[i]! > min[i]!;
  return true;
}

export function formatVersion(v: ClientInfo["version"]): string {
  return v ? v.join(".") : "unknown";
}
