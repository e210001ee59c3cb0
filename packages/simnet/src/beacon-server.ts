import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { deriveHex } from "./random.js";
import { SLOT_GENESIS_SECONDS } from "./network.js";
import type { SimNode } from "./sim-node.js";

/**
 * A consensus client's Beacon API beside a simulated Ethereum node, on its own port. Shapes from
 * https://ethereum.github.io/beacon-APIs/ (node: syncing, peer_count, version, health; beacon: genesis,
 * headers/head): quantities are decimal strings, every answer is wrapped in `data`.
 * Its head slot follows the network's head slot minus `lagSlots`. When it drives the node beside it
 * (`drivesNode`, the default) the execution node cannot get past the beacon head's execution block, as
 * after the merge an execution client imports only what its consensus client hands it: a beacon node
 * that falls behind stalls its execution client, as in real life. When the execution node is behind the
 * beacon head anyway (stalled on its own), the beacon node reports itself optimistic (it imports
 * blocks its execution client has not validated). With drivesNode false it drives some other EL: this
 * node's head moves on regardless (what the server's own-EL check reads as `el-ahead`).
 * blinded_blocks/head serves the head's execution_payload_header (block_number, block_hash: the same
 * hash the node's eth_getBlockByNumber gives for that height).
 */

export interface BeaconState {
  lagSlots: number;
  optimistic: boolean;
  elOffline: boolean;
  peers: number;
  version: string;
  /** This beacon node is the consensus client driving the execution node beside it (default true). */
  drivesNode?: boolean;
  /** Its head stopped at this execution block (a stuck consensus client: lost peers, hung); null: moving. */
  stalledAtBlock?: number | null;
}

export interface BeaconServer {
  url: string;
  port: number;
  state: BeaconState;
  /** Stop its head where it is now (stuck: it falls further behind every slot), or let it move again. */
  setStalled(stalled: boolean): void;
  close(): Promise<void>;
}

const SECONDS_PER_SLOT = 12;

export async function startBeaconServer(node: SimNode, port: number, state: BeaconState): Promise<BeaconServer> {
  const network = node.network;
  const genesis = SLOT_GENESIS_SECONDS[network.slug];
  if (genesis === undefined) throw new Error(`${network.slug} has no beacon chain`);
  const slotOf = (ms: number): number => Math.max(0, Math.floor((ms / 1000 - genesis) / SECONDS_PER_SLOT));
  const sockets = new Set<Socket>();
  // Slots and blocks are one to one on simnet's Ethereum (a block every 12 s slot).
  const execBlock = (): number => state.stalledAtBlock ?? Math.max(1, network.head() - state.lagSlots);
  node.headCap = () => (state.drivesNode === false ? Number.MAX_SAFE_INTEGER : execBlock());
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const nowMs = network.clock.now();
    const wall = slotOf(nowMs);
    const exec = execBlock();
    const head = slotOf(network.timeOfHeight(exec));
    const distance = Math.max(0, wall - head);
    const syncing = distance > 1;
    const optimistic = state.optimistic || (state.drivesNode !== false && node.currentHead() < exec - 1);
    const send = (status: number, body: unknown): void => {
      const text = JSON.stringify(body);
      res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
    };
    if (req.method !== "GET") return send(405, { code: 405, message: "Method not allowed" });
    switch (url.pathname) {
      case "/eth/v1/node/syncing":
        return send(200, {
          data: {
            head_slot: String(head),
            sync_distance: String(distance),
            is_syncing: syncing,
            is_optimistic: optimistic,
            el_offline: state.elOffline,
          },
        });
      case "/eth/v1/node/peer_count":
        return send(200, {
          data: { disconnected: "12", connecting: "0", connected: String(state.peers), disconnecting: "0" },
        });
      case "/eth/v1/node/version":
        return send(200, { data: { version: state.version } });
      case "/eth/v1/node/health":
        res.writeHead(syncing || state.elOffline ? 206 : 200);
        return void res.end();
      case "/eth/v1/beacon/genesis":
        return send(200, {
          data: {
            genesis_time: String(genesis),
            genesis_validators_root: deriveHex(32, network.seed, network.slug, "genesis-validators-root"),
            genesis_fork_version: "0x00000000",
          },
        });
      case "/eth/v1/beacon/headers/head":
        return send(200, {
          execution_optimistic: optimistic,
          finalized: false,
          data: {
            root: deriveHex(32, network.seed, network.slug, "beacon-root", head),
            canonical: true,
            header: {
              message: {
                slot: String(head),
                proposer_index: String(head % 1_000_000),
                parent_root: deriveHex(32, network.seed, network.slug, "beacon-root", head - 1),
                state_root: deriveHex(32, network.seed, network.slug, "beacon-state", head),
                body_root: deriveHex(32, network.seed, network.slug, "beacon-body", head),
              },
              signature: deriveHex(96, network.seed, network.slug, "beacon-sig", head),
            },
          },
        });
      case "/eth/v1/beacon/blinded_blocks/head":
        // SignedBlindedBeaconBlock (Deneb shape, trimmed to what readers use): the execution payload
        // header in place of the payload; `version` names the fork.
        return send(200, {
          version: "deneb",
          execution_optimistic: optimistic,
          finalized: false,
          data: {
            message: {
              slot: String(head),
              proposer_index: String(head % 1_000_000),
              parent_root: deriveHex(32, network.seed, network.slug, "beacon-root", head - 1),
              state_root: deriveHex(32, network.seed, network.slug, "beacon-state", head),
              body: {
                execution_payload_header: {
                  parent_hash: network.blockHashHex(exec - 1),
                  block_number: String(exec),
                  block_hash: network.blockHashHex(exec),
                  timestamp: String(Math.floor(network.timeOfHeight(exec) / 1000)),
                  transactions_root: deriveHex(32, network.seed, network.slug, "tx-root", exec),
                },
              },
            },
            signature: deriveHex(96, network.seed, network.slug, "beacon-sig", head),
          },
        });
      default:
        return send(404, { code: 404, message: "NOT_FOUND: route not found" });
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    state,
    setStalled: (stalled) => {
      state.stalledAtBlock = stalled ? execBlock() : null;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
