// The hand-written ingest payload check (src/queues/ingest-payload-check.ts) against the zod
// contract: valid payloads are mutated at random paths (boundary and non-finite-looking numbers,
// wrong types, long and short arrays, missing and extra keys, nulls) and on every one the check must
// decide as zod does and, when it accepts, return exactly zod's value (same keys in the same order,
// absent optional fields absent, unknown keys stripped). parsePayload must answer as zod alone did.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { allPaths, getAt, seededRandom, setAt, type Json } from "@rpcpulse/config/testing";
import { IngestBatchPayload, MAX_INGEST_SAMPLES } from "../src/queues/ingest.queue.js";
import { checkIngestBatchPayload } from "../src/queues/ingest-payload-check.js";
import { basePayload } from "./support/ingest-payloads.js";
import { parsePayload } from "../src/parse-payload.js";

const BASES: Json[] = [
  basePayload(1, {}),
  basePayload(3, { settings: true }),
  basePayload(4, { beacon: true, vantage: true }),
  basePayload(2, { settings: true, beacon: true }),
];

const NUMBERS = [-1, 0, 0.5, 1, 2, 45, 46, 255, 360, 361, 2 ** 31, 2 ** 53 - 1, 2 ** 53, -(2 ** 53), 1e21, 1.5e308];
const STRINGS = [
  "",
  "x",
  "a".repeat(32),
  "a".repeat(33),
  "a".repeat(46),
  "org:1",
  "0bd260c4-0d00-9000-8000-000000000000",
  "10.0.0.1",
];

function mutateValue(rand: () => number, current: Json): Json | undefined {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const r = rand();
  if (r < 0.1) return undefined;
  if (r < 0.18) return null;
  if (r < 0.24) return pick([true, false, {}, [], "1", 1]);
  if (typeof current === "number" || r < 0.45) {
    const n = pick(NUMBERS);
    return rand() < 0.5 && typeof current === "number" ? current + n * (rand() < 0.5 ? -1 : 1) : n;
  }
  if (typeof current === "string" || r < 0.6) return pick(STRINGS);
  if (Array.isArray(current)) {
    const length = pick([0, 1, 2, 3, 4, 5, MAX_INGEST_SAMPLES, MAX_INGEST_SAMPLES + 1]);
    return rand() < 0.2
      ? []
      : Array.from({ length }, (_, i) => structuredClone(current[i % Math.max(1, current.length)] ?? 1));
  }
  if (current && typeof current === "object") {
    const copy = structuredClone(current) as Record<string, Json>;
    if (rand() < 0.5) copy[`unknown${Math.floor(rand() * 10)}`] = pick([1, "x", null]);
    else delete copy[pick(Object.keys(copy))];
    return copy;
  }
  return pick(STRINGS);
}

const viaParsePayload = (body: unknown): { value?: unknown; error?: string } => {
  try {
    return { value: parsePayload("ingest", body) };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

describe("ingest payload check against the zod contract", () => {
  it("returns zod's value for the valid payloads", () => {
    for (const base of BASES) {
      const expected = IngestBatchPayload.parse(base);
      const fast = checkIngestBatchPayload(base);
      assert.deepStrictEqual(fast, expected);
      assert.equal(JSON.stringify(fast), JSON.stringify(expected));
    }
  });

  it("decides 6,000 mutated payloads as zod does, with zod's value when it accepts", () => {
    const rand = seededRandom(20261128);
    const disagreements: string[] = [];
    let accepted = 0;
    for (let i = 0; i < 6_000; i++) {
      const body = structuredClone(BASES[i % BASES.length]!);
      const applied: string[] = [];
      for (let m = 1 + Math.floor(rand() * 3); m > 0; m--) {
        const paths = allPaths(body).filter((p) => p.length > 0);
        // Half the time into the columns (most of a payload), else anywhere.
        const columnPaths = paths.filter((p) => p[0] === "samples" || p[0] === "remoteIps");
        const path = (rand() < 0.5 ? columnPaths : paths)[
          Math.floor(rand() * (rand() < 0.5 ? columnPaths : paths).length)
        ];
        if (!path || path.length === 0) continue;
        const value = mutateValue(rand, getAt(body, path));
        setAt(body, path, value);
        applied.push(`${path.join(".")}=${JSON.stringify(value)?.slice(0, 40)}`);
      }
      const zod = IngestBatchPayload.safeParse(body);
      const fast = checkIngestBatchPayload(body);
      if (zod.success) accepted++;
      if ((fast !== undefined) !== zod.success) {
        disagreements.push(`case ${i}: zod ${zod.success ? "accepts" : "refuses"}: ${applied.join(", ")}`);
        continue;
      }
      if (fast !== undefined && zod.success) {
        try {
          assert.deepStrictEqual(fast, zod.data);
          assert.equal(JSON.stringify(fast), JSON.stringify(zod.data));
        } catch {
          disagreements.push(`case ${i}: value differs: ${applied.join(", ")}`);
        }
      }
      // parsePayload (fast check first, zod to word a refusal) answers as zod alone.
      const viaParse = viaParsePayload(body);
      if (zod.success) assert.deepStrictEqual(viaParse, { value: zod.data });
      else assert.ok(viaParse.error?.startsWith('Invalid "ingest" job payload: '), viaParse.error);
    }
    assert.deepEqual(disagreements.slice(0, 10), []);
    assert.ok(accepted > 600, `only ${accepted} mutated payloads were valid`);
    assert.ok(accepted < 5_400, `${accepted} mutated payloads were valid: mutations too weak`);
  });
});
