// Demo only: real local load that makes one node look flooded by a single client IP.
// Holds --connections keep-alive connections from --from to 127.0.0.1:--port, each sending a
// JSON-RPC request every --every ms, and reopens what the server closes. The target is always
// 127.0.0.1, so nothing leaves the host; --from is a loopback address (the advisor reads it as a
// local proxy and proposes no per-IP limits) or one of this host's own IPv4 addresses (a client to
// the advisor). Bounded in connections and time (--minutes), stops on SIGINT/SIGTERM.
//   tsx scripts/demo-flood.ts --port 18091 --from 127.0.0.77 --connections 150
import net from "node:net";
import { networkInterfaces } from "node:os";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "18091" },
    from: { type: "string", default: "127.0.0.77" },
    connections: { type: "string", default: "150" },
    every: { type: "string", default: "2000" },
    minutes: { type: "string", default: "360" },
  },
});

function fail(message: string): never {
  process.stderr.write(`demo-flood: ${message}\n`);
  process.exit(2);
}

const port = Number(values.port);
const connections = Number(values.connections);
const every = Number(values.every);
const minutes = Number(values.minutes);
if (!Number.isInteger(port) || port < 1 || port > 65_535) fail("--port must be a TCP port");
const ownIpv4 = Object.values(networkInterfaces())
  .flat()
  .some((a) => a?.family === "IPv4" && a.address === values.from);
if (!/^127\.\d+\.\d+\.\d+$/.test(values.from) && !ownIpv4)
  fail("--from must be a loopback address (127.x.y.z) or an IPv4 address of this host");
if (!Number.isInteger(connections) || connections < 1 || connections > 2000) fail("--connections must be 1-2000");
if (!Number.isFinite(every) || every < 100) fail("--every must be at least 100 (ms)");
if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 24 * 60) fail("--minutes must be in (0, 1440]");

const body = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "condenser_api.get_dynamic_global_properties",
  params: [],
});
const request =
  `POST / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
  `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n${body}`;

let stopping = false;
const sockets = new Set<net.Socket>();

function open(): void {
  if (stopping) return;
  const socket = net.connect({ host: "127.0.0.1", port, localAddress: values.from });
  sockets.add(socket);
  const timer = setInterval(() => socket.writable && socket.write(request), every);
  socket.on("connect", () => socket.write(request));
  socket.on("data", () => undefined);
  socket.on("error", () => undefined);
  socket.on("close", () => {
    clearInterval(timer);
    sockets.delete(socket);
    // Reopen after a pause, so a stopped node is not hammered with connection attempts.
    if (!stopping) setTimeout(open, 1000 + Math.random() * 1000);
  });
}

function stop(): void {
  stopping = true;
  for (const s of sockets) s.destroy();
  setTimeout(() => process.exit(0), 200);
}

for (let i = 0; i < connections; i++) setTimeout(open, i * 10);
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
setTimeout(stop, minutes * 60_000);
process.stdout.write(`flooding 127.0.0.1:${port} from ${values.from} with ${connections} connections\n`);
