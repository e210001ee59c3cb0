import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";

export interface TestServer {
  port: number;
  host: string;
  /** Base URL, host bracketed when IPv6. */
  url: string;
  /** TCP connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/** A node:http server on `host` (default 127.0.0.1), random port, counting accepted connections. */
export async function startHttpServer(
  handler: http.RequestListener,
  host = "127.0.0.1",
  port = 0,
): Promise<TestServer> {
  const server = http.createServer(handler);
  let count = 0;
  server.on("connection", () => count++);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    port: actual,
    host,
    url: `http://${shown}:${actual}`,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Canary {
  port: number;
  /** Connections seen on 127.0.0.1 and on ::1 together. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * A raw TCP listener on 127.0.0.1 AND ::1 at the same port that records every connection it sees.
 * An SSRF test points its forbidden URLs at this port: any leak shows up as a connection.
 */
export async function startCanary(): Promise<Canary> {
  for (let attempt = 0; attempt < 20; attempt++) {
    let seen = 0;
    const onConn = (s: net.Socket): void => {
      seen++;
      s.destroy();
    };
    const v4 = net.createServer(onConn);
    await new Promise<void>((resolve) => v4.listen(0, "127.0.0.1", () => resolve()));
    const port = (v4.address() as AddressInfo).port;
    const v6 = net.createServer(onConn);
    const ok = await new Promise<boolean>((resolve) => {
      v6.once("error", () => resolve(false));
      v6.listen(port, "::1", () => resolve(true));
    });
    if (!ok) {
      await new Promise<void>((resolve) => v4.close(() => resolve()));
      continue;
    }
    return {
      port,
      connections: () => seen,
      close: async () => {
        await new Promise<void>((resolve) => v4.close(() => resolve()));
        await new Promise<void>((resolve) => v6.close(() => resolve()));
      },
    };
  }
  throw new Error("could not bind a canary on 127.0.0.1 and ::1 with one port");
}
