// The hand-written ingest payload check (src/queues/ingest-payload-check.ts) against the zod
// contract: valid payloads are mutated at random paths (boundary and non-finite-looking numbers,
// wrong types, long and short arrays, missing and extra keys, nulls) and on every one the check must
// decide as zod does and, when it accepts, return exactly zod's value (same keys in the same order,
// absent optional fields absent, unknown keys stripped). parsePayload must answer as zod alone did.
// The same corpus runs against the check and parser built for a copy of the catalogue with two more
// metrics (one numeric, one boolean), so a check built from any catalogue keeps to its schema.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AppError } from "@rpcpulse/config";
import { allPaths, getAt, seededRandom, setAt, type Json } from "@rpcpulse/config/testing";
import { metricFieldsByKindOf, NODE_SAMPLE_METRIC_CATALOGUE, type NodeSampleMetric } from "@rpcpulse/domain";
import {
  INGEST_BOOLEAN_METRICS,
  INGEST_NUMERIC_METRICS,
  IngestBatchPayload,
  ingestBatchPayloadOf,
  MAX_INGEST_SAMPLES,
} from "../src/queues/ingest.queue.js";
import {
  checkIngestBatchPayload,
  createIngestPayloadCheck,
  createIngestPayloadParser,
} from "../src/queues/ingest-payload-check.js";
import { parsePayload } from "../src/parse-payload.js";

/** The catalogue plus a numeric and a boolean metric. */
const EXTENDED = [
  ...NODE_SAMPLE_METRIC_CATALOGUE,
  { field: "contextSwitches", column: "context_switches", kind: "int8", read: () => null },
  { field: "oomKilled", column: "oom_killed", kind: "bool", read: () => null },
] as const satisfies readonly NodeSampleMetric[];

interface Contract {
  name: string;
  metrics: { numeric: readonly string[]; boolean: readonly string[] };
  schema: { safeParse(data: unknown): { success: true; data: unknown } | { success: false } };
  check: (data: unknown) => unknown;
  parse: (data: unknown) => unknown;
}
const CONTRACTS: Contract[] = [
  {
    name: "the real catalogue",
    metrics: { numeric: INGEST_NUMERIC_METRICS, boolean: INGEST_BOOLEAN_METRICS },
    schema: IngestBatchPayload,
    check: checkIngestBatchPayload,
    parse: (data) => parsePayload("ingest", data),
  },
  {
    name: "an extended catalogue",
    metrics: metricFieldsByKindOf(EXTENDED),
    schema: ingestBatchPayloadOf(EXTENDED),
    check: createIngestPayloadCheck(EXTENDED),
    parse: createIngestPayloadParser(EXTENDED),
  },
];

function basePayload(
  metrics: Contract["metrics"],
  samples: number,
  extras: { settings?: boolean; beacon?: boolean; vantage?: boolean },
): Json {
  const t0 = 1_764_000_000_000;
  const time = Array.from({ length: samples }, (_, i) => t0 + i * 10_000);
  const columns: Record<string, Json> = { time };
  metrics.numeric.forEach((f, k) => (columns[f] = time.map((_, i) => ((i + k) % 5 === 0 ? null : k * 100 + i + 0.5))));
  for (const f of metrics.boolean) columns[f] = time.map((_, i) => (i % 3 === 0 ? null : i % 2 === 0));
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

const basesOf = (metrics: Contract["metrics"]): Json[] => [
  basePayload(metrics, 1, {}),
  basePayload(metrics, 3, { settings: true }),
  basePayload(metrics, 4, { beacon: true, vantage: true }),
  basePayload(metrics, 2, { settings: true, beacon: true }),
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

const viaParser = (parse: Contract["parse"], body: unknown): { value?: unknown; error?: string } => {
  try {
    return { value: parse(body) };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

function parseWithSchema(schema: Contract["schema"], data: unknown): unknown {
  const result = schema.safeParse(data);
  assert.ok(result.success);
  return result.data;
}

for (const { name, metrics, schema, check, parse } of CONTRACTS) {
  const bases = basesOf(metrics);

  describe(`ingest payload check against the zod contract: ${name}`, () => {
    it("returns zod's value for the valid payloads", () => {
      for (const base of bases) {
        const expected = parseWithSchema(schema, base);
        const fast = check(base);
        assert.deepStrictEqual(fast, expected);
        assert.equal(JSON.stringify(fast), JSON.stringify(expected));
      }
    });

    it("decides 6,000 mutated payloads as zod does, with zod's value when it accepts", () => {
      const rand = seededRandom(20261128);
      const disagreements: string[] = [];
      let accepted = 0;
      for (let i = 0; i < 6_000; i++) {
        const body = structuredClone(bases[i % bases.length]!);
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
        const zod = schema.safeParse(body);
        const fast = check(body);
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
        // The parser (fast check first, zod to word a refusal) answers as zod alone.
        const viaParse = viaParser(parse, body);
        if (zod.success) assert.deepStrictEqual(viaParse, { value: zod.data });
        else assert.ok(viaParse.error?.startsWith('Invalid "ingest" job payload: '), viaParse.error);
      }
      assert.deepEqual(disagreements.slice(0, 10), []);
      assert.ok(accepted > 600, `only ${accepted} mutated payloads were valid`);
      assert.ok(accepted < 5_400, `${accepted} mutated payloads were valid: mutations too weak`);
    });
  });
}

describe("the ingest parser of an extended catalogue", () => {
  const parseExtended = createIngestPayloadParser(EXTENDED);
  const body = basePayload(metricFieldsByKindOf(EXTENDED), 3, { settings: true }) as Record<string, Json>;

  it("keeps the new metrics' columns, which the real catalogue's parsePayload strips", () => {
    const extended = parseExtended(body);
    const { numeric, boolean } = metricFieldsByKindOf(EXTENDED);
    assert.deepEqual([numeric.at(-1), boolean.at(-1)], ["contextSwitches", "oomKilled"]);
    assert.deepEqual(Object.keys(extended.samples), ["time", ...numeric, ...boolean]);
    assert.deepEqual(extended.samples.contextSwitches, [4_300.5, 4_301.5, null]);
    const real = parsePayload("ingest", body);
    assert.equal("contextSwitches" in real.samples, false);
    assert.equal("oomKilled" in real.samples, false);
    assert.deepStrictEqual(real, parseWithSchema(IngestBatchPayload, body));
  });

  it("refuses with parsePayload's error, code, wording and details", () => {
    const refusal = (parse: (data: unknown) => unknown): AppError => {
      try {
        parse({ ...body, batchSeq: -1, remoteIps: null });
      } catch (error) {
        assert.ok(error instanceof AppError);
        return error;
      }
      assert.fail("accepted");
    };
    const real = refusal((data) => parsePayload("ingest", data));
    const extended = refusal(parseExtended);
    assert.equal(extended.code, "VALIDATION");
    assert.equal(extended.message, real.message);
    assert.match(extended.message, /^Invalid "ingest" job payload: batchSeq: .+; remoteIps: /);
    assert.deepStrictEqual(extended.details, real.details);
  });

  it("refuses a payload without a column of the extended catalogue, which the real one accepts", () => {
    const { oomKilled: _dropped, ...samples } = body.samples as Record<string, Json>;
    const short = { ...body, samples };
    assert.equal(createIngestPayloadCheck(EXTENDED)(short), undefined);
    assert.throws(() => parseExtended(short), /^AppError: Invalid "ingest" job payload: samples\.oomKilled: /);
    assert.ok(parsePayload("ingest", short));
  });
});
