import type { SourceRef } from "./types.js";

/** Primary sources cited by the rules (from the tuning knowledge base, shared/reference/tuning-kb.md). */
export const SRC = {
  ipSysctl: {
    title: "Linux kernel: ip-sysctl (Documentation/networking/ip-sysctl.rst)",
    url: "https://docs.kernel.org/networking/ip-sysctl.html",
  },
  tcp7: {
    title: "tcp(7) man page (tcp_tw_recycle removed in Linux 4.12)",
    url: "https://man7.org/linux/man-pages/man7/tcp.7.html",
  },
  bernat: {
    title: "Vincent Bernat: Coping with the TCP TIME-WAIT state on busy Linux servers",
    url: "https://vincent.bernat.ch/en/blog/2014-tcp-time-wait-state-linux",
  },
  snmpCounter: {
    title: "Linux kernel: SNMP counters (ListenOverflows, ListenDrops)",
    url: "https://docs.kernel.org/networking/snmp_counter.html",
  },
  procNetTcp: {
    title: "Linux kernel: /proc/net/tcp (states, tcp_states.h)",
    url: "https://docs.kernel.org/networking/proc_net_tcp.html",
  },
  conntrackSysctl: {
    title: "Linux kernel: nf_conntrack sysctl",
    url: "https://docs.kernel.org/networking/nf_conntrack-sysctl.html",
  },
  fsSysctl: {
    title: "Linux kernel: /proc/sys/fs (file-max, nr_open)",
    url: "https://docs.kernel.org/admin-guide/sysctl/fs.html",
  },
  systemdExec: {
    title: "systemd.exec(5): LimitNOFILE=",
    url: "https://www.freedesktop.org/software/systemd/man/latest/systemd.exec.html",
  },
  nginxCore: {
    title: "nginx: ngx_http_core_module (listen backlog=, keepalive)",
    url: "https://nginx.org/en/docs/http/ngx_http_core_module.html",
  },
  nginxUpstream: {
    title: "nginx: ngx_http_upstream_module (keepalive)",
    url: "https://nginx.org/en/docs/http/ngx_http_upstream_module.html",
  },
  nginxLimitReq: {
    title: "nginx: ngx_http_limit_req_module (limit_req_dry_run)",
    url: "https://nginx.org/en/docs/http/ngx_http_limit_req_module.html",
  },
  nginxLimitConn: {
    title: "nginx: ngx_http_limit_conn_module",
    url: "https://nginx.org/en/docs/http/ngx_http_limit_conn_module.html",
  },
  nginxRealip: {
    title: "nginx: ngx_http_realip_module",
    url: "https://nginx.org/en/docs/http/ngx_http_realip_module.html",
  },
  nginxMain: {
    title: "nginx: core module (worker_rlimit_nofile, worker_connections)",
    url: "https://nginx.org/en/docs/ngx_core_module.html",
  },
  connlimit: {
    title: "iptables-extensions(8): connlimit",
    url: "https://ipset.netfilter.org/iptables-extensions.man.html",
  },
  nftCount: {
    title: "nft(8): ct count (connection limits)",
    url: "https://wiki.nftables.org/wiki-nftables/index.php/Connlimits",
  },
  tmpfs: {
    title: "Linux kernel: tmpfs (size, Shmem, oversizing deadlock)",
    url: "https://docs.kernel.org/filesystems/tmpfs.html",
  },
  hivedChainPlugin: {
    title: "hived chain_plugin options (shared-file-dir/size, autoscale)",
    url: "https://gitlab.syncad.com/hive/hive/-/blob/master/libraries/plugins/chain/chain_plugin.cpp",
  },
  hivedP2p: {
    title: "hived p2p_plugin options (p2p-endpoint, p2p-seed-node, p2p-max-connections)",
    url: "https://gitlab.syncad.com/hive/hive/-/blob/master/libraries/plugins/p2p/p2p_plugin.cpp",
  },
  hiveMira: {
    title: "Hive: MIRA removed (commits 76cf792aa, 73d78881a)",
    url: "https://gitlab.syncad.com/hive/hive/-/commits/master",
  },
  steemMira: { title: "Steem 0.20.11 release notes (MIRA)", url: "https://release-tracker.netlify.app/steemit/steem" },
  nethermindPerf: {
    title: "Nethermind docs: performance tuning (RAM tiers, peers)",
    url: "https://docs.nethermind.io/fundamentals/performance-tuning",
  },
  nethermindPr254: {
    title: "NethermindEth/docs PR #254: remove unsupported options",
    url: "https://github.com/NethermindEth/docs/pull/254",
  },
  nethermindConfig: {
    title: "Nethermind configuration reference",
    url: "https://docs.nethermind.io/fundamentals/configuration",
  },
  gethFlags: {
    title: "go-ethereum command-line options (--maxpeers)",
    url: "https://geth.ethereum.org/docs/fundamentals/command-line-options",
  },
  substrateNetworkParams: {
    title: "polkadot-sdk: network params (--in-peers, --out-peers)",
    url: "https://github.com/paritytech/polkadot-sdk/blob/master/substrate/client/cli/src/params/network_params.rs",
  },
  substrateRpcConfig: {
    title: "polkadot-sdk: RPC defaults (RPC_DEFAULT_MAX_CONNECTIONS = 100)",
    url: "https://github.com/paritytech/polkadot-sdk/blob/master/substrate/client/cli/src/config.rs",
  },
  ethJsonRpc: {
    title: "Ethereum JSON-RPC API (eth_syncing, net_peerCount, eth_getBlockByNumber)",
    url: "https://ethereum.org/en/developers/docs/apis/json-rpc/",
  },
  hiveProtocolConfig: {
    title: "hived: HIVE_BLOCK_INTERVAL 3 s; dynamic global properties (head_block_number, time)",
    url: "https://gitlab.syncad.com/hive/hive/-/blob/master/libraries/protocol/include/hive/protocol/config.hpp",
  },
  hiveExchangeGuide: {
    title: "hived exchange quickstart (fast local SSD/NVMe; EBS not performant enough)",
    url: "https://gitlab.syncad.com/hive/hive/-/blob/master/doc/exchangequickstart.md",
  },
  substrateSystemRpc: {
    title: "polkadot-sdk: system_health (peers, isSyncing, shouldHavePeers), system_syncState",
    url: "https://github.com/paritytech/polkadot-sdk/blob/master/substrate/client/rpc-api/src/system/mod.rs",
  },
  hiveWitnessSchedule: {
    title: "Hive developer portal: dynamic global properties (last_irreversible_block_num, witness confirmations)",
    url: "https://developers.hive.io/tutorials-recipes/understanding-dynamic-global-properties.html",
  },
  grandpaRpc: {
    title: "polkadot-sdk: GRANDPA RPC (grandpa_roundState, finality votes)",
    url: "https://github.com/paritytech/polkadot-sdk/blob/master/substrate/client/consensus/grandpa/rpc/src/lib.rs",
  },
  beaconFinality: {
    title: "Ethereum Beacon API: getStateFinalityCheckpoints",
    url: "https://ethereum.github.io/beacon-APIs/#/Beacon/getStateFinalityCheckpoints",
  },
  ethGasper: {
    title: "ethereum.org: Gasper (checkpoints, finality, inactivity leak)",
    url: "https://ethereum.org/en/developers/docs/consensus-mechanisms/pos/gasper/",
  },
  subway: { title: "Subway: Substrate JSON-RPC gateway", url: "https://github.com/AcalaNetwork/subway" },
  sidecarOpenapi: {
    title: "substrate-api-sidecar OpenAPI (noFees, finalized)",
    url: "https://github.com/paritytech/substrate-api-sidecar/blob/master/docs/src/openapi-v1.yaml",
  },
  sidecarReadme: {
    title: "substrate-api-sidecar README (deprecated in favour of polkadot-rest-api)",
    url: "https://github.com/paritytech/substrate-api-sidecar",
  },
  timedatectl: {
    title: "timedatectl(1): status, timesync-status (System clock synchronized, NTP service)",
    url: "https://www.freedesktop.org/software/systemd/man/latest/timedatectl.html",
  },
  timesyncd: {
    title: "systemd-timesyncd.service(8): SNTP client of systemd",
    url: "https://www.freedesktop.org/software/systemd/man/latest/systemd-timesyncd.service.html",
  },
  chrony: {
    title: "chrony documentation (chronyc tracking, sources)",
    url: "https://chrony-project.org/documentation.html",
  },
} as const satisfies Record<string, SourceRef>;

export type SourceKey = keyof typeof SRC;

export function sources(...keys: SourceKey[]): SourceRef[] {
  return keys.map((k) => ({ ...SRC[k] }));
}
