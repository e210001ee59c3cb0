import { connect, createServer, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

/** Real loopback TCP traffic for the advisor scenarios (run inside their own network namespace). */

function open(port: number, localAddress?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: "127.0.0.1", port, ...(localAddress ? { localAddress } : {}) });
    s.once("connect", () => resolve(s));
    s.once("error", reject);
  });
}

/** Idle connections held open from the given local source addresses (127.0.0.0/8, or addresses added to lo). */
export async function startIdleConnections(
  port: number,
  clients: { from: string; count: number }[],
): Promise<() => Promise<void>> {
  const sockets: Socket[] = [];
  for (const c of clients) {
    for (let i = 0; i < c.count; i += 25) {
      const batch = await Promise.all(Array.from({ length: Math.min(25, c.count - i) }, () => open(port, c.from)));
      for (const s of batch) s.on("error", () => undefined);
      sockets.push(...batch);
    }
  }
  return async () => {
    for (const s of sockets) s.destroy();
  };
}

/** Short connections closed by this side first: each leaves a TIME_WAIT socket on the client side. */
export async function startChurn(port: number, o: { burst: number; perSecond: number }): Promise<() => Promise<void>> {
  const once = async () => {
    const s = await open(port);
    await new Promise<void>((resolve) => {
      s.once("close", () => resolve());
      s.on("error", () => resolve());
      s.end();
    });
  };
  for (let i = 0; i < o.burst; i += 50) await Promise.all(Array.from({ length: Math.min(50, o.burst - i) }, once));
  let running = true;
  const loop = (async () => {
    while (running) {
      await Promise.all(Array.from({ length: Math.ceil(o.perSecond / 10) }, once));
      await sleep(100);
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

/**
 * A server whose peers hang up. leak=true: it never closes its side (allowHalfOpen, no end()),
 * so every connection stays in CLOSE_WAIT — the application bug. leak=false: Node closes it.
 */
export async function startCloseWaitServer(
  port: number,
  o: { leak: boolean; perSecond: number; initial: number },
): Promise<() => Promise<void>> {
  const held: Socket[] = [];
  const server = createServer({ allowHalfOpen: o.leak }, (s) => {
    s.on("error", () => undefined);
    s.resume();
    held.push(s);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const hangUp = async (n: number) => {
    const clients = await Promise.all(Array.from({ length: n }, () => open(port)));
    for (const c of clients) {
      c.on("error", () => undefined);
      c.end();
    }
  };
  await hangUp(o.initial);
  let running = true;
  const loop = (async () => {
    while (running) {
      await sleep(250);
      await hangUp(Math.ceil(o.perSecond / 4));
    }
  })();
  return async () => {
    running = false;
    await loop;
    for (const s of held) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}

/**
 * slow=true: a listener with a tiny accept queue (backlog 1) in a child process whose event loop is
 * busy 90 % of the time (slow accept): connection bursts overflow the accept queue and the kernel
 * counts TcpExt ListenOverflows. slow=false: a normal listener (backlog 511) accepting promptly.
 * Clients hang up right after connecting (short requests), so nothing piles up.
 */
export async function startSlowAcceptor(
  port: number,
  o: { slow: boolean; clientsPerSecond: number },
): Promise<() => Promise<void>> {
  const { spawn } = await import("node:child_process");
  const script = `
    const net = require("node:net");
    const held = [];
    const s = net.createServer((c) => { c.on("error", () => {}); held.push(c); });
    s.listen({ port: ${port}, host: "127.0.0.1", backlog: ${o.slow ? 1 : 511} }, () => process.stdout.write("ready\\n"));
    ${o.slow ? "setInterval(() => { const t = Date.now(); while (Date.now() - t < 900) {} }, 1000);" : ""}
  `;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  const clients: Socket[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      for (let i = 0; i < Math.ceil(o.clientsPerSecond / 4); i++) {
        const c = connect({ host: "127.0.0.1", port });
        c.on("error", () => undefined);
        c.once("connect", () => c.end());
        clients.push(c);
      }
      await sleep(250);
    }
  })();
  return async () => {
    running = false;
    await loop;
    for (const c of clients) c.destroy();
    child.kill();
  };
}
