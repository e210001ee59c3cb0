import { closeSync, openSync, readSync } from "node:fs";
import { endianness } from "node:os";
import { join } from "node:path";
import type { OutboundGroup, PortRange, RemoteIpsGroup, TcpGroup, TcpStateCounts } from "@rpcpulse/domain";
import { AddrTable, COL_ESTABLISHED, COL_SOCKETS, COL_TIME_WAIT, formatAddress } from "./addr-table.js";

/**
 * Scanner of /proc/net/tcp and /proc/net/tcp6 (format: Documentation/networking/proc_net_tcp.rst).
 *
 * Cost model: each file is read with a few large read(2) calls into one reused buffer and scanned
 * byte by byte in place. Nothing is allocated per line: hex fields are decoded through a lookup
 * table into scratch typed arrays, and per-IP / per-destination counts live in AddrTable.
 *
 * Listening sockets come first in each file (the kernel walks the listening hash before the
 * established hash), so the scanner first reads the LISTEN section of both files, then the rest:
 * every connection is classified against the complete set of listening ports without a second
 * pass over the data.
 *
 * Inbound or outbound: a socket whose local port is listening, or was listening within
 * RECENT_LISTEN_MS (a server that exited leaves its TIME_WAIT behind for 60 s), or lies outside the
 * ephemeral port range (no connect() picks such a port by itself) belongs to a server: inbound. The
 * rest hold an ephemeral port: outbound.
 */

/** Kernel state codes (include/net/tcp_states.h). */
export const TCP_ESTABLISHED = 1;
export const TCP_SYN_SENT = 2;
export const TCP_SYN_RECV = 3;
export const TCP_FIN_WAIT1 = 4;
export const TCP_FIN_WAIT2 = 5;
export const TCP_TIME_WAIT = 6;
export const TCP_CLOSE = 7;
export const TCP_CLOSE_WAIT = 8;
export const TCP_LAST_ACK = 9;
export const TCP_LISTEN = 10;
export const TCP_CLOSING = 11;

/** How long a port that stopped listening still makes its sockets inbound (TIME_WAIT lasts 60 s). */
export const RECENT_LISTEN_MS = 180_000;

const monotonicMs = (): number => Number(process.hrtime.bigint() / 1_000_000n);

const STATE_KEYS: readonly (keyof TcpStateCounts)[] = [
  "established",
  "synSent",
  "synRecv",
  "finWait1",
  "finWait2",
  "timeWait",
  "close",
  "closeWait",
  "lastAck",
  "listen",
  "closing",
];

const HEX = new Int8Array(256).fill(-1);
for (let c = 0; c < 10; c++) HEX[0x30 + c] = c;
for (let c = 0; c < 6; c++) {
  HEX[0x41 + c] = 10 + c;
  HEX[0x61 + c] = 10 + c;
}
const LITTLE_ENDIAN = endianness() === "LE";
const NL = 0x0a;
const SP = 0x20;
const COLON = 0x3a;

export interface TcpScanOptions {
  /** Directory holding net/tcp, net/tcp6 (default /proc; tests and benches may point elsewhere). */
  procRoot?: string;
  /** Ports whose remote IPs are counted; null = the listening ports. */
  publicPorts: readonly number[] | null;
  topN: number;
  /** Ephemeral range for the outbound usage ratio and the in/out split; null when unknown. */
  portRange: PortRange | null;
  /** Clock of the listening-port memory (ms, monotonic by default; tests pass their own). */
  nowMs?: number;
}

export interface TcpScanResult {
  tcp: TcpGroup;
  remoteIps: RemoteIpsGroup;
  outbound: OutboundGroup;
}

class TableReader {
  fd = -1;
  buf: Buffer;
  start = 0;
  end = 0;
  eof = false;
  headerSkipped = false;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }

  open(path: string): boolean {
    this.start = 0;
    this.end = 0;
    this.eof = false;
    this.headerSkipped = false;
    try {
      this.fd = openSync(path, "r");
      return true;
    } catch {
      this.fd = -1;
      this.eof = true;
      return false;
    }
  }

  /** Move the unparsed tail to the front and read more; false at end of file. */
  fill(): boolean {
    if (this.eof) return false;
    if (this.start > 0) {
      this.buf.copy(this.buf, 0, this.start, this.end);
      this.end -= this.start;
      this.start = 0;
    }
    if (this.end === this.buf.length) {
      // A single line longer than the buffer: grow (never happens with the kernel's format).
      const bigger = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(bigger, 0, 0, this.end);
      this.buf = bigger;
    }
    const n = readSync(this.fd, this.buf, this.end, this.buf.length - this.end, null);
    if (n === 0) {
      this.eof = true;
      return false;
    }
    this.end += n;
    return true;
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

export class TcpScanner {
  private readonly procRoot: string;
  private readonly r4 = new TableReader(256 * 1024);
  private readonly r6 = new TableReader(256 * 1024);
  private readonly listen = new Uint8Array(65536);
  /** When each port was last seen listening (nowMs of that scan); NaN = never. Kept across scans. */
  private readonly listenSeenAt = new Float64Array(65536).fill(Number.NaN);
  private now = 0;
  private rangeLow = 0;
  private rangeHigh = 65535;
  private readonly publicFlags = new Uint8Array(65536);
  private readonly states = new Uint32Array(12);
  private readonly remotes = new AddrTable(4, 4096);
  private readonly dests = new AddrTable(5, 1024);
  /** Scratch: remote address (4 words) + remote port. */
  private readonly key = new Uint32Array(5);
  private v4 = 0;
  private v6 = 0;
  private twIn = 0;
  private twOut = 0;
  private malformed = 0;
  private lport = 0;
  private rport = 0;

  constructor(procRoot = "/proc") {
    this.procRoot = procRoot;
  }

  /** Lines the last scan could not parse (0 on a sane kernel; exposed for tests). */
  get malformedLines(): number {
    return this.malformed;
  }

  scan(options: TcpScanOptions): TcpScanResult {
    const t0 = process.hrtime.bigint();
    this.listen.fill(0);
    this.states.fill(0);
    this.remotes.clear();
    this.dests.clear();
    this.v4 = this.v6 = this.twIn = this.twOut = this.malformed = 0;

    this.now = options.nowMs ?? monotonicMs();
    this.rangeLow = options.portRange?.low ?? 0;
    this.rangeHigh = options.portRange?.high ?? 65535;
    const root = options.procRoot ?? this.procRoot;
    const has4 = this.r4.open(join(root, "net/tcp"));
    const has6 = this.r6.open(join(root, "net/tcp6"));
    if (!has4 && !has6) throw new Error(`cannot open ${root}/net/tcp or tcp6`);
    try {
      this.consume(this.r4, true);
      this.consume(this.r6, true);
      this.publicFlags.fill(0);
      if (options.publicPorts) for (const p of options.publicPorts) this.publicFlags[p] = 1;
      else this.publicFlags.set(this.listen);
      this.consume(this.r4, false);
      this.consume(this.r6, false);
    } finally {
      this.r4.close();
      this.r6.close();
    }
    const scanMs = Number(process.hrtime.bigint() - t0) / 1e6;
    return this.result(options, scanMs);
  }

  /** Parse lines; with listenersOnly, stop before the first non-LISTEN line. */
  private consume(r: TableReader, listenersOnly: boolean): void {
    if (r.fd < 0) return;
    for (;;) {
      const buf = r.buf;
      const nl = buf.indexOf(NL, r.start);
      if (nl < 0 || nl >= r.end) {
        if (!r.fill()) {
          if (r.end > r.start && !listenersOnly) {
            // Last line without a newline.
            this.line(r.buf, r.start, r.end, false);
            r.start = r.end;
          }
          return;
        }
        continue;
      }
      if (!r.headerSkipped) {
        r.headerSkipped = true;
        r.start = nl + 1;
        continue;
      }
      if (!this.line(buf, r.start, nl, listenersOnly)) return;
      r.start = nl + 1;
    }
  }

  /** Parse one line in buf[p, e). Returns false (without consuming) when listenersOnly meets a connection. */
  private line(buf: Buffer, p: number, e: number, listenersOnly: boolean): boolean {
    let i = p;
    while (i < e && buf[i] === SP) i++;
    while (i < e && buf[i] !== COLON) i++; // "sl:"
    i++;
    while (i < e && buf[i] === SP) i++;
    const la = i;
    while (i < e && buf[i] !== COLON) i++;
    const alen = i - la;
    // local ":PPPP " + remote addr ":PPPP " + "SS"
    if ((alen !== 8 && alen !== 32) || i + alen + 14 > e) {
      if (e > p) this.malformed++;
      return true;
    }
    const st = (HEX[buf[i + alen + 12]!]! << 4) | HEX[buf[i + alen + 13]!]!;
    if (st < 1 || st > 11) {
      this.malformed++;
      return true;
    }
    this.lport = this.hex16(buf, i + 1);
    if (st === TCP_LISTEN) {
      this.states[st]!++;
      if (alen === 8) this.v4++;
      else this.v6++;
      this.listen[this.lport] = 1;
      this.listenSeenAt[this.lport] = this.now;
      return true;
    }
    if (listenersOnly) return false;
    const ra = i + 6;
    if (!this.addr(buf, ra, alen)) {
      this.malformed++;
      return true;
    }
    this.rport = this.hex16(buf, ra + alen + 1);
    this.states[st]!++;
    if (alen === 8) this.v4++;
    else this.v6++;
    const inbound = this.isServerPort(this.lport);
    if (st === TCP_TIME_WAIT) {
      if (inbound) this.twIn++;
      else this.twOut++;
    }
    if (st === TCP_CLOSE) return true; // bound or closed, no peer
    if (this.publicFlags[this.lport] === 1) {
      const s = this.remotes.slotOf(this.key); // first 4 words: the address
      if (st === TCP_TIME_WAIT) this.remotes.add(s, COL_TIME_WAIT);
      else {
        this.remotes.add(s, COL_SOCKETS);
        if (st === TCP_ESTABLISHED) this.remotes.add(s, COL_ESTABLISHED);
      }
    }
    if (!inbound) {
      this.key[4] = this.rport;
      const s = this.dests.slotOf(this.key);
      this.dests.add(s, COL_SOCKETS);
      if (st === TCP_ESTABLISHED) this.dests.add(s, COL_ESTABLISHED);
      else if (st === TCP_TIME_WAIT) this.dests.add(s, COL_TIME_WAIT);
    }
    return true;
  }

  /** Listening now or within RECENT_LISTEN_MS, or outside the ephemeral range: the socket is a server's. */
  private isServerPort(port: number): boolean {
    if (this.listen[port] === 1) return true;
    if (port < this.rangeLow || port > this.rangeHigh) return true;
    return this.now - this.listenSeenAt[port]! <= RECENT_LISTEN_MS; // NaN (never seen) compares false
  }

  private hex16(buf: Buffer, i: number): number {
    return (HEX[buf[i]!]! << 12) | (HEX[buf[i + 1]!]! << 8) | (HEX[buf[i + 2]!]! << 4) | HEX[buf[i + 3]!]!;
  }

  /** Decode 8 hex digits printed from a host-order u32 into the network-order value. */
  private word(buf: Buffer, i: number): number {
    let v = 0;
    let bad = 0;
    for (let k = 0; k < 8; k++) {
      const h = HEX[buf[i + k]!]!;
      bad |= h;
      v = (v << 4) | (h & 15);
    }
    if (bad < 0) return -1;
    if (LITTLE_ENDIAN) v = ((v & 0xff) << 24) | ((v & 0xff00) << 8) | ((v >>> 8) & 0xff00) | (v >>> 24);
    return v >>> 0;
  }

  /** Remote address into key[0..4): IPv4 and IPv4-mapped IPv6 both become ::ffff:a.b.c.d. */
  private addr(buf: Buffer, i: number, alen: number): boolean {
    const key = this.key;
    if (alen === 8) {
      const w = this.word(buf, i);
      if (w < 0) return false;
      key[0] = 0;
      key[1] = 0;
      key[2] = 0xffff;
      key[3] = w;
      return true;
    }
    for (let k = 0; k < 4; k++) {
      const w = this.word(buf, i + 8 * k);
      if (w < 0) return false;
      key[k] = w;
    }
    return true;
  }

  private result(options: TcpScanOptions, scanMs: number): TcpScanResult {
    const states = {} as TcpStateCounts;
    let total = 0;
    for (let s = 1; s <= 11; s++) {
      states[STATE_KEYS[s - 1]!] = this.states[s]!;
      total += this.states[s]!;
    }
    const listeningPorts: number[] = [];
    for (let p = 1; p < 65536 && listeningPorts.length < 256; p++) if (this.listen[p] === 1) listeningPorts.push(p);
    const publicPorts = options.publicPorts ? [...new Set(options.publicPorts)].sort((a, b) => a - b) : listeningPorts;

    const topN = Math.max(0, Math.min(100, options.topN));
    let totalConnections = 0;
    for (let i = 0; i < this.remotes.size; i++)
      totalConnections += this.remotes.value(this.remotes.slotAt(i), COL_SOCKETS);
    const remoteTop = topSlots(this.remotes, topN, COL_SOCKETS, COL_TIME_WAIT).map((s) => ({
      ip: formatAddress(
        this.remotes.keyWord(s, 0),
        this.remotes.keyWord(s, 1),
        this.remotes.keyWord(s, 2),
        this.remotes.keyWord(s, 3),
      ),
      connections: this.remotes.value(s, COL_SOCKETS),
      established: this.remotes.value(s, COL_ESTABLISHED),
      timeWait: this.remotes.value(s, COL_TIME_WAIT),
    }));

    let totalSockets = 0;
    for (let i = 0; i < this.dests.size; i++) totalSockets += this.dests.value(this.dests.slotAt(i), COL_SOCKETS);
    const rangeSize = options.portRange?.size ?? 0;
    const destTop = topSlots(this.dests, topN, COL_SOCKETS, COL_TIME_WAIT).map((s) => {
      const sockets = this.dests.value(s, COL_SOCKETS);
      return {
        ip: formatAddress(
          this.dests.keyWord(s, 0),
          this.dests.keyWord(s, 1),
          this.dests.keyWord(s, 2),
          this.dests.keyWord(s, 3),
        ),
        port: this.dests.keyWord(s, 4),
        sockets,
        established: this.dests.value(s, COL_ESTABLISHED),
        timeWait: this.dests.value(s, COL_TIME_WAIT),
        portRangeUsage: rangeSize > 0 ? Math.round((sockets / rangeSize) * 1e6) / 1e6 : 0,
      };
    });

    return {
      tcp: {
        states,
        total,
        ipv4: this.v4,
        ipv6: this.v6,
        timeWaitInbound: this.twIn,
        timeWaitOutbound: this.twOut,
        listeningPorts,
        scanMs: Math.round(scanMs * 1000) / 1000,
      },
      remoteIps: { ports: publicPorts, distinctIps: this.remotes.size, totalConnections, top: remoteTop },
      outbound: { portRange: options.portRange, distinctDestinations: this.dests.size, totalSockets, top: destTop },
    };
  }
}

/** The n slots with the highest `col` (ties: higher `tie`, then lower key), without sorting all entries. */
function topSlots(table: AddrTable, n: number, col: number, tie: number): number[] {
  const top: number[] = [];
  if (n === 0) return top;
  const better = (a: number, b: number): boolean => {
    const d = table.value(a, col) - table.value(b, col);
    if (d !== 0) return d > 0;
    const t = table.value(a, tie) - table.value(b, tie);
    if (t !== 0) return t > 0;
    for (let w = 0; w < table.keyWords; w++) {
      const k = table.keyWord(a, w) - table.keyWord(b, w);
      if (k !== 0) return k < 0;
    }
    return false;
  };
  for (let i = 0; i < table.size; i++) {
    const s = table.slotAt(i);
    if (top.length === n && !better(s, top[n - 1]!)) continue;
    let j = top.length < n ? top.length : n - 1;
    while (j > 0 && better(s, top[j - 1]!)) {
      if (j < n) top[j] = top[j - 1]!;
      j--;
    }
    top[j] = s;
  }
  return top;
}
