// The binary COPY encoding of an ingest flush as it was before the in-place encoder (commit 701a104),
// kept as the reference the new encoder is compared with byte for byte (copy-binary-encoder.test.ts).
import { ipBytes, uuidBytes } from "../../src/sql/copy-binary.js";
import { INGEST_SAMPLE_METRICS, type IngestFlushBatch } from "../../src/ingest/ingest-flush.js";

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
const PG_EPOCH_MS = 946_684_800_000; // 2000-01-01T00:00:00Z
const TWO_32 = 4_294_967_296;

class ReferenceEncoder {
  private buf: Buffer;
  private pos = 0;
  rows = 0;

  constructor(initialBytes = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(Math.max(initialBytes, 64));
    SIGNATURE.copy(this.buf, 0);
    this.buf.writeInt32BE(0, 11); // flags
    this.buf.writeInt32BE(0, 15); // header extension length
    this.pos = 19;
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  startRow(fields: number): void {
    this.ensure(2);
    this.buf.writeInt16BE(fields, this.pos);
    this.pos += 2;
    this.rows++;
  }

  null(): void {
    this.ensure(4);
    this.buf.writeInt32BE(-1, this.pos);
    this.pos += 4;
  }

  int2(value: number): void {
    this.ensure(6);
    this.buf.writeInt32BE(2, this.pos);
    this.buf.writeInt16BE(value, this.pos + 4);
    this.pos += 6;
  }

  int4(value: number): void {
    this.ensure(8);
    this.buf.writeInt32BE(4, this.pos);
    this.buf.writeInt32BE(value, this.pos + 4);
    this.pos += 8;
  }

  /** Any safe integer (|v| < 2^53), written as a two's-complement int8. */
  int8(value: number): void {
    this.ensure(12);
    const hi = Math.floor(value / TWO_32);
    this.buf.writeInt32BE(8, this.pos);
    this.buf.writeInt32BE(hi, this.pos + 4);
    this.buf.writeUInt32BE(value - hi * TWO_32, this.pos + 8);
    this.pos += 12;
  }

  float4(value: number): void {
    this.ensure(8);
    this.buf.writeInt32BE(4, this.pos);
    this.buf.writeFloatBE(value, this.pos + 4);
    this.pos += 8;
  }

  bool(value: boolean): void {
    this.ensure(5);
    this.buf.writeInt32BE(1, this.pos);
    this.buf[this.pos + 4] = value ? 1 : 0;
    this.pos += 5;
  }

  /** timestamptz from epoch milliseconds (microsecond resolution kept). */
  timestampMs(epochMs: number): void {
    this.int8(Math.round((epochMs - PG_EPOCH_MS) * 1000));
  }

  /** 16 raw bytes (see uuidBytes). */
  uuid(bytes: Buffer): void {
    this.ensure(20);
    this.buf.writeInt32BE(16, this.pos);
    bytes.copy(this.buf, this.pos + 4, 0, 16);
    this.pos += 20;
  }

  /** inet host address from 4 (IPv4) or 16 (IPv6) raw bytes (see ipBytes). */
  inet(address: Buffer): void {
    const v4 = address.length === 4;
    this.ensure(8 + address.length);
    this.buf.writeInt32BE(4 + address.length, this.pos);
    this.buf[this.pos + 4] = v4 ? 2 : 3; // PGSQL_AF_INET / PGSQL_AF_INET6
    this.buf[this.pos + 5] = v4 ? 32 : 128;
    this.buf[this.pos + 6] = 0; // not cidr
    this.buf[this.pos + 7] = address.length;
    address.copy(this.buf, this.pos + 8);
    this.pos += 8 + address.length;
  }

  /** The complete COPY payload (with trailer); the encoder must not be used afterwards. */
  finish(): Buffer {
    this.ensure(2);
    this.buf.writeInt16BE(-1, this.pos);
    this.pos += 2;
    return this.buf.subarray(0, this.pos);
  }
}

const SAMPLE_COLUMNS = [
  "time",
  "node_id",
  "batch_seq",
  "clock_skew_ms",
  "lag_blocks",
  ...INGEST_SAMPLE_METRICS.map(([, column]) => column),
];

const INT4_MAX = 2_147_483_647;
const INT2_MAX = 32_767;
const clampInt = (v: number, max: number) => Math.max(-max - 1, Math.min(max, Math.round(v)));

export function referenceEncodeSamples(batches: readonly IngestFlushBatch[]): { payload: Buffer; rows: number } {
  const enc = new ReferenceEncoder(batches.reduce((n, b) => n + b.samples.time.length, 0) * 400 + 1024);
  const fields = SAMPLE_COLUMNS.length;
  for (const batch of batches) {
    const node = uuidBytes(batch.nodeId);
    const skew = clampInt(batch.clockSkewMs, INT4_MAX);
    const s = batch.samples;
    for (let i = 0; i < s.time.length; i++) {
      enc.startRow(fields);
      enc.timestampMs(s.time[i] as number);
      enc.uuid(node);
      enc.int8(batch.batchSeq);
      enc.int4(skew);
      const lag = batch.lagBlocks[i];
      if (lag === null || lag === undefined) enc.null();
      else enc.int4(clampInt(lag, INT4_MAX));
      for (const [field, , kind] of INGEST_SAMPLE_METRICS) {
        const value = s[field][i];
        if (value === null || value === undefined) {
          enc.null();
          continue;
        }
        switch (kind) {
          case "time":
            enc.timestampMs(value as number);
            break;
          case "int8":
            enc.int8(Math.round(value as number));
            break;
          case "int4":
            enc.int4(clampInt(value as number, INT4_MAX));
            break;
          case "int2":
            enc.int2(clampInt(value as number, INT2_MAX));
            break;
          case "float4":
            enc.float4(value as number);
            break;
          case "bool":
            enc.bool(value as boolean);
            break;
        }
      }
    }
  }
  return { rows: enc.rows, payload: enc.finish() };
}

export function referenceEncodeRemoteIps(batches: readonly IngestFlushBatch[]): { payload: Buffer; rows: number } {
  const enc = new ReferenceEncoder(batches.reduce((n, b) => n + b.remoteIps.ip.length, 0) * 60 + 1024);
  for (const batch of batches) {
    const node = uuidBytes(batch.nodeId);
    const r = batch.remoteIps;
    for (let i = 0; i < r.ip.length; i++) {
      const time = batch.samples.time[r.sample[i] as number];
      if (time === undefined) throw new RangeError("remote IP row points at no sample");
      enc.startRow(4);
      enc.timestampMs(time);
      enc.uuid(node);
      enc.inet(ipBytes(r.ip[i] as string));
      enc.int4(clampInt(r.conns[i] as number, INT4_MAX));
    }
  }
  return { rows: enc.rows, payload: enc.finish() };
}
