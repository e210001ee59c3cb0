import assert from "node:assert/strict";
import { test } from "node:test";
import { estimateQuantile, LATENCY_BUCKET_BOUNDS_MS } from "../src/sql/latency-histogram.js";
import { pickResolution } from "../src/sql/row-values.js";

const counts = (entries: Record<number, number>) =>
  Array.from({ length: LATENCY_BUCKET_BOUNDS_MS.length + 1 }, (_, i) => entries[i] ?? 0);

test("p95 interpolates inside the bucket holding the rank, clamped to min/max", () => {
  // 100 samples: 90 in (25, 50], 10 in (100, 250]; rank 95 is the 5th of 10 in (100, 250].
  assert.equal(estimateQuantile(counts({ 3: 90, 5: 10 }), 0.95, 30, 240), 100 + (240 - 100) * 0.5);
  assert.equal(estimateQuantile(counts({ 0: 1 }), 0.95, 3, 3), 3);
  // open last bucket: from max(5000, min) to the observed max
  assert.equal(estimateQuantile(counts({ 10: 2 }), 0.5, 6000, 9000), 6000 + (9000 - 6000) * 0.5);
  assert.equal(estimateQuantile(counts({}), 0.95, null, null), null);
});

test("histogram length is checked", () => {
  assert.throws(() => estimateQuantile([1, 2], 0.5, null, null), /expected 11 histogram buckets/);
});

test("auto resolution by span", () => {
  const from = new Date("2026-01-01T00:00:00Z");
  const plus = (h: number) => new Date(from.getTime() + h * 3_600_000);
  assert.equal(pickResolution("auto", from, plus(6)), "raw");
  assert.equal(pickResolution("auto", from, plus(7)), "1m");
  assert.equal(pickResolution("auto", from, plus(24 * 7 + 1)), "1h");
  assert.equal(pickResolution("1h", from, plus(1)), "1h");
});
