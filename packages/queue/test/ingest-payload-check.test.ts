// The hand-written ingest payload check (src/queues/ingest-payload-check.ts) against the zod
// contract: valid payloads are mutated at random paths (boundary and non-finite-looking numbers,
// wrong types, long and short arrays, missing and extra keys, nulls) and on every one the check must
// decide as zod does and, when it accepts, return exactly zod's value (same keys in the same order,
// absent optional fields absent, unknown keys stripped). parsePayload must answer as zod alone did.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { allPaths, getAt, seededRandom, setAt, type Json } from "@rpcpulse/config/testing";
import {
  INGEST_BOOLEAN_METRICS,
  INGEST_NUMERIC_METRICS,
  IngestBatchPayload,
  MAX_INGEST_SAMPLES,
} from "../src/queues/ingest.queue.js";
import { checkIngestBatchPayload } from "../src/queues/ingest-payload-check.js";
import { parsePayload } from "../src/parse-payload.js";

function basePayload(samples: number, extras: { settings?: boolean; beacon?: boolean; vantage?: boolean }): Json {
  const t0 = 1_764_000_000_000;
  const time = Array.from({ length: samples }, (_, i) => t0 + i * 10_000);
  const columns: Record<string, Json> = { time };
  INGEST_NUMERIC_METRICS.forEach(
    (f, k) => (columns[f] = time.map((_, i) => ((i + k) % 5 === 0 ? null : k * 100 + i + 0.5))),
  );
  for (const f of INGEST_BOOLEAN_METRICS) columns[f] = time.map((_, i) => (i % 3 === 0 ? null : i % 2 === 0));
  const sample = time.flatMap((_, i) => [i, i]);
  const payload: Record<string, Json> = {
    organizationId: "org_bench-1",
    nodeId: "0bd260c4-0d00-4000-8000-000000000001",
    networkId: "0bd260c4-0d00-4000-8000-000000000002",
    batchSeq: 42,
    installId: "abcdefghijklmnop-123",
    receivedAtMs: t0 + samples * 10_000,
    clockSkewMs: -120,
    agentVersion: "1.4.0",
    clientVersion: "hived/1.27.5",
    samples: columns,
    remoteIps: { sample, ip: sample.map((i) => (i % 2 ? "10.0.0.1" : "2001:db8::1")), conns: sample.map((i) => i % 4) },
  };
  if (extras.settings)
    payload.settings = {
      tcpTwReuse: 1,
      somaxconn: null,
      ipLocalPortRange: { low: 32_768, high: 60_999, size: 28_232 },
      listeningPorts: [8090, 8091],
      outbound: {
        time: t0,
        top: [{ ip: "127.0.0.1", port: 5432, sockets: 12, established: 10, timeWait: 2 }],
      },
    };
  if (extras.beacon)
    payload.beacon = [
      {
        time: t0,
        ok: true,
        headSlot: 100,
        wallSlot: 101,
        slotsBehind: 1,
        syncDistance: 0,
        syncing: false,
        optimistic: null,
        elOffline: false,
        peers: 50,
        version: "teku/v24",
        execBlock: 900,
        execHash: "0xab",
        elBlock: 900,
        elCheck: "match",
        error: null,
      },
    ];
  if (extras.vantage)
    payload.vantage = {
      region: "eu-west",
      probes: [
        {
          time: t0,
          endpointId: "0bd260c4-0d00-4000-8000-000000000003",
          ok: true,
          httpStatus: 200,
          errorClass: null,
          errorMessage: null,
          rateLimited: false,
          responseBytes: 300,
          headBlock: 1_000,
          headTime: t0 - 1_500,
          finalizedBlock: 980,
          dnsMs: 1,
          connectMs: 2,
          tlsMs: null,
          ttfbMs: 30,
          totalMs: 31.5,
        },
      ],
    };
  return payload;
}

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
