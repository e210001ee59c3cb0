// End to end: agent-style client → ingest API (in-process) → BullMQ (real Redis, own prefix) →
// the real worker process (apps/worker/src/main.ts) → PostgreSQL (own database). Counts are exact.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { Writable } from "node:stream";
import { createLogger } from "@rpcpulse/config";
import { quoteIdent } from "@rpcpulse/db/migrate";
import { connectSqlSession, createTestDatabase, type TestDatabase, waitFor } from "@rpcpulse/db/testing";
import { closeQueues, createRedisConnection, getQueue, publishAgentTokenChange, type Redis } from "@rpcpulse/queue";
import { revokeAgentToken } from "@rpcpulse/services/fleet";
import { parseIngestEnv } from "../src/env.js";
import { startIngest, type RunningIngest } from "../src/start-ingest.js";
import { gzipBatch, makeAgentBatch, type BatchOptions } from "./support/agent-batches.js";
import { issueToken, seedNode, type SeededNode } from "./support/fleet.js";
import { postBatch } from "./support/http.js";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";

const workerDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../worker");

/** Seeded PRNG so the fault pattern is the same on every run. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32;
}

/**
 * A fault-injecting HTTP proxy in front of the ingest API: `failRate` of the requests are answered
 * 5xx — half without forwarding (503), half after the ingest API accepted them (502: the agent
 * must retry a batch that was in fact queued).
 */
async function startFaultProxy(targetPort: number, failRate: number) {
  const random = lcg(42);
  const stats = { forwarded: 0, refused: 0, swallowed: 0 };
  const server: Server = createServer((req, res) => {
    const roll = random();
    if (roll < failRate / 2) {
      stats.refused++;
      req.resume();
      req.on("end", () => res.writeHead(503, { "retry-after": "0" }).end("injected"));
      return;
    }
    const swallow = roll < failRate;
    const upstream = request(
      { host: "127.0.0.1", port: targetPort, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        if (swallow) {
          stats.swallowed++;
          up.resume();
          up.on("end", () => res.writeHead(502).end("injected after forwarding"));
          return;
        }
        stats.forwarded++;
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { port: (server.address() as AddressInfo).port, stats, close: () => new Promise((r) => server.close(r)) };
}

/** What rpcpulse-agent does per batch: retry 5xx and network errors with backoff, never other 4xx. */
async function pushLikeAgent(port: number, token: string, body: Buffer): Promise<{ attempts: number; status: number }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const reply = await postBatch(port, { token, body });
      if (reply.status < 300) return { attempts: attempt, status: reply.status };
      if (reply.status !== 429 && reply.status < 500) {
        throw new Error(`refused with ${reply.status}: ${JSON.stringify(reply.json)}`);
      }
    } catch (error) {
      if ((error as Error).message.startsWith("refused")) throw error;
    }
    if (attempt > 50) throw new Error("gave up");
    await new Promise((r) => setTimeout(r, Math.min(200, 10 * 2 ** attempt) * (0.8 + Math.random() * 0.4)));
  }
}

describe("ingest pipeline end to end (real worker process, Redis, PostgreSQL)", () => {
  let db: TestDatabase;
  let redis: Redis;
  let prefix: string;
  let ingest: RunningIngest;
  let worker: ChildProcess;
  let workerLog = "";

  const count = async (sql: string, params: unknown[] = []) => {
    const { rows } = await db.pool.query<{ n: string }>(sql, params);
    return Number(rows[0]?.n ?? 0);
  };
  const samplesOf = (nodeId: string) => count("SELECT count(*) AS n FROM node_samples WHERE node_id = $1", [nodeId]);
  const waitForSamples = (nodeId: string, n: number, timeoutMs = 30_000) =>
    waitFor(`${n} samples of ${nodeId}`, async () => ((await samplesOf(nodeId)) === n ? true : undefined), timeoutMs);

  const newNode = async (organizationId?: string): Promise<SeededNode & { token: string; tokenId: string }> => {
    const node = await seedNode(db, organizationId);
    return { ...node, ...(await issueToken(db, node)) };
  };

  before(async () => {
    db = await createTestDatabase();
    db.pool.on("error", () => undefined);
    prefix = uniquePrefix();
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
    const silent = createLogger({
      name: "ingest",
      level: "warn",
      destination: new Writable({ write: (_c, _e, done) => done() }),
    });
    ingest = await startIngest(
      parseIngestEnv({
        DATABASE_URL: db.url,
        REDIS_URL: SHARED_REDIS_URL,
        QUEUE_PREFIX: prefix,
        INGEST_HOST: "127.0.0.1",
        INGEST_PORT: "0",
        INGEST_RATE_BURST: "1000",
        INGEST_RATE_PER_SECOND: "1000",
      }),
      silent,
    );
    worker = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: workerDir,
      env: {
        DATABASE_URL: db.url,
        REDIS_URL: SHARED_REDIS_URL,
        QUEUE_PREFIX: prefix,
        WORKER_ID: `ingest-test-${prefix}`,
        WORKER_HEALTH_HOST: "127.0.0.1",
        WORKER_HEALTH_PORT: "0",
        WORKER_REGISTER_SCHEDULES: "false",
        WORKER_MAINTENANCE_ENABLED: "false",
        WORKER_HEARTBEAT_INTERVAL_MS: "60000",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    worker.stdout?.on("data", (d: Buffer) => (workerLog += d.toString()));
    worker.stderr?.on("data", (d: Buffer) => (workerLog += d.toString()));
  });

  after(async () => {
    if (worker && worker.exitCode === null) {
      worker.kill("SIGTERM");
      await once(worker, "exit");
    }
    await ingest?.stop();
    await closeQueues(redis);
    await deleteKeys(redis, prefix);
    await redis.quit();
    await db.drop();
  });

  it("lands every sample once, marks the node connected, stores remote IPs and lag against the network head", async () => {
    // Two nodes of one organization: the follower's lag is measured against its own leader (another
    // organization's node would not count, and without a consensus head a lone node's lag is unknown).
    const leader = await newNode();
    const follower = await newNode(leader.organizationId);
    assert.equal(leader.networkId, follower.networkId);
    const start = new Date(Date.now() - 120_000);
    const base: BatchOptions = { samples: 6, remoteIps: 2, start };
    for (let seq = 1; seq <= 3; seq++) {
      const opts = { ...base, start: new Date(start.getTime() + (seq - 1) * 60_000), headBlock: 5_000 + seq };
      assert.equal(
        (await postBatch(ingest.port, { token: leader.token, body: gzipBatch(makeAgentBatch(seq, opts)) })).status,
        202,
      );
    }
    await waitForSamples(leader.nodeId, 18);
    for (let seq = 1; seq <= 3; seq++) {
      const opts = { ...base, start: new Date(start.getTime() + (seq - 1) * 60_000), headBlock: 5_000 + seq - 5 };
      await postBatch(ingest.port, { token: follower.token, body: gzipBatch(makeAgentBatch(seq, opts)) });
    }
    await waitForSamples(follower.nodeId, 18);
    // Replays of every batch: answered duplicate, nothing stored twice.
    for (let seq = 1; seq <= 3; seq++) {
      const opts = { ...base, start: new Date(start.getTime() + (seq - 1) * 60_000), headBlock: 5_000 + seq };
      const replay = await postBatch(ingest.port, { token: leader.token, body: gzipBatch(makeAgentBatch(seq, opts)) });
      assert.equal(replay.json.status, "duplicate");
    }
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await samplesOf(leader.nodeId), 18);
    assert.equal(await count("SELECT count(*) AS n FROM node_remote_ips WHERE node_id = $1", [leader.nodeId]), 36);
    const node = await db.pool.query<{ last_seen_at: Date | null; agent_version: string; client_version: string }>(
      "SELECT last_seen_at, agent_version, client_version FROM nodes WHERE id = $1",
      [leader.nodeId],
    );
    assert.ok(node.rows[0]?.last_seen_at, "connected: lastSeenAt set by the first batch");
    assert.equal(node.rows[0]?.agent_version, "0.1.0");
    assert.equal(node.rows[0]?.client_version, "hived 1.27.5");
    const lag = await db.pool.query<{ node_id: string; lag: number }>(
      "SELECT node_id, max(lag_blocks) AS lag FROM node_samples WHERE node_id = ANY($1::uuid[]) GROUP BY node_id",
      [[leader.nodeId, follower.nodeId]],
    );
    const byNode = Object.fromEntries(lag.rows.map((r) => [r.node_id, r.lag]));
    assert.equal(byNode[leader.nodeId], 0);
    assert.equal(byNode[follower.nodeId], 5);
    assert.equal(await count("SELECT count(*) AS n FROM node_latest WHERE node_id = $1", [leader.nodeId]), 1);
  });

  it("PostgreSQL unavailable for a while: batches are accepted, wait, and land when it returns (0 lost, 0 duplicated)", async () => {
    const node = await newNode();
    const start = Date.now() - 600_000;
    const batch = (seq: number) =>
      gzipBatch(makeAgentBatch(seq, { samples: 6, remoteIps: 2, start: new Date(start + seq * 60_000) }));
    assert.equal((await postBatch(ingest.port, { token: node.token, body: batch(1) })).status, 202);
    await waitForSamples(node.nodeId, 6);

    const admin = await connectSqlSession(db.url.replace(/\/[^/]+$/, "/postgres"));
    try {
      await admin.query(`ALTER DATABASE ${quoteIdent(db.name)} ALLOW_CONNECTIONS false`);
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [db.name]);
      for (let seq = 2; seq <= 9; seq++) {
        const reply = await postBatch(ingest.port, { token: node.token, body: batch(seq) });
        assert.equal(reply.status, 202, "accepted from the token cache while PostgreSQL is down");
      }
      const queue = getQueue("ingest", { connection: redis, prefix });
      // The worker tries, finds PostgreSQL away and puts the job back without using up an attempt.
      await waitFor(
        "a deferred try",
        async () => {
          const jobs = await queue.getJobs(["delayed", "wait", "active"]);
          return jobs.some((j) => j.attemptsStarted >= 2) ? true : undefined;
        },
        15_000,
      );
      assert.ok((await queue.getJobs(["delayed", "wait", "active"])).every((j) => j.attemptsMade === 0));
      await new Promise((r) => setTimeout(r, 1_500));
    } finally {
      await admin.query(`ALTER DATABASE ${quoteIdent(db.name)} ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    await waitForSamples(node.nodeId, 54, 45_000);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(await samplesOf(node.nodeId), 54);
    assert.equal(
      await count("SELECT count(DISTINCT time) AS n FROM node_samples WHERE node_id = $1", [node.nodeId]),
      54,
    );
    assert.equal(await count("SELECT count(*) AS n FROM node_remote_ips WHERE node_id = $1", [node.nodeId]), 108);
  });

  it("20 % of requests answered 5xx by a faulty proxy: an agent-style client ends with 0 lost, 0 duplicated", async () => {
    const proxy = await startFaultProxy(ingest.port, 0.2);
    try {
      const nodes = await Promise.all([newNode(), newNode(), newNode(), newNode()]);
      const batches = 20;
      const per = 4;
      const start = Date.now() - 3_600_000;
      const results = await Promise.all(
        nodes.map(async (node) => {
          let attempts = 0;
          for (let seq = 1; seq <= batches; seq++) {
            const body = gzipBatch(
              makeAgentBatch(seq, { samples: per, remoteIps: 1, start: new Date(start + seq * per * 10_000) }),
            );
            attempts += (await pushLikeAgent(proxy.port, node.token, body)).attempts;
          }
          return attempts;
        }),
      );
      const requests = results.reduce((a, b) => a + b, 0);
      assert.ok(proxy.stats.refused + proxy.stats.swallowed > 0.1 * requests, JSON.stringify(proxy.stats));
      assert.ok(proxy.stats.swallowed > 0, "some accepted batches were reported as failures and retried");
      for (const node of nodes) await waitForSamples(node.nodeId, batches * per);
      await new Promise((r) => setTimeout(r, 500));
      const ids = nodes.map((n) => n.nodeId);
      assert.equal(await count("SELECT count(*) AS n FROM node_samples WHERE node_id = ANY($1::uuid[])", [ids]), 320);
      assert.equal(
        await count("SELECT count(DISTINCT (node_id, time)) AS n FROM node_samples WHERE node_id = ANY($1::uuid[])", [
          ids,
        ]),
        320,
      );
      assert.equal(
        await count("SELECT count(*) AS n FROM node_remote_ips WHERE node_id = ANY($1::uuid[])", [ids]),
        320,
      );
    } finally {
      await proxy.close();
    }
  });

  it("a revoked token is refused at once when the change is published (and before the cache TTL)", async () => {
    const node = await newNode();
    const body = gzipBatch(makeAgentBatch(1, { samples: 1 }));
    assert.equal((await postBatch(ingest.port, { token: node.token, body })).status, 202);
    await revokeAgentToken(
      { sql: db.pool, notifyChanged: (p) => publishAgentTokenChange(redis, prefix, p) },
      node.ctx,
      { tokenId: node.tokenId },
    );
    const refused = await waitFor(
      "401 after revocation",
      async () => ((await postBatch(ingest.port, { token: node.token, body })).status === 401 ? true : undefined),
      2_000,
    );
    assert.equal(refused, true);
    assert.equal(workerLog.includes(node.token), false);
  });
});
