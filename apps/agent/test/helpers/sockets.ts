import net from "node:net";
import { once } from "node:events";

export interface Fixture {
  servers: net.Server[];
  sockets: net.Socket[];
  close(): Promise<void>;
}

export async function listen(server: net.Server, host: string): Promise<number> {
  server.listen(0, host);
  await once(server, "listening");
  return (server.address() as net.AddressInfo).port;
}

export async function connect(port: number, host: string, localAddress?: string): Promise<net.Socket> {
  const socket = net.connect({ port, host, ...(localAddress ? { localAddress } : {}) });
  await once(socket, "connect");
  return socket;
}

export function ipv6Available(): boolean {
  try {
    const s = net.createServer();
    s.listen(0, "::1").close();
    return true;
  } catch {
    return false;
  }
}
