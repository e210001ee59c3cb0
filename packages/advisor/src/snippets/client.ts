import type { Snippet } from "../types.js";

/** hived/steemd config.ini lines (key = value), validated against HIVED_OPTIONS in the tests. */
export function hivedConfigSnippet(
  title: string,
  lines: readonly { key: string; value: string; comment: string }[],
): Snippet {
  return {
    kind: "hived-config",
    title,
    filename: "config.ini (in the hived data directory)",
    content: lines.map((l) => `# ${l.comment}\n${l.key} = ${l.value}`).join("\n") + "\n",
    applyCommand: "restart hived (state on tmpfs is lost on reboot: keep a snapshot)",
  };
}

function flagsSnippet(
  kind: "nethermind-flags" | "geth-flags" | "substrate-flags",
  title: string,
  flags: readonly { flag: string; value: string | null; comment: string }[],
): Snippet {
  const comments = flags.map((f) => `# ${f.flag}: ${f.comment}`).join("\n");
  const line = flags.map((f) => (f.value === null ? f.flag : `${f.flag} ${f.value}`)).join(" \\\n  ");
  return {
    kind,
    title,
    content: `${comments}\n  ${line}\n`,
    applyCommand: "add to the node's command line (or its config/env equivalent) and restart",
  };
}

export const nethermindFlags = (title: string, flags: Parameters<typeof flagsSnippet>[2]) =>
  flagsSnippet("nethermind-flags", title, flags);
export const gethFlags = (title: string, flags: Parameters<typeof flagsSnippet>[2]) =>
  flagsSnippet("geth-flags", title, flags);
export const substrateFlags = (title: string, flags: Parameters<typeof flagsSnippet>[2]) =>
  flagsSnippet("substrate-flags", title, flags);

/** One request path per line, e.g. GET /blocks/head?noFees=true. */
export function sidecarQuerySnippet(title: string, requests: readonly { path: string; comment: string }[]): Snippet {
  return {
    kind: "sidecar-query",
    title,
    content: requests.map((r) => `# ${r.comment}\nGET ${r.path}`).join("\n") + "\n",
    applyCommand: "change the callers' request URLs",
  };
}

/**
 * Options the advisor may emit, per client, with the value shape and the source. The snippet
 * tests parse every generated flag/config line and reject anything not listed here (there is no
 * hived/Nethermind/Geth/polkadot binary to ask). Keep in step with the tuning KB.
 */
export const CLIENT_OPTIONS = {
  "hived-config": {
    "p2p-endpoint": {
      pattern: /^(\d{1,3}\.){3}\d{1,3}:\d{1,5}$/,
      source: "hived p2p_plugin.cpp; doc/example_config.ini",
    },
    "p2p-max-connections": { pattern: /^\d+$/, source: "hived p2p_plugin.cpp" },
    "shared-file-dir": { pattern: /^"?\/[\w./-]+"?$/, source: "hived chain_plugin.cpp" },
    "shared-file-size": { pattern: /^\d+[GM]$/, source: "hived chain_plugin.cpp (default 7G)" },
    "shared-file-full-threshold": {
      pattern: /^(\d{1,4}|10000)$/,
      source: "hived chain_plugin.cpp (0-10000; 9500 recommended)",
    },
    "shared-file-scale-rate": {
      pattern: /^(\d{1,4}|10000)$/,
      source: "hived chain_plugin.cpp (0-10000; 1000-2000 recommended)",
    },
  },
  "nethermind-flags": {
    "--Network.MaxActivePeers": { pattern: /^\d+$/, source: "Nethermind config reference (default 50)" },
    "--Network.MaxOutgoingConnectPerSec": {
      pattern: /^\d+$/,
      source: "Nethermind INetworkConfig.cs (hidden, default 20)",
    },
    "--Pruning.CacheMb": { pattern: /^\d+$/, source: "Nethermind performance-tuning.md (RAM tiers)" },
    "--Db.StateDbWriteBufferSize": { pattern: /^\d+$/, source: "Nethermind performance-tuning.md (RAM tiers)" },
    "--Db.StateDbAdditionalRocksDbOptions": {
      pattern: /^"[a-z_]+=.*;"$/,
      source: "Nethermind performance-tuning.md (RAM tiers)",
    },
    "--Db.StateDbEnableFileWarmer": {
      pattern: /^(true|false)$/,
      source: "Nethermind performance-tuning.md (≥128 GB tier)",
    },
    "--HealthChecks.Enabled": {
      pattern: /^(true|false)$/,
      source: "Nethermind config reference (HealthChecks.Enabled, default false; /health)",
    },
    "--Db.StateDbVerifyChecksum": {
      pattern: /^(true|false)$/,
      source: "Nethermind performance-tuning.md (≥350 GB tier)",
    },
  },
  "geth-flags": {
    "--maxpeers": { pattern: /^\d+$/, source: "go-ethereum cmd/utils/flags.go (default 50)" },
  },
  "substrate-flags": {
    "--out-peers": { pattern: /^\d+$/, source: "polkadot-sdk network_params.rs (default 15)" },
    "--in-peers": { pattern: /^\d+$/, source: "polkadot-sdk network_params.rs (default 25)" },
    "--rpc-max-connections": { pattern: /^\d+$/, source: "polkadot-sdk config.rs (RPC_DEFAULT_MAX_CONNECTIONS = 100)" },
  },
} as const satisfies Record<string, Record<string, { pattern: RegExp; source: string }>>;

/** Query parameters of Sidecar block endpoints (openapi-v1.yaml), all booleans. */
export const SIDECAR_BLOCK_PARAMS = ["finalized", "eventDocs", "extrinsicDocs", "noFees", "useRcBlock"] as const;
