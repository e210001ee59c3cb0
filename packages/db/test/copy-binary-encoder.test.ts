// The ingest flush's binary COPY encoding (samples and remote IPs) writes fields in place through a
// DataView; it must produce the bytes of the previous Buffer#write* encoder (kept in
// support/reference-copy-encode.ts) on every batch, and fail where it failed (RangeError for a value
// out of its column's range, TypeError for a bad uuid or address), since the writer isolates a batch
// on exactly those errors.
import assert from "node:assert/strict";
import { test } from "node:test";
import { seededRandom } from "@rpcpulse/config/testing";
import {
  encodeRemoteIps,
  encodeSamples,
  INGEST_SAMPLE_METRICS,
  type IngestFlushBatch,
} from "../src/ingest/ingest-flush.js";
import { referenceEncodeRemoteIps, referenceEncodeSamples } from "./support/reference-copy-encode.js";

const rand = seededRandom(20261128);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

const NUMBERS = [
  0,
  1,
  -1,
  0.5,
  -0.5,
  1.5,
  2.5,
  -2.5,
  3.7,
  255,
  32_767,
  32_768,
  -32_768,
  -32_769,
  65_535,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 32 - 1,
  2 ** 40 + 0.5,
  2 ** 53 - 1,
  -(2 ** 53) + 1,
  1e15,
  1e-7,
  1_764_000_000_000,
  1_764_000_000_123.4,
];
/** Values that break the int8 range of some columns (the old encoder threw RangeError on them). */
const OUT_OF_RANGE = [1e21, -1e21, 2 ** 70];

function metricValue(kind: string, wild: boolean): number | boolean | null {
  if (rand() < 0.15) return null;
  if (kind === "bool") return rand() < 0.5;
  if (wild && rand() < 0.001) return pick(OUT_OF_RANGE);
  if (kind === "time") return rand() < 0.5 ? 1_764_000_000_000 + Math.floor(rand() * 1e6) : pick(NUMBERS);
  return rand() < 0.5 ? Math.floor(rand() * 10 ** Math.floor(rand() * 12)) : pick(NUMBERS);
}

const V4 = ["10.0.0.1", "255.255.255.255", "0.0.0.0", "192.168.1.20", "010.001.0.1"];
const V6 = ["::1", "2001:db8::1", "::ffff:10.0.0.1", "fe80:0:0:0:0:0:0:1"];
const BAD = ["1.2.3", "256.0.0.1", "1.2.3.4.", "x", "", "::ffff:300.0.0.1", "1::2::3"];

function uuid(n: number): string {
  const hex = n.toString(16).padStart(12, "0");
  return `0bd260c4-0d00-4000-8000-${hex}`;
}

function makeBatch(b: number, samples: number, wild: boolean): IngestFlushBatch {
  const start = 1_764_000_000_000 + b * 3_600_000;
  const time = Array.from({ length: samples }, (_, i) => start + i * 10_000 + (rand() < 0.1 ? 0.5 : 0));
  const columns: Record<string, (number | boolean | null)[]> = { time };
  for (const [field, , kind] of INGEST_SAMPLE_METRICS) columns[field] = time.map(() => metricValue(kind, wild));
  const ips = Math.floor(rand() * samples * 3);
  const sample = Array.from({ length: ips }, () =>
    Math.floor(rand() * (wild && rand() < 0.002 ? samples + 1 : samples)),
  );
  const ip = sample.map(() => {
    const r = rand();
    return r < 0.7 ? pick(V4) : r < 0.995 || !wild ? pick(V6) : pick(BAD);
  });
  return {
    nodeId: wild && rand() < 0.01 ? "not-a-uuid" : uuid(b),
    batchSeq: pick([0, 1, 7, 2 ** 32 + 5, 2 ** 53 - 1]),
    receivedAtMs: start + 1_000_000,
    clockSkewMs: pick([0, -250, 12_345, 2 ** 31 + 7, -(2 ** 31) - 9, 0.5]),
    agentVersion: "1.0.0",
    clientVersion: null,
    samples: columns as unknown as IngestFlushBatch["samples"],
    remoteIps: { sample, ip, conns: ip.map(() => pick([0, 1, 3, 2 ** 31, 7.5])) },
    lagBlocks: time.map(() => (rand() < 0.3 ? null : pick([0, 1, 2.5, -3, 2 ** 31, 2 ** 33]))),
  };
}

const outcome = (encode: () => { payload: Buffer; rows: number }) => {
  try {
    const { payload, rows } = encode();
    return `${rows} rows ${payload.toString("hex")}`;
  } catch (error) {
    return `throws ${(error as Error).constructor.name}`;
  }
};

test("sample and remote-IP rows are the bytes of the previous encoder (valid flushes)", () => {
  for (let flush = 0; flush < 40; flush++) {
    const batches = Array.from({ length: 1 + Math.floor(rand() * 6) }, (_, b) =>
      makeBatch(flush * 10 + b, 1 + Math.floor(rand() * 360), false),
    );
    const samples = outcome(() => encodeSamples(batches));
    assert.ok(!samples.startsWith("throws"), samples);
    assert.equal(
      samples,
      outcome(() => referenceEncodeSamples(batches)),
      `flush ${flush} samples`,
    );
    const ips = outcome(() => encodeRemoteIps(batches));
    assert.ok(!ips.startsWith("throws"), ips);
    assert.equal(
      ips,
      outcome(() => referenceEncodeRemoteIps(batches)),
      `flush ${flush} remote IPs`,
    );
  }
});

test("the same bytes or the same error class on batches with out-of-range values, bad ids and addresses", () => {
  let failures = 0;
  for (let flush = 0; flush < 400; flush++) {
    const batches = [makeBatch(flush, 1 + Math.floor(rand() * 40), true)];
    const samples = outcome(() => encodeSamples(batches));
    assert.equal(
      samples,
      outcome(() => referenceEncodeSamples(batches)),
      `flush ${flush} samples`,
    );
    const ips = outcome(() => encodeRemoteIps(batches));
    assert.equal(
      ips,
      outcome(() => referenceEncodeRemoteIps(batches)),
      `flush ${flush} remote IPs`,
    );
    if (samples.startsWith("throws") || ips.startsWith("throws")) failures++;
  }
  // Both outcomes occur (the corpus is not all broken nor all clean).
  assert.ok(failures > 40 && failures < 360, `${failures} of 400 flushes failed`);
});
