import type { ApiFamily } from "@rpcpulse/domain";
import { systemClock, type Clock } from "./clock.js";
import { parseSimnetConfig, type ErrorKind, type SimnetConfig, type SimnetConfigInput } from "./config.js";
import { EthereumFamily } from "./families/ethereum.js";
import { HiveFamily } from "./families/hive.js";
import { SidecarFamily } from "./families/sidecar.js";
import { SubstrateFamily } from "./families/substrate.js";
import { loadRuntimeSnapshot, type RuntimeSnapshot } from "./families/substrate-runtime.js";
import type { Family } from "./families/types.js";
import type { LatencySpec } from "./latency.js";
import { witnessBookOf, type WitnessBook } from "./families/hive-witnesses.js";
import { validatorBookOf, type ValidatorBook } from "./families/substrate-validators.js";
import { ChainNetwork } from "./network.js";
import { startBeaconServer, type BeaconState } from "./beacon-server.js";
import { startControlServer, type ControlServer } from "./control-server.js";
import { startNodeServer } from "./server.js";
import { SimNode } from "./sim-node.js";

export { ManualClock, systemClock, type Clock } from "./clock.js";
export {
  parseSimnetConfig,
  simnetConfigSchema,
  ERROR_KINDS,
  type SimnetConfig,
  type SimnetConfigInput,
  type NodeConfig,
  type ErrorKind,
} from "./config.js";
export type { LatencySpec } from "./latency.js";
export { ChainNetwork } from "./network.js";
export type { BeaconState } from "./beacon-server.js";
export { NULL_SIGNING_KEY, type WitnessBook } from "./families/hive-witnesses.js";
export { ACTIVE_SET_SIZE, ERA_BLOCKS, SESSION_BLOCKS, type ValidatorBook } from "./families/substrate-validators.js";

/** A running simulated node: where to reach it and the knobs to turn while it runs. */
export interface SimnetNodeHandle {
  name: string;
  family: ApiFamily;
  network: string;
  url: string;
  /** null when the node has no WebSocket. */
  wsUrl: string | null;
  port: number;
  /** Height this node reports now (ignoring headFlap). */
  head(): number;
  setStalled(stalled: boolean): void;
  setLag(blocks: number): void;
  setErrorRate(rate: number, kind?: ErrorKind): void;
  /** The next `count` requests fail with `kind` (default http-503), then errorRate applies again. */
  failNext(count: number, kind?: ErrorKind): void;
  setSyncing(syncing: boolean): void;
  setPeers(peers: number): void;
  setLatency(latency: LatencySpec): void;
  setMissingMethods(methods: readonly string[]): void;
  /** The Beacon API beside this node (config `beacon`), null without one; its state can be changed live. */
  beacon: { url: string; port: number; state: BeaconState; setStalled(stalled: boolean): void } | null;
  close(): Promise<void>;
}

export interface Simnet {
  config: SimnetConfig;
  nodes: SimnetNodeHandle[];
  networks: Map<string, ChainNetwork>;
  /** The node called `name`; throws when there is none. */
  node(name: string): SimnetNodeHandle;
  /** Witness state of a Hive/Steem network of this simnet (miss a slot, age a feed, change a key). */
  witnesses(network: string): WitnessBook;
  /** Staking state of a Polkadot/Kusama network of this simnet (validator offline, dropped, keys lost). */
  validators(network: string): ValidatorBook;
  /** URL of the control server (config controlPort), null without one. */
  controlUrl: string | null;
  close(): Promise<void>;
}

export interface StartSimnetOptions {
  /** Time source of every network (default: the system clock). */
  clock?: Clock;
}

function createFamily(
  family: ApiFamily,
  network: ChainNetwork,
  node: SimNode,
  runtime: RuntimeSnapshot | undefined,
): Family {
  switch (family) {
    case "hive":
      return new HiveFamily(network, node.config.irreversibleLagBlocks);
    case "ethereum":
      return new EthereumFamily(network, node.config.clientVersion);
    case "substrate":
      return new SubstrateFamily(network, runtime, node.config.clientVersion);
    case "sidecar":
      return new SidecarFamily(network, node.config.clientVersion);
  }
}

/** Start every node of a config (validated here) on 127.0.0.1. */
export async function startSimnet(
  input: SimnetConfigInput | SimnetConfig,
  options: StartSimnetOptions = {},
): Promise<Simnet> {
  const config = parseSimnetConfig(input);
  const clock = options.clock ?? systemClock;
  const anchorTimeMs = config.anchorTime ? Date.parse(config.anchorTime) : undefined;
  const networks = new Map<string, ChainNetwork>();
  const runtimes = new Map<string, RuntimeSnapshot | undefined>();
  const handles: SimnetNodeHandle[] = [];
  try {
    for (const nodeConfig of config.nodes) {
      let network = networks.get(nodeConfig.network);
      if (!network) {
        network = new ChainNetwork({
          slug: nodeConfig.network,
          seed: config.seed,
          clock,
          anchorTimeMs,
          anchorHeight: config.networks[nodeConfig.network]?.anchorHeight,
        });
        networks.set(nodeConfig.network, network);
      }
      if (nodeConfig.family === "substrate" && !runtimes.has(network.slug))
        runtimes.set(network.slug, await loadRuntimeSnapshot(network));
      const node = new SimNode(nodeConfig, network, config.seed);
      const family = createFamily(nodeConfig.family, network, node, runtimes.get(network.slug));
      const websocket = nodeConfig.websocket ?? (nodeConfig.family === "ethereum" || nodeConfig.family === "substrate");
      const server = await startNodeServer({ node, family, websocket, headPollMs: config.headPollMs });
      const b = nodeConfig.beacon;
      const beacon = b
        ? await startBeaconServer(node, b.port, {
            lagSlots: b.lagSlots,
            optimistic: b.optimistic,
            elOffline: b.elOffline,
            peers: b.peers,
            version: b.version,
            drivesNode: b.drivesNode,
          }).catch(async (error: unknown) => {
            await server.close();
            throw error;
          })
        : null;
      if (b?.stalled) beacon?.setStalled(true);
      handles.push({
        name: nodeConfig.name,
        family: nodeConfig.family,
        network: nodeConfig.network,
        url: server.url,
        wsUrl: server.wsUrl,
        port: server.port,
        head: () => node.currentHead(),
        setStalled: (v) => node.setStalled(v),
        setLag: (n) => node.setLag(n),
        setErrorRate: (r, k) => node.setErrorRate(r, k),
        failNext: (n, k) => node.failNext(n, k),
        setSyncing: (v) => node.setSyncing(v),
        setPeers: (n) => node.setPeers(n),
        setLatency: (l) => node.setLatency(l),
        setMissingMethods: (m) => node.setMissingMethods(m),
        beacon,
        close: async () => {
          await beacon?.close();
          await server.close();
        },
      });
    }
  } catch (error) {
    await Promise.all(handles.map((h) => h.close()));
    throw error;
  }
  for (const w of config.witnesses) {
    const network = networks.get(w.network);
    if (network) witnessBookOf(network).configure(w);
  }
  for (const v of config.validators) {
    const network = networks.get(v.network);
    if (network) validatorBookOf(network).configure(v);
  }
  const simnet: Simnet = {
    controlUrl: null,
    config,
    nodes: handles,
    networks,
    witnesses(slug) {
      const network = networks.get(slug);
      if (!network || (network.info.chain !== "hive" && network.info.chain !== "steem"))
        throw new Error(`no hive/steem network ${slug} in this simnet`);
      return witnessBookOf(network);
    },
    validators(slug) {
      const network = networks.get(slug);
      if (!network || network.info.chain !== "polkadot")
        throw new Error(`no polkadot/kusama network ${slug} in this simnet`);
      return validatorBookOf(network);
    },
    node(name) {
      const found = handles.find((h) => h.name === name);
      if (!found) throw new Error(`no simnet node named ${name}`);
      return found;
    },
    async close() {
      await control?.close();
      await Promise.all(handles.map((h) => h.close()));
    },
  };
  let control: ControlServer | null = null;
  if (config.controlPort !== undefined) {
    try {
      control = await startControlServer(simnet, config.controlPort);
    } catch (error) {
      await Promise.all(handles.map((h) => h.close()));
      throw error;
    }
    simnet.controlUrl = control.url;
  }
  return simnet;
}
