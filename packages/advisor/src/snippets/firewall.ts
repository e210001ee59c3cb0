import type { Snippet } from "../types.js";

/** iptables-restore input (filter table) limiting parallel connections per source /32. */
export function iptablesConnlimit(o: { ports: readonly number[]; above: number; measureOnly: boolean }): Snippet {
  const dports = o.ports.length === 1 ? `--dport ${o.ports[0]}` : `-m multiport --dports ${o.ports.join(",")}`;
  const match = `-p tcp --syn ${dports} -m connlimit --connlimit-above ${o.above} --connlimit-mask 32`;
  const rule = o.measureOnly
    ? `-A INPUT ${match} -m limit --limit 6/min -j LOG --log-prefix "rpcpulse-connlimit "`
    : `-A INPUT ${match} -j REJECT --reject-with tcp-reset`;
  return {
    kind: "iptables",
    title: o.measureOnly
      ? "iptables: log sources above the connection limit (measure first)"
      : "iptables: reject sources above the connection limit",
    filename: "/etc/iptables/rules.v4 (merge into your *filter table)",
    content: `# iptables-restore --noflush input\n*filter\n${rule}\nCOMMIT\n`,
    applyCommand: "iptables-restore --noflush < rules.rpcpulse.v4",
    dryRunFirst: o.measureOnly,
  };
}

/** nftables: the same per-source limit with a dynamic set and `ct count over`. */
export function nftablesConnlimit(o: { ports: readonly number[]; above: number; measureOnly: boolean }): Snippet {
  const ports = o.ports.length === 1 ? String(o.ports[0]) : `{ ${o.ports.join(", ")} }`;
  const action = o.measureOnly ? `counter log prefix "rpcpulse-connlimit "` : "counter reject with tcp reset";
  return {
    kind: "nftables",
    title: o.measureOnly
      ? "nftables: count sources above the connection limit (measure first)"
      : "nftables: reject sources above the connection limit",
    filename: "/etc/nftables.d/rpcpulse-connlimit.nft",
    content: `table inet rpcpulse_connlimit {
    set over_limit_v4 {
        type ipv4_addr
        size 65535
        flags dynamic
    }
    set over_limit_v6 {
        type ipv6_addr
        size 65535
        flags dynamic
    }
    chain input {
        type filter hook input priority filter; policy accept;
        tcp dport ${ports} ct state new add @over_limit_v4 { ip saddr ct count over ${o.above} } ${action}
        tcp dport ${ports} ct state new add @over_limit_v6 { ip6 saddr ct count over ${o.above} } ${action}
    }
}
`,
    applyCommand: "nft -c -f /etc/nftables.d/rpcpulse-connlimit.nft && nft -f /etc/nftables.d/rpcpulse-connlimit.nft",
    dryRunFirst: o.measureOnly,
  };
}
