import { createSocket, type Socket } from "node:dgram";
import { Resolver } from "node:dns/promises";

/**
 * A tiny authoritative DNS server on 127.0.0.1 (UDP) answering TXT questions from a table, for the
 * claim tests: NXDOMAIN for names it does not know, an empty answer for other question types.
 * Each TXT record is a list of character-strings (chunks), as on the wire.
 */
export interface TxtDnsServer {
  port: number;
  records: Map<string, string[][]>;
  queries: string[];
  /** A resolver (node:dns) that asks only this server. */
  resolveTxt(name: string): Promise<string[][]>;
  close(): Promise<void>;
}

function readName(msg: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let i = offset;
  while (i < msg.length) {
    const len = msg[i]!;
    if (len === 0) return { name: labels.join("."), end: i + 1 };
    labels.push(msg.subarray(i + 1, i + 1 + len).toString("ascii"));
    i += 1 + len;
  }
  throw new Error("truncated name");
}

function answer(query: Buffer, records: Map<string, string[][]>, log: string[]): Buffer {
  const { name, end } = readName(query, 12);
  const qtype = query.readUInt16BE(end);
  const question = query.subarray(12, end + 4);
  const key = name.toLowerCase();
  log.push(key);
  const found = records.get(key);
  const rrs: Buffer[] = [];
  if (found && qtype === 16) {
    for (const chunks of found) {
      const rdata = Buffer.concat(
        chunks.map((c) => Buffer.concat([Buffer.from([Buffer.byteLength(c)]), Buffer.from(c)])),
      );
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0); // pointer to the question's name
      rr.writeUInt16BE(16, 2); // TXT
      rr.writeUInt16BE(1, 4); // IN
      rr.writeUInt32BE(30, 6); // TTL
      rr.writeUInt16BE(rdata.length, 10);
      rrs.push(rr, rdata);
    }
  }
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // id
  header.writeUInt16BE(found ? 0x8400 : 0x8403, 2); // response, authoritative, NOERROR / NXDOMAIN
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(found && qtype === 16 ? found.length : 0, 6);
  return Buffer.concat([header, question, ...rrs]);
}

export async function startTxtDnsServer(): Promise<TxtDnsServer> {
  const socket: Socket = createSocket("udp4");
  const records = new Map<string, string[][]>();
  const queries: string[] = [];
  socket.on("message", (msg, rinfo) => {
    try {
      socket.send(answer(msg, records, queries), rinfo.port, rinfo.address);
    } catch {
      // malformed question: no answer (the resolver times out), as a real server might
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const port = socket.address().port;
  const resolver = new Resolver({ timeout: 1_000, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  return {
    port,
    records,
    queries,
    resolveTxt: (name) => resolver.resolveTxt(name),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
