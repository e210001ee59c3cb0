// Server probers in two regions, as two real worker processes (PROBE_REGION eu and us) on one
// PostgreSQL database and one Redis prefix, against simnet. The us worker's probes leave from
// 127.0.0.2 (PROBE_LOCAL_ADDRESS) and a TCP relay in front of one node drops that source address: a
// network partition only the us region sees. Proves: each region probes every endpoint each round
// from its own queue, probes are labelled per region, and the ranking's overall status, the listing
// status and the consensus head need a quorum of the reporting regions, including once us stops.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import net from "node:net";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createTestDatabase, type TestDatabase, waitFor } from "@rpcpulse/db/testing";
import { closeQueues, createRedisConnection, getQueue, type QueueTarget, type Redis } from "@rpcpulse/queue";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import { seedDemoDirectory } from "@rpcpulse/services/directory";
import { startSimnet, type Simnet } from "@rpcpulse/simnet";

const workerDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PARTITIONED_SOURCE = "127.0.0.2";

/** A TCP relay to `port` that resets every connection from `refused` (the partitioned region). */
async function startPartitionRelay(port: number, refused: string): Promise<{ port: number; close: () => void }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    if (client.remoteAddress?.replace(/^::ffff:/, "") === refused) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(port, "127.0.0.1");
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end);
    upstream.on("error", end);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

interface SnapshotRow {
  endpoint_id: string;
  region: string;
  status: string;
  components: {
    regionQuorum?: {
      status: string;
      split: boolean;
      quorum: number;
      regions: Record<string, string>;
      silent: string[];
    };
  };
}

describe("server probers per region: two worker processes, one queue each, quorum views", () => {
  let db: TestDatabase;
  let sim: Simnet;
  let redis: Redis;
  let target: QueueTarget;
  let relay: { port: number; close: () => void };
  const procs = new Map<string, { proc: ChildProcess; log: () => string }>();
  const ids = new Map<string, string>();

  const startRegionWorker = (region: string, localAddress: string) => {
    let log = "";
    const proc = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: workerDir,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: db.url,
        REDIS_URL: SHARED_REDIS_URL,
        QUEUE_PREFIX: target.prefix,
        WORKER_ID: `${region}-${target.prefix}`,
        WORKER_ROLE: "probes",
        WORKER_HEALTH_HOST: "127.0.0.1",
        WORKER_HEALTH_PORT: "0",
        WORKER_INGEST_ENABLED: "false",
        WORKER_ALERTS_ENABLED: "false",
        WORKER_NOTIFY_ENABLED: "false",
        WORKER_ADVISOR_ENABLED: "false",
        WORKER_HEARTBEAT_INTERVAL_MS: "500",
        PROBE_REGION: region,
        PROBE_LOCAL_ADDRESS: localAddress,
        PROBE_REGION_TTL_MS: "2500",
        PROBE_ALLOW_PRIVATE: "true",
        PROBE_ONLY_PRIVATE: "true",
        PROBE_INTERVAL_MS: "1000",
        PROBE_JITTER: "0.2",
        PROBE_TIMEOUT_MS: "2000",
        PROBE_CAPABILITY_INTERVAL_MS: "3600000",
        PUBLIC_HEAD_INTERVAL_MS: "3600000",
        PRODUCER_INTERVAL_MS: "3600000",
        DIRECTORY_RANK_INTERVAL_MS: "2000",
        NETWORK_HEAD_INTERVAL_MS: "1000",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    proc.stdout?.on("data", (d: Buffer) => (log += d.toString()));
    proc.stderr?.on("data", (d: Buffer) => (log += d.toString()));
    procs.set(region, { proc, log: () => log });
  };

  const stopRegionWorker = async (region: string) => {
    const handle = procs.get(region);
    if (!handle || handle.proc.exitCode !== null || handle.proc.signalCode !== null) return;
    handle.proc.kill("SIGTERM");
    await once(handle.proc, "exit");
  };

  const snapshot = async (window: string): Promise<SnapshotRow[]> => {
    const { rows } = await db.pool.query<SnapshotRow>(
      `SELECT endpoint_id, region, status, components FROM endpoint_rankings WHERE network = 'ethereum-mainnet' AND "window" = $1`,
      [window],
    );
    return rows;
  };
  const rowOf = (rows: SnapshotRow[], name: string, region: string) =>
    rows.find((r) => r.endpoint_id === ids.get(name) && r.region === region);

  before(async () => {
    db = await createTestDatabase();
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker", connectionName: "probe-regions-test" });
    target = { connection: redis, prefix: uniquePrefix() };
    sim = await startSimnet({
      seed: "probe-regions",
      nodes: ["eth-a", "eth-b", "eth-c", "eth-split"].map((name) => ({
        name,
        family: "ethereum" as const,
        network: "ethereum-mainnet",
        port: 0,
        latency: { kind: "fixed" as const, ms: 5 },
        // simnet builds every block of an eth_getLogs range in this (the test's) event loop: a provider's
        // usual cap keeps the capability check's widest range from stalling every endpoint.
        getLogsMaxRange: 100,
      })),
    });
    const split = sim.nodes.find((n) => n.name === "eth-split");
    assert.ok(split);
    relay = await startPartitionRelay(split.port, PARTITIONED_SOURCE);
    const seeded = await seedDemoDirectory(
      { sql: db.pool },
      {
        nodes: [
          ...sim.nodes.map((n) => ({
            name: n.name,
            family: n.family,
            network: n.network,
            port: n.name === "eth-split" ? relay.port : n.port,
          })),
          // Nothing listens here: both regions see it down.
          { name: "eth-down", family: "ethereum", network: "ethereum-mainnet", port: 9 },
        ],
      },
    );
    for (const s of seeded) ids.set(s.name, s.id);
    // An established listing: every endpoint starts active, so the quorum decides what changes.
    await db.pool.query(`UPDATE public_endpoints SET status = 'active'`);
  });

  after(async () => {
    await Promise.all([...procs.keys()].map((r) => stopRegionWorker(r)));
    relay?.close();
    await sim?.close();
    await closeQueues(redis);
    await deleteKeys(redis, target.prefix);
    await redis.quit();
    await db?.drop();
  });

  it("each region probes every endpoint from its own queue; views and head combine regions with a quorum", async () => {
    startRegionWorker("eu", "127.0.0.1");
    startRegionWorker("us", PARTITIONED_SOURCE);
    const names = ["eth-a", "eth-b", "eth-c", "eth-split", "eth-down"];

    // 1. Every endpoint probed by both regions, round after round, each probe labelled with its region.
    const counts = await waitFor(
      "25 probes of every endpoint from each region",
      async () => {
        const { rows } = await db.pool.query<{ region: string; endpoint_id: string; n: number; ok: number }>(
          `SELECT v.region, p.endpoint_id, count(*)::int AS n, count(*) FILTER (WHERE p.ok)::int AS ok
         FROM probe_results p JOIN vantage_points v ON v.id = p.vantage_point_id GROUP BY 1, 2`,
        );
        const enough = ["eu", "us"].every((region) =>
          names.every(
            (name) => (rows.find((r) => r.region === region && r.endpoint_id === ids.get(name))?.n ?? 0) >= 25,
          ),
        );
        return enough ? rows : undefined;
      },
      120_000,
    );
    const of = (region: string, name: string) =>
      counts.find((r) => r.region === region && r.endpoint_id === ids.get(name));
    const { rows: vps } = await db.pool.query<{ name: string; region: string; kind: string }>(
      `SELECT name, region, kind::text FROM vantage_points ORDER BY name`,
    );
    assert.deepEqual(vps, [
      { name: "server:eu", region: "eu", kind: "server" },
      { name: "server:us", region: "us", kind: "server" },
    ]);
    // Rounds probe every endpoint once: within a region the endpoints' counts stay within a round or two.
    for (const region of ["eu", "us"]) {
      const n = names.map((name) => of(region, name)?.n ?? 0);
      assert.ok(Math.max(...n) - Math.min(...n) <= 2, `${region} probed the endpoints unevenly: ${n.join(", ")}`);
    }
    const { rows: splitErrors } = await db.pool.query<{ region: string; error_class: string; error_message: string }>(
      `SELECT DISTINCT v.region, p.error_class, p.error_message FROM probe_results p
       JOIN vantage_points v ON v.id = p.vantage_point_id WHERE p.endpoint_id = $1 AND NOT p.ok`,
      [ids.get("eth-split")],
    );
    assert.equal(
      of("eu", "eth-split")?.ok,
      of("eu", "eth-split")?.n,
      `eu reaches the split endpoint: ${JSON.stringify(splitErrors)}`,
    );
    assert.equal(of("us", "eth-split")?.ok, 0, "us is partitioned from it");
    assert.equal(of("eu", "eth-down")?.ok, 0);
    assert.equal(of("us", "eth-down")?.ok, 0);
    assert.equal(of("us", "eth-a")?.ok, of("us", "eth-a")?.n);
    // The rounds came from each region's own queue.
    for (const region of ["eu", "us"]) {
      const done = await getQueue("probe", target, region).getJobCounts("completed");
      assert.ok((done.completed ?? 0) >= 25, `probe.${region} completed ${done.completed} rounds`);
    }

    // 2. Ranking: per-region views differ on the split endpoint; the overall view needs the quorum (2 of 2).
    const split = await waitFor(
      "a snapshot where us sees the split endpoint dead",
      async () => {
        const rows = await snapshot("1h");
        const us = rowOf(rows, "eth-split", "us");
        const all = rowOf(rows, "eth-split", "all");
        return us?.status === "dead" &&
          all?.components.regionQuorum &&
          rowOf(rows, "eth-down", "all")?.components.regionQuorum
          ? rows
          : undefined;
      },
      120_000,
    );
    const eu = rowOf(split, "eth-split", "eu");
    assert.ok(eu && eu.status !== "dead", `eu sees the split endpoint ${eu?.status}`);
    const verdict = rowOf(split, "eth-split", "all")?.components.regionQuorum;
    assert.equal(verdict?.quorum, 2);
    assert.equal(verdict?.split, true);
    assert.equal(verdict?.regions.us, "dead");
    assert.equal(rowOf(split, "eth-split", "all")?.status, "degraded", "no quorum either way: degraded");
    assert.equal(rowOf(split, "eth-down", "all")?.status, "dead", "both regions see it dead");
    const healthyA = rowOf(split, "eth-a", "all")?.components.regionQuorum;
    assert.equal(healthyA?.split, false);
    assert.notEqual(rowOf(split, "eth-a", "all")?.status, "dead");

    // Listing status: the split endpoint stays active (one region's failures are no quorum); eth-down goes dead.
    const listing = await waitFor(
      "eth-down delisted as dead",
      async () => {
        const { rows } = await db.pool.query<{ id: string; status: string }>(
          `SELECT id, status::text FROM public_endpoints`,
        );
        return rows.find((r) => r.id === ids.get("eth-down"))?.status === "dead" ? rows : undefined;
      },
      120_000,
    );
    assert.equal(listing.find((r) => r.id === ids.get("eth-split"))?.status, "active");

    // 3. Consensus head: the split endpoint does not vote while only one of two regions reaches it.
    const sources = async () => {
      const { rows } = await db.pool.query<{ evidence: Array<{ source: string }>; considered: number; time: Date }>(
        `SELECT evidence, considered, time FROM network_heads ORDER BY time DESC LIMIT 1`,
      );
      return rows[0];
    };
    const head = await waitFor("a stored network head", sources, 120_000);
    const voters = head.evidence.map((e) => e.source).sort();
    assert.deepEqual(voters, ["eth-a", "eth-b", "eth-c"].map((n) => `endpoint:${ids.get(n)}`).sort());

    // 4. us stops reporting: its rounds stop being fanned out, and eu's view decides alone.
    const euBefore = (await getQueue("probe", target, "eu").getJobCounts("completed")).completed ?? 0;
    await stopRegionWorker("us");
    const stoppedAt = Date.now();
    const headAfter = await waitFor(
      "the split endpoint voting once us is silent",
      async () => {
        const h = await sources();
        return h &&
          h.time.getTime() > stoppedAt &&
          h.evidence.some((e) => e.source === `endpoint:${ids.get("eth-split")}`)
          ? h
          : undefined;
      },
      120_000,
    );
    assert.equal(headAfter.considered, 4);
    const alone = await waitFor(
      "an overall verdict with us silent",
      async () => {
        const rows = await snapshot("1h");
        const v = rowOf(rows, "eth-split", "all")?.components.regionQuorum;
        return v?.silent.includes("us") ? rows : undefined;
      },
      120_000,
    );
    const aloneVerdict = rowOf(alone, "eth-split", "all")?.components.regionQuorum;
    assert.deepEqual(Object.keys(aloneVerdict?.regions ?? {}), ["eu"]);
    assert.equal(aloneVerdict?.quorum, 1);
    assert.equal(
      rowOf(alone, "eth-split", "all")?.status,
      aloneVerdict?.regions.eu,
      "eu's own status is the overall one",
    );
    // No more rounds for us: its queue gets nothing new once its heartbeat is older than the TTL.
    await new Promise((r) => setTimeout(r, 4_000));
    const usQueue = getQueue("probe", target, "us");
    const before = await usQueue.getJobCounts("waiting", "delayed", "completed");
    await new Promise((r) => setTimeout(r, 3_000));
    const later = await usQueue.getJobCounts("waiting", "delayed", "completed");
    assert.deepEqual(later, before, "us gets no rounds after its workers stopped");
    const euDone = await getQueue("probe", target, "eu").getJobCounts("completed");
    assert.ok((euDone.completed ?? 0) > euBefore, "eu goes on probing");
    assert.equal(procs.get("eu")?.proc.exitCode, null, `eu worker alive:\n${procs.get("eu")?.log() ?? ""}`);
  });
});
