// Ground truth for the directory: six simnet Hive endpoints of configured latency, lag, error rate
// and a stalled head, listed active on a fresh database, probed by the real probe path (SSRF-safe
// client, random order, jitter spread), the worker's consensus job between rounds, then the ranking
// job. What the directory shows is compared with what was configured, probe by probe.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { insertPublicEndpoints, listProbeSamples, type ProbeSampleRow } from "@rpcpulse/db/directory";
import { listNetworkHeadHistory } from "@rpcpulse/db/ingest";
import { queryLatestEndpointProbes } from "@rpcpulse/db/status";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import { createSafeHttpClient } from "@rpcpulse/prober";
import { startSimnet, type SimnetConfigInput, type Simnet } from "@rpcpulse/simnet";
import { buildRankSamples, toStoredDecisions } from "../src/directory/rank-samples.js";
import { deriveEndpointState } from "../src/status/component-state.js";
import { decideNetworkHeads } from "@rpcpulse/services/ingest";
import {
  getEndpointDetail,
  listRankedEndpoints,
  probeDirectoryRound,
  rankDirectory,
  type RankedEndpoint,
} from "@rpcpulse/services/directory";

const ROUNDS = 24;
/**
 * The probe's start is taken a moment before its request leaves (Date.now, then the request is built),
 * so its answer time can fall this much before the response was really read.
 */
const FLIGHT_SLACK_MS = 10;
const SPREAD_MS = 450;

interface Truth {
  name: string;
  latencyMs: number;
  lagBlocks: number;
  errorRate: number;
  stalledMinutes?: number;
  /** Health the directory must show. */
  health: RankedEndpoint["health"];
}

/** In configured order, best first (each worse than the one before in one respect the method weighs). */
const TRUTH: readonly Truth[] = [
  { name: "fast", latencyMs: 5, lagBlocks: 0, errorRate: 0, health: "healthy" },
  { name: "medium", latencyMs: 80, lagBlocks: 0, errorRate: 0, health: "healthy" },
  { name: "slow", latencyMs: 250, lagBlocks: 0, errorRate: 0, health: "healthy" },
  { name: "flaky", latencyMs: 5, lagBlocks: 0, errorRate: 0.25, health: "degraded" },
  { name: "lagging", latencyMs: 5, lagBlocks: 30, errorRate: 0, health: "lagging" },
  { name: "stalled", latencyMs: 5, lagBlocks: 0, errorRate: 0, stalledMinutes: 20, health: "stale" },
];

function nodeConfig(t: Truth, now: number): SimnetConfigInput["nodes"][number] {
  return {
    name: t.name,
    family: "hive",
    network: "hive",
    latency: { kind: "fixed", ms: t.latencyMs },
    lagBlocks: t.lagBlocks,
    errorRate: t.errorRate,
    errorKind: "http-503",
    ...(t.stalledMinutes ? { stall: { atTime: new Date(now - t.stalledMinutes * 60_000).toISOString() } } : {}),
  };
}

/** Kendall tau-a between two orders of the same items: 1 identical, −1 reversed. */
function kendallTau(expected: readonly string[], shown: readonly string[]): number {
  const pos = new Map(shown.map((id, i) => [id, i]));
  let concordant = 0;
  let discordant = 0;
  for (let i = 0; i < expected.length; i++)
    for (let j = i + 1; j < expected.length; j++) {
      const a = pos.get(expected[i] as string) ?? Infinity;
      const b = pos.get(expected[j] as string) ?? Infinity;
      if (a < b) concordant++;
      else discordant++;
    }
  const pairs = (expected.length * (expected.length - 1)) / 2;
  return pairs ? (concordant - discordant) / pairs : 1;
}

const pct = (v: number | null | undefined) => (v == null ? "—" : `${(v * 100).toFixed(1)} %`);
const ms = (v: number | null | undefined) => (v == null ? "—" : `${v.toFixed(1)} ms`);

describe("directory ground truth: configured vs shown (simnet, real probe path, real PostgreSQL)", () => {
  let db: TestDatabase;
  let sim: Simnet;
  let t0 = 0;
  const ids = new Map<string, string>();
  const lagsOf = new Map<string, number[]>();
  /** Per successful probe: blocks the simnet produced while it was in flight (start .. answer) and just after. */
  const flightOf = new Map<string, Array<{ during: number; after: number }>>();
  let list: RankedEndpoint[] = [];

  before(async () => {
    t0 = Date.now();
    db = await createTestDatabase();
    sim = await startSimnet({ seed: "directory-truth", nodes: TRUTH.map((t) => nodeConfig(t, t0)) });
    const inserted = await insertPublicEndpoints(
      db.pool,
      TRUTH.map((t) => ({
        network: "hive",
        family: "hive" as const,
        url: sim.node(t.name).url,
        name: t.name,
        status: "active" as const,
      })),
    );
    TRUTH.forEach((t, i) => ids.set(t.name, inserted[i] as string));

    const client = createSafeHttpClient({ allowPrivate: true, timeoutMs: 2_000 });
    const vantage = { name: "server:truth", region: "eu-central" };
    for (let r = 0; r < ROUNDS; r++) {
      await probeDirectoryRound({ sql: db.pool }, { client, vantage, concurrency: 6, spreadMs: SPREAD_MS });
      await decideNetworkHeads({ sql: db.pool });
    }
    await rankDirectory({ pool: db.pool }, { now: new Date(Date.now() + 1) });
    list = (await listRankedEndpoints({ sql: db.pool }, { network: "hive", window: "1h" })).endpoints;

    // Each probe's lag exactly as the ranking job measured it (same inputs, same function).
    const rows: ProbeSampleRow[] = await listProbeSamples(db.pool, {
      endpointIds: [...ids.values()],
      since: new Date(t0 - 60_000),
      until: new Date(Date.now() + 1),
    });
    const networkId = (await db.pool.query<{ id: string }>("SELECT id FROM networks WHERE slug = 'hive'")).rows[0]!.id;
    const decisions = toStoredDecisions(
      await listNetworkHeadHistory(db.pool, { since: new Date(t0 - 60_000), networkId }),
    );
    const samples = buildRankSamples(rows, decisions, new Map(), { blockIntervalMs: 3_000, roundMs: 30_000 });
    const chain = sim.networks.get("hive")!;
    for (const s of samples) {
      if (!s.sample.ok) continue;
      lagsOf.set(s.endpointId, [...(lagsOf.get(s.endpointId) ?? []), s.sample.lagBlocks as number]);
      const answeredAt = s.sample.at + (s.sample.ttfbMs ?? 0);
      flightOf.set(s.endpointId, [
        ...(flightOf.get(s.endpointId) ?? []),
        {
          during: chain.heightAt(answeredAt) - chain.heightAt(s.sample.at),
          after: chain.heightAt(answeredAt + FLIGHT_SLACK_MS) - chain.heightAt(answeredAt),
        },
      ]);
    }

    const byName = (name: string) => list.find((e) => e.id === ids.get(name));
    const lines = TRUTH.map((t) => {
      const e = byName(t.name);
      const lags = lagsOf.get(ids.get(t.name) ?? "") ?? [];
      const configured = `${t.latencyMs} ms, lag ${t.stalledMinutes ? `stalled ${t.stalledMinutes} min` : t.lagBlocks}, errors ${pct(t.errorRate)}`;
      return [
        t.name.padEnd(8),
        configured.padEnd(38),
        ms(e?.latency.p50Ms).padStart(9),
        `${e?.lagBlocks?.toFixed(1) ?? "—"} [${Math.min(...lags)}..${Math.max(...lags)}]`.padStart(16),
        pct(e && e.samples ? e.success / e.samples : null).padStart(8),
        pct(e?.uptime.h24).padStart(8),
        String(e?.health).padEnd(8),
        String(e?.score.toFixed(1)).padStart(6),
        String(e?.rank),
      ].join(" │ ");
    });
    const tau = kendallTau(
      TRUTH.map((t) => ids.get(t.name) as string),
      list.map((e) => e.id),
    );
    console.log(
      [
        "",
        `directory ground truth: ${ROUNDS} rounds × ${TRUTH.length} Hive endpoints, ${Math.round((Date.now() - t0) / 1000)} s`,
        "name     │ configured (latency, lag, errors)      │ p50 ttfb  │ lag mean [min..max] │ avail.   │ uptime   │ health   │ score  │ rank",
        ...lines,
        `Kendall tau (configured order vs shown order) = ${tau.toFixed(3)}`,
        "",
      ].join("\n"),
    );
  });
  after(async () => {
    await sim?.close();
    await db?.drop();
  });

  /**
   * A probe's lag is taken when the endpoint answered (start + time to first byte): a block produced
   * while the request was in flight counts, since the answer was that much behind when it arrived.
   * So a probe reads exactly the configured lag, except one whose flight a block boundary crossed,
   * which may read one more (or one less, for a boundary within FLIGHT_SLACK_MS after the answer).
   */
  function checkLags(name: string, configured: number): void {
    const lags = lagsOf.get(ids.get(name) ?? "") ?? [];
    const flights = flightOf.get(ids.get(name) ?? "") ?? [];
    const wrong = lags.flatMap((lag, i) => {
      const f = flights[i] ?? { during: 0, after: 0 };
      const low = Math.max(0, configured - f.after);
      return lag >= low && lag <= configured + f.during ? [] : [`probe ${i}: ${lag} (blocks in flight ${f.during})`];
    });
    assert.deepEqual(wrong, [], `${name} lags: ${lags.join(",")}`);
    const crossed = flights.filter((f) => f.during + f.after > 0).length;
    assert.ok(crossed <= lags.length / 4, `${name}: ${crossed} of ${lags.length} flights crossed a block boundary`);
  }

  test("an endpoint at the head reads lag 0 on every probe, wherever it sat in the round", () => {
    for (const name of ["fast", "medium", "slow", "flaky"]) {
      const lags = lagsOf.get(ids.get(name) ?? "") ?? [];
      assert.ok(lags.length >= ROUNDS * 0.6, `${name}: ${lags.length} successful probes`);
      checkLags(name, 0);
    }
  });

  test("a fixed lag is read exactly on every probe", () => {
    const lags = lagsOf.get(ids.get("lagging") ?? "") ?? [];
    assert.equal(lags.length, ROUNDS);
    checkLags("lagging", 30);
    const stalled = lagsOf.get(ids.get("stalled") ?? "") ?? [];
    assert.ok(
      stalled.every((l) => l >= 400),
      `20 minutes stalled on a 3 s chain: ≥ 400 blocks (${stalled.join(",")})`,
    );
  });

  test("health follows freshness: the lagging and stalled endpoints are never healthy (list, detail, status page)", async () => {
    for (const t of TRUTH) {
      const e = list.find((x) => x.id === ids.get(t.name));
      assert.equal(e?.health, t.health, `${t.name} health`);
    }
    const lagging = list.find((x) => x.id === ids.get("lagging"))!;
    assert.equal(lagging.uptime.h24, 0, "answers that lag are not counted as up");
    assert.equal(lagging.uptimeLagging.h24, 1, "they are counted as lagging");
    assert.equal(list.find((x) => x.id === ids.get("fast"))!.uptime.h24, 1);
    const detail = await getEndpointDetail({ sql: db.pool }, { endpointId: ids.get("lagging")! });
    assert.ok(detail.windows.filter((w) => w.region === "all").every((w) => w.health === "lagging"));
    const probes = await queryLatestEndpointProbes(db.pool, {
      endpointIds: [...ids.values()],
      since: new Date(Date.now() - 600_000),
    });
    const state = (name: string) =>
      deriveEndpointState(
        probes.filter((p) => p.endpointId === ids.get(name)),
        new Date(),
      );
    assert.equal(state("fast"), "operational");
    assert.equal(state("lagging"), "degraded", "90 s behind on a 3 s chain: degraded, as a node would be");
    assert.equal(state("stalled"), "partial_outage", "head 20 minutes old: past 3 × the head-age threshold");

    // The minutes the ranking job recorded for status-page uptime (served but degraded, as for nodes:
    // queryEndpointUptimeDays joins them with the 1-minute rollups, see directory-lag-decisions.int.test).
    const { rows: minutes } = await db.pool.query<{ endpoint_id: string; probes: number; lagging: number }>(
      "SELECT endpoint_id, probes, lagging FROM endpoint_freshness_minutes",
    );
    const of = (name: string) => minutes.filter((m) => m.endpoint_id === ids.get(name));
    assert.ok(of("lagging").length >= 1);
    assert.ok(of("lagging").every((m) => m.lagging === m.probes && m.probes > 0));
    assert.ok(of("fast").every((m) => m.lagging === 0));
  });

  test("the ranking orders the endpoints as configured (Kendall tau ≥ 0.85)", () => {
    const shown = list.map((e) => e.id);
    const tau = kendallTau(
      TRUTH.map((t) => ids.get(t.name) as string),
      shown,
    );
    const names = new Map([...ids].map(([n, id]) => [id, n]));
    assert.ok(tau >= 0.85, `tau ${tau}: shown ${shown.map((id) => names.get(id)).join(" > ")}`);
    assert.equal(names.get(shown[0] ?? ""), "fast");
  });
});
