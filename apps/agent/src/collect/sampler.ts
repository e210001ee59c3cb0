import type { AgentSample, CollectError } from "@rpcpulse/domain";
import type { BeaconAdapter } from "../chain/beacon.js";
import { collectChain, type ChainAdapter } from "../chain/index.js";
import { collectConntrack } from "./conntrack.js";
import { collectDisks } from "./disks.js";
import { FdsCollector, type NodeProcessSelector } from "./fds.js";
import { HostCollector } from "./host.js";
import { NetstatCollector } from "./netstat.js";
import { errorMessage } from "./proc-files.js";
import { TcpScanner } from "./proc-net-tcp.js";
import { SettingsCollector, readNodeArgs } from "./settings.js";
import { collectSockstat, readPageSize } from "./sockstat.js";

export interface SamplerOptions {
  /** procfs mount (default /proc). */
  procRoot?: string;
  /** Root for sysctl files (default /). */
  rootDir?: string;
  /** Public ports for per-IP counts; null = listening ports. */
  publicPorts: readonly number[] | null;
  topN: number;
  /** Data directories to statfs; /dev/shm is always added. */
  dataDirs: readonly string[];
  process: NodeProcessSelector | null;
  chain: ChainAdapter | null;
  /** Ethereum: the consensus client beside the node (Beacon API); absent/null = not read. */
  beacon?: BeaconAdapter | null;
}

/**
 * Collects one wire sample. Keeps the state that deltas need (CPU jiffies, TcpExt counters, the
 * agent's own CPU time) between calls, so one Sampler is used for the agent's whole life.
 * The /proc part is synchronous and runs before the chain calls, so the event loop is idle while
 * the head call is timed.
 */
export class Sampler {
  private readonly procRoot: string;
  private readonly tcp: TcpScanner;
  private readonly netstat: NetstatCollector;
  private readonly host: HostCollector;
  private readonly fds: FdsCollector;
  private readonly settings: SettingsCollector;
  private readonly pageSize: number;
  private readonly disks: string[];
  private lastSelf: { cpu: NodeJS.CpuUsage; at: bigint } | null = null;

  constructor(private readonly options: SamplerOptions) {
    this.procRoot = options.procRoot ?? "/proc";
    this.tcp = new TcpScanner(this.procRoot);
    this.netstat = new NetstatCollector(this.procRoot);
    this.host = new HostCollector(this.procRoot);
    this.fds = new FdsCollector(this.procRoot, options.process);
    this.settings = new SettingsCollector(this.procRoot, options.rootDir ?? "/");
    this.pageSize = readPageSize(this.procRoot);
    this.disks = [...new Set([...options.dataDirs, "/dev/shm"])];
  }

  async collect(): Promise<AgentSample> {
    const started = process.hrtime.bigint();
    const nowMs = Date.now();
    const errors: CollectError[] = [];
    const guard = <T>(group: CollectError["group"], fn: () => T): T | null => {
      try {
        return fn();
      } catch (error) {
        if (errors.length < 32) errors.push({ group, message: errorMessage(error) });
        return null;
      }
    };
    const settings = guard("settings", () => this.settings.collect());
    const scan = guard("tcp", () =>
      this.tcp.scan({
        publicPorts: this.options.publicPorts,
        topN: this.options.topN,
        portRange: settings?.ipLocalPortRange ?? null,
      }),
    );
    const sample: AgentSample = {
      collectedAt: new Date(nowMs).toISOString(),
      tcp: scan?.tcp ?? null,
      sockstat: guard("sockstat", () => collectSockstat(this.procRoot, this.pageSize)),
      netstat: guard("netstat", () => this.netstat.collect(nowMs)),
      conntrack: guard("conntrack", () => collectConntrack(this.procRoot)),
      fds: guard("fds", () => this.fds.collect()),
      host: guard("host", () => this.host.collect()),
      disks: guard("disks", () => collectDisks(this.disks)) ?? [],
      settings,
      chain: null,
      remoteIps: scan?.remoteIps ?? null,
      outbound: scan?.outbound ?? null,
      self: null,
      errors,
    };
    // The command line is world-readable: node args are read even when its descriptors are not.
    const pid = sample.fds?.process?.pid ?? this.fds.lastPid;
    if (sample.settings)
      sample.settings.nodeArgs = pid === null ? null : guard("settings", () => readNodeArgs(this.procRoot, pid));
    if (this.options.chain) sample.chain = await collectChain(this.options.chain, () => Date.now());
    if (this.options.beacon) sample.beacon = await this.options.beacon.collect(() => Date.now());
    sample.self = this.selfUsage(started);
    return sample;
  }

  private selfUsage(started: bigint): AgentSample["self"] {
    const now = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    let cpuPct: number | null = null;
    if (this.lastSelf) {
      const wallUs = Number(now - this.lastSelf.at) / 1000;
      const usedUs = cpu.user - this.lastSelf.cpu.user + (cpu.system - this.lastSelf.cpu.system);
      cpuPct = wallUs > 0 ? Math.round((usedUs / wallUs) * 100_000) / 1000 : null;
    }
    this.lastSelf = { cpu, at: now };
    return {
      cpuPct,
      rssBytes: process.memoryUsage.rss(),
      collectMs: Math.round(Number(now - started) / 1000) / 1000,
      spoolBacklog: null,
      spoolDropped: null,
    };
  }
}
