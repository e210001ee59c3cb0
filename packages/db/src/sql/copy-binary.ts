/**
 * PostgreSQL binary COPY: an encoder for the tuple format and `copyFromStdin`, which streams one
 * encoded buffer through a pg connection (the protocol messages pg already implements; no extra
 * dependency). Binary COPY skips text formatting in Node and text parsing in the server, which is
 * what lets the ingest writer keep up with `psql \copy`.
 */

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
const PG_EPOCH_MS = 946_684_800_000; // 2000-01-01T00:00:00Z
const TWO_32 = 4_294_967_296;

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

/** As Buffer#writeInt32BE and friends: an integer outside the field's range is a RangeError, never wrapped. */
function outOfRange(value: number, min: number, max: number): RangeError {
  return new RangeError(`The value of "value" is out of range. It must be >= ${min} and <= ${max}. Received ${value}`);
}

/** int8 field (length + two's complement) at `at` of `view`: the bytes of writeInt32BE(hi) + writeUInt32BE(lo). */
export function putInt8(view: DataView, at: number, value: number): void {
  const hi = Math.floor(value / TWO_32);
  if (hi > INT32_MAX || hi < INT32_MIN) throw outOfRange(hi, INT32_MIN, INT32_MAX);
  const lo = value - hi * TWO_32;
  if (lo > 4_294_967_295 || lo < 0) throw outOfRange(lo, 0, 4_294_967_295);
  view.setInt32(at, 8);
  view.setInt32(at + 4, hi);
  view.setUint32(at + 8, lo);
}

/** int4 field at `at` (12 bytes: 8). */
export function putInt4(view: DataView, at: number, value: number): void {
  if (value > INT32_MAX || value < INT32_MIN) throw outOfRange(value, INT32_MIN, INT32_MAX);
  view.setInt32(at, 4);
  view.setInt32(at + 4, value);
}

/** int2 field at `at` (6 bytes). */
export function putInt2(view: DataView, at: number, value: number): void {
  if (value > 32_767 || value < -32_768) throw outOfRange(value, -32_768, 32_767);
  view.setInt32(at, 2);
  view.setInt16(at + 4, value);
}

/** timestamptz field from epoch milliseconds at `at` (12 bytes, microseconds kept). */
export function putTimestampMs(view: DataView, at: number, epochMs: number): void {
  putInt8(view, at, Math.round((epochMs - PG_EPOCH_MS) * 1000));
}

/**
 * Rows are written in place through a DataView over one growing buffer (no Buffer#write* call per
 * field: those re-check their arguments and were most of the encoding time of a flush). The bytes
 * are those of the Buffer#write* calls, range errors included (see test/copy-binary-encoder.test.ts).
 */
export class BinaryCopyEncoder {
  private buf: Buffer;
  private view: DataView;
  private pos = 0;
  rows = 0;

  constructor(initialBytes = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(Math.max(initialBytes, 64));
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    SIGNATURE.copy(this.buf, 0);
    this.view.setInt32(11, 0); // flags
    this.view.setInt32(15, 0); // header extension length
    this.pos = 19;
  }

  /**
   * A caller writing a whole row itself (the put* functions): room for `bytes` more, then the view
   * to write into from `offset`; it sets `offset` past the row and counts it in `rows`.
   */
  get offset(): number {
    return this.pos;
  }

  set offset(at: number) {
    this.pos = at;
  }

  get dataView(): DataView {
    return this.view;
  }

  /** The buffer `dataView` views (valid until the next reserve). */
  get bytes(): Buffer {
    return this.buf;
  }

  /** Make room for `bytes` more. */
  reserve(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
    this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
  }

  startRow(fields: number): void {
    this.reserve(2);
    if (fields > 32_767 || fields < -32_768) throw outOfRange(fields, -32_768, 32_767);
    this.view.setInt16(this.pos, fields);
    this.pos += 2;
    this.rows++;
  }

  null(): void {
    this.reserve(4);
    this.view.setInt32(this.pos, -1);
    this.pos += 4;
  }

  int2(value: number): void {
    this.reserve(6);
    putInt2(this.view, this.pos, value);
    this.pos += 6;
  }

  int4(value: number): void {
    this.reserve(8);
    putInt4(this.view, this.pos, value);
    this.pos += 8;
  }

  /** Any safe integer (|v| < 2^53), written as a two's-complement int8. */
  int8(value: number): void {
    this.reserve(12);
    putInt8(this.view, this.pos, value);
    this.pos += 12;
  }

  float4(value: number): void {
    this.reserve(8);
    this.view.setInt32(this.pos, 4);
    this.view.setFloat32(this.pos + 4, value);
    this.pos += 8;
  }

  bool(value: boolean): void {
    this.reserve(5);
    this.view.setInt32(this.pos, 1);
    this.buf[this.pos + 4] = value ? 1 : 0;
    this.pos += 5;
  }

  /** timestamptz from epoch milliseconds (microsecond resolution kept). */
  timestampMs(epochMs: number): void {
    this.int8(Math.round((epochMs - PG_EPOCH_MS) * 1000));
  }

  /** 16 raw bytes (see uuidBytes). */
  uuid(bytes: Buffer): void {
    this.reserve(20);
    this.view.setInt32(this.pos, 16);
    bytes.copy(this.buf, this.pos + 4, 0, 16);
    this.pos += 20;
  }

  /** inet host address from 4 (IPv4) or 16 (IPv6) raw bytes (see ipBytes). */
  inet(address: Buffer): void {
    const v4 = address.length === 4;
    this.reserve(8 + address.length);
    this.view.setInt32(this.pos, 4 + address.length);
    this.buf[this.pos + 4] = v4 ? 2 : 3; // PGSQL_AF_INET / PGSQL_AF_INET6
    this.buf[this.pos + 5] = v4 ? 32 : 128;
    this.buf[this.pos + 6] = 0; // not cidr
    this.buf[this.pos + 7] = address.length;
    address.copy(this.buf, this.pos + 8);
    this.pos += 8 + address.length;
  }

  /**
   * inet from its text, as inet(ipBytes(ip)) (same bytes, same TypeError on junk), with an IPv4
   * address parsed straight into the row: no Buffer and no array per remote-IP row.
   */
  inetText(ip: string): void {
    this.reserve(12);
    const at = this.pos + 8;
    if (ip.includes(":") || !writeIpv4(ip, this.buf, at)) {
      this.inet(ipBytes(ip));
      return;
    }
    this.view.setInt32(this.pos, 8);
    this.buf[this.pos + 4] = 2; // PGSQL_AF_INET
    this.buf[this.pos + 5] = 32;
    this.buf[this.pos + 6] = 0;
    this.buf[this.pos + 7] = 4;
    this.pos += 12;
  }

  /** The complete COPY payload (with trailer); the encoder must not be used afterwards. */
  finish(): Buffer {
    this.reserve(2);
    this.view.setInt16(this.pos, -1);
    this.pos += 2;
    return this.buf.subarray(0, this.pos);
  }
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function uuidBytes(uuid: string): Buffer {
  if (!UUID_RE.test(uuid)) throw new TypeError("not a uuid");
  return Buffer.from(uuid.replaceAll("-", ""), "hex");
}

/** Raw bytes of a textual IPv4 or IPv6 address (IPv4-mapped IPv6 stays IPv6); throws on junk. */
export function ipBytes(ip: string): Buffer {
  if (ip.includes(":")) return ipv6Bytes(ip);
  const v4 = ipv4Parts(ip);
  if (!v4) throw new TypeError("not an IP address");
  return Buffer.from(v4);
}

/** Four dot-separated decimal parts of 1-3 digits, each at most 255; one pass, no split or regex (one per remote-IP row). */
function ipv4Parts(ip: string): number[] | undefined {
  const out: number[] = [];
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= ip.length; i++) {
    // A '.' after the last character closes the last part.
    const c = i < ip.length ? ip.charCodeAt(i) : 46;
    if (c >= 48 && c <= 57) {
      if (++digits > 3) return undefined;
      value = value * 10 + (c - 48);
    } else if (c === 46) {
      if (digits === 0 || value > 255 || out.length === 4) return undefined;
      out.push(value);
      value = 0;
      digits = 0;
    } else return undefined;
  }
  return out.length === 4 ? out : undefined;
}

/** ipv4Parts written into out[at..at+3]; false (bytes there undefined) where ipv4Parts refuses. */
function writeIpv4(ip: string, out: Buffer, at: number): boolean {
  let parts = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= ip.length; i++) {
    const c = i < ip.length ? ip.charCodeAt(i) : 46;
    if (c >= 48 && c <= 57) {
      if (++digits > 3) return false;
      value = value * 10 + (c - 48);
    } else if (c === 46) {
      if (digits === 0 || value > 255 || parts === 4) return false;
      out[at + parts++] = value;
      value = 0;
      digits = 0;
    } else return false;
  }
  return parts === 4;
}

function ipv6Bytes(ip: string): Buffer {
  const out = Buffer.alloc(16);
  const halves = ip.split("::");
  if (halves.length > 2) throw new TypeError("not an IP address");
  const groups = (text: string): number[] => {
    if (text === "") return [];
    const words: number[] = [];
    const parts = text.split(":");
    parts.forEach((part, i) => {
      if (i === parts.length - 1 && part.includes(".")) {
        const v4 = ipv4Parts(part);
        if (!v4) throw new TypeError("not an IP address");
        words.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
        return;
      }
      if (!/^[0-9a-f]{1,4}$/i.test(part)) throw new TypeError("not an IP address");
      words.push(parseInt(part, 16));
    });
    return words;
  };
  const head = groups(halves[0] ?? "");
  const tail = halves.length === 2 ? groups(halves[1] ?? "") : [];
  if (halves.length === 1 ? head.length !== 8 : head.length + tail.length > 7) throw new TypeError("not an IP address");
  head.forEach((w, i) => out.writeUInt16BE(w, i * 2));
  tail.forEach((w, i) => out.writeUInt16BE(w, (8 - tail.length + i) * 2));
  return out;
}

/** A single pg session (PoolClient/Client); COPY needs the raw protocol of one connection. */
export interface CopyCapableClient {
  query(submittable: object): unknown;
}

interface PgConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

/**
 * Run `COPY ... FROM STDIN` with `payload` as the data (one CopyData message per 256 KiB).
 * `statement` is a constant written by this package, never built from input.
 */
export function copyFromStdin(client: CopyCapableClient, statement: string, payload: Buffer): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let failure: Error | undefined;
    const submittable = {
      submit(connection: PgConnection) {
        connection.query(statement);
      },
      handleCopyInResponse(connection: PgConnection) {
        const chunk = 256 * 1024;
        for (let at = 0; at < payload.length; at += chunk) {
          connection.sendCopyFromChunk(payload.subarray(at, Math.min(payload.length, at + chunk)));
        }
        connection.endCopyFrom();
      },
      handleCommandComplete() {},
      handleReadyForQuery() {
        if (failure) reject(failure);
        else resolve();
      },
      handleError(error: Error) {
        // pg sends ReadyForQuery after an error only when the connection is still usable; a dead
        // socket calls handleError without it, so settle here too (settling twice is a no-op).
        failure = error;
        reject(error);
      },
      handleEmptyQuery() {},
      handleRowDescription() {},
      handleDataRow() {},
      handlePortalSuspended() {},
      handleCopyData() {},
    };
    client.query(submittable);
  });
}
