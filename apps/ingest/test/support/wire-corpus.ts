// Valid agent batches and ways to mutate them, for the tests that compare the ingest hot path
// with the zod contract (wire check) and with the previous implementation (normaliser).
import type { Json } from "@rpcpulse/config/testing";
import type { AgentBatch } from "@rpcpulse/domain";
import { makeAgentBatch } from "./agent-batches.js";

export const clone = <T>(v: T): T => structuredClone(v);

export const EMOJI = "\u{1F680}"; // two UTF-16 code units, one code point
export const LENGTHS = [
  0, 1, 2, 3, 16, 31, 32, 33, 45, 63, 64, 65, 129, 130, 131, 253, 254, 256, 257, 1024, 1025, 4097,
];
export const NUMBERS = [
  -1,
  0,
  0.5,
  1,
  2,
  7,
  -0.5,
  59,
  60,
  100,
  101,
  255,
  256,
  999,
  1000,
  1023,
  1024,
  1025,
  65_535,
  65_536,
  600_000,
  600_001,
  2 ** 31,
  2 ** 32,
  2 ** 53 - 1,
  2 ** 53,
  -(2 ** 53),
  1e21,
  1.5e308,
];
export const STRINGS = [
  "",
  "x",
  "2026-11-22T06:00:00Z",
  "2026-11-22T06:00:00.123+01:00",
  "2026-02-30T06:00:00Z",
  "2026-11-22 06:00:00",
  "10.0.0.1",
  "256.0.0.1",
  "::1",
  "2001:db8::1",
  "fe80::1%eth0",
  "00000000-0000-0000-0000-000000000000",
  "0bd260c4-0d00-4000-8000-000000000000",
  "0bd260c4-0d00-9000-8000-000000000000",
  "eu-west",
  "EU",
  "-eu",
  "hive",
];

export function mutateValue(rand: () => number, current: Json): Json | undefined {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const r = rand();
  if (r < 0.08) return undefined; // remove the key / array element
  if (r < 0.16) return null;
  if (r < 0.22) return pick([true, false, {}, [], "1", 1]);
  if (typeof current === "number" || r < 0.4) {
    const n = pick(NUMBERS);
    return rand() < 0.5 && typeof current === "number" ? current + n * (rand() < 0.5 ? -1 : 1) : n;
  }
  if (typeof current === "string" || r < 0.65) {
    if (rand() < 0.5) return pick(STRINGS);
    const length = pick(LENGTHS);
    return rand() < 0.5 ? "a".repeat(length) : EMOJI.repeat(Math.ceil(length / 2));
  }
  if (Array.isArray(current)) {
    const length = pick(LENGTHS);
    const item = current[0] ?? 1;
    return rand() < 0.3 ? [] : Array.from({ length }, () => clone(item));
  }
  if (current && typeof current === "object") {
    // An unknown key (tolerated by both) or a known one removed.
    const copy = clone(current) as Record<string, Json>;
    if (rand() < 0.5) copy[`unknown${Math.floor(rand() * 10)}`] = pick([1, "x", null]);
    else delete copy[pick(Object.keys(copy)) ?? "x"];
    return copy;
  }
  return pick(STRINGS);
}

export function vantageBatch(): AgentBatch {
  const batch = makeAgentBatch(7, { samples: 2, remoteIps: 3 });
  const at = Date.parse(batch.sentAt) - 5_000;
  return {
    ...batch,
    vantage: {
      region: "eu-west",
      probes: [
        {
          endpointId: "0bd260c4-0d00-4000-8000-000000000001",
          startedAt: new Date(at).toISOString(),
          ok: true,
          httpStatus: 200,
          errorClass: null,
          errorMessage: null,
          rateLimited: false,
          responseBytes: 300,
          headBlock: 5,
          headTime: new Date(at - 1_000).toISOString(),
          finalizedBlock: 3,
          phases: { dnsMs: 1, connectMs: 2, tlsMs: 3, firstByteMs: 20, totalMs: 21 },
        },
      ],
    },
  } as AgentBatch;
}

/** Every optional group and list filled in: beacon, nodeArgs, stale sysctl lines, errors, IPv6 peers. */
export function richBatch(): AgentBatch {
  const batch = vantageBatch();
  const sample = batch.samples[0]!;
  return {
    ...batch,
    installId: "install-0123456789abcdef",
    samples: [
      {
        ...sample,
        disks: [...sample.disks, { ...sample.disks[0]!, path: "/mnt/gone", totalBytes: null, error: "statfs failed" }],
        settings: {
          ...sample.settings!,
          tcpTwRecycleLines: [{ file: "/etc/sysctl.conf", line: 12, text: "net.ipv4.tcp_tw_recycle = 1" }],
          nodeArgs: [{ flag: "--p2p-max-connections", value: "200" }],
        },
        chain: { ...sample.chain!, headAgeMs: -250, headAgeSkewed: true, headTimeSource: "first-seen" },
        beacon: {
          ok: true,
          headSlot: 9_000_000,
          wallSlot: 9_000_002,
          slotsBehind: 2,
          syncDistance: 0,
          syncing: false,
          optimistic: false,
          elOffline: false,
          peers: 80,
          version: "Lighthouse/v5.3.0",
          execBlock: 21_000_000,
          execHash: `0x${"ab".repeat(32)}`,
          latency: { connectMs: 0.4, firstByteMs: 2.5, totalMs: 3 },
          error: null,
        },
        remoteIps: {
          ...sample.remoteIps!,
          top: [...sample.remoteIps!.top, { ip: "2001:db8::7", connections: 2, established: 1, timeWait: 1 }],
        },
        errors: [{ group: "conntrack", message: "nf_conntrack not loaded" }],
      },
      { ...batch.samples[1]!, tcp: null, fds: { ...batch.samples[1]!.fds!, process: null }, beacon: null },
    ],
  } as AgentBatch;
}

export const BASES: Json[] = [
  makeAgentBatch(1, { samples: 2, remoteIps: 3 }),
  makeAgentBatch(2, { samples: 1, remoteIps: 0, nodeId: "0bd260c4-0d00-4000-8000-000000000002" }),
  vantageBatch(),
] as unknown as Json[];
export const RICH = richBatch() as unknown as Json;

// Edge values of the rich batch's sweep: each limit of the contract, just inside and just outside.
export const EDGE_NUMBERS = [
  ...NUMBERS,
  -0,
  0.1,
  3,
  64,
  65,
  99.99,
  100.5,
  65_534,
  86_400_000,
  86_400_001,
  -86_400_000,
  -86_400_001,
  3_155_760_000_000,
  3_155_760_000_001,
  2_147_483_647,
  2_147_483_648,
  -1_000_000,
  -1_000_001,
  1_000_000_000,
  1_000_000_001,
  -(2 ** 53 - 1),
];
export const EDGE_STRINGS = [
  ...STRINGS,
  `0x${"ab".repeat(32)}`,
  `0x${"AB".repeat(32)}`,
  `0x${"ab".repeat(31)}a`,
  `0X${"ab".repeat(32)}`,
  "0BD260C4-0D00-4000-8000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "2024-02-29T00:00:00Z",
  "2023-02-29T00:00:00Z",
  "2026-11-22T24:00:00Z",
  "2026-11-22T06:00:00.5-05:30",
  "2026-11-22T06:00Z",
  "2026-11-22t06:00:00z",
  "::ffff:10.0.0.1",
  "1::",
  ":::",
  "010.0.0.1",
  "a-b",
  "ab",
  "a",
  "first-seen",
  "storage",
  "substrate",
  "conntrack",
  "install_0123456789",
];
export const LONE = "\ud800";

export function edgeValues(current: Json): (Json | undefined)[] {
  const values: (Json | undefined)[] = [undefined, null, true, false, {}, [], "1", 1];
  if (typeof current === "number") values.push(...EDGE_NUMBERS);
  if (typeof current === "string") {
    values.push(...EDGE_STRINGS);
    for (const n of LENGTHS) values.push("a".repeat(n), EMOJI.repeat(Math.ceil(n / 2)), LONE.repeat(n));
    values.push(`${EMOJI}a`, `a${LONE}`, `${EMOJI}${LONE}`);
  }
  if (current === null) values.push(...EDGE_NUMBERS.slice(0, 12), ...EDGE_STRINGS.slice(0, 12));
  if (Array.isArray(current)) {
    const item = current[0] ?? 1;
    for (const n of [...LENGTHS, 99, 100, 101, 199, 200, 201, 359, 360, 361])
      values.push(Array.from({ length: n }, () => clone(item)));
  }
  if (current && typeof current === "object" && !Array.isArray(current))
    values.push({ ...current, unknown: 1 }, [current], Object.values(current) as Json);
  return values;
}
