import { once } from "node:events";
import { createConnection, createServer, type Socket } from "node:net";

/**
 * A TCP proxy in front of a real server that a test can cut and restore: cut() closes every open
 * connection and refuses new ones (connections are accepted and closed at once, as a dead server
 * behind a load balancer looks), restore() forwards again. An honest "PostgreSQL unreachable" for
 * one process without touching the shared server.
 */
export interface TcpProxy {
  port: number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = "127.0.0.1"): Promise<TcpProxy> {
  let open = true;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  };
  const server = createServer((client) => {
    track(client);
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ port: targetPort, host: targetHost });
    track(upstream);
    client.pipe(upstream).pipe(client);
    upstream.on("close", () => client.destroy());
    client.on("close", () => upstream.destroy());
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : 0,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
