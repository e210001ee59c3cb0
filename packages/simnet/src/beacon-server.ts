import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { deriveHex } from "./random.js";
import { SLOT_GENESIS_SECONDS } from "./network.js";
import type { SimNode } from "./sim-node.js";

/**
 * A consensus client's Beacon API beside a simulated Ethereum node, on its own port. Shapes from
 * https://ethereum.github.io/beacon-APIs/ (node: syncing, peer_count, version, health; beacon: genesis,
 * headers/head): quantities are decimal strings, every answer is wrapped in `data`.
 * Its head slot follows the execution node's head (the slot of that block) minus `lagSlots`, so a
 * beacon node that falls behind (setLag) is what stalls its execution client in real life.
 */

export interface BeaconState {
  lagSlots: number;
  optimistic: boolean;
  elOffline: boolean;
  peers: number;
  version: string;
}

export interface BeaconServer {
  url: string;
  port: number;
  state: BeaconState;
  close(): Promise<void>;
}

const SECONDS_PER_SLOT = 12;

export async function startBeaconServer(node: SimNode, port: number, state: BeaconState): Promise<BeaconServer> {
  const network = node.network;
  const genesis = SLOT_GENESIS_SECONDS[network.slug];
  if (genesis === undefined) throw new Error(`${network.slug} has no beacon chain`);
  const slotOf = (ms: number): number => Math.max(0, Math.floor((ms / 1000 - genesis) / SECONDS_PER_SLOT));
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const nowMs = network.clock.now();
    const wall = slotOf(nowMs);
    const head = Math.max(0, slotOf(network.timeOfHeight(node.currentHead())) - state.lagSlots);
    const distance = Math.max(0, wall - head);
    const syncing = distance > 1;
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
            is_optimistic: state.optimistic,
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
          execution_optimistic: state.optimistic,
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
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
