// Lag truth on real software: two real Ethereum nodes (Hardhat 2), one mined N blocks ahead of the
// other, real rpcpulse-agent processes reading them, and the stored lag compared with the truth.
//
// Plain PostgreSQL: the whole pipeline (agents → ingest process → Redis/BullMQ → worker process →
// node_samples). TimescaleDB (PGlite in process, which serves one session and cannot back the
// ingest and worker processes): the same agents push to an in-test receiver that runs the
// production steps on it — wire validation, normaliseAgentBatch, the lag tracker, insertNodeSamples.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { after, before, describe, it } from "node:test";
import { insertNodeSamples, type NodeSampleInput } from "@rpcpulse/db/fleet";
import { type SqlClient } from "@rpcpulse/db/sql";
import {
  createTestDatabase,
  createTestNode,
  createTestOrg,
  createTimescaleTestDatabase,
  freePort,
  type TestDatabase,
  waitFor,
} from "@rpcpulse/db/testing";
import { agentBatchSchema, findNetwork } from "@rpcpulse/domain";
import { closeQueues, createRedisConnection, type Redis } from "@rpcpulse/queue";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import { createAgentToken, type AgentTokenDeps } from "@rpcpulse/services/fleet";
import { createNetworkHeadTracker, normaliseAgentBatch } from "@rpcpulse/services/ingest";
import { type ServiceContext } from "@rpcpulse/services/context";
import { startHardhatNode, type HardhatNode } from "./support/hardhat.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const INTERVAL_MS = 1_000;
const AHEAD = 16;

interface Enrolled {
  nodeId: string;
  token: string;
}

function spawnLogged(name: string, args: string[], env: Record<string, string>, cwd = root) {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = { text: "" };
  const keep = (d: Buffer) => (log.text = (log.text + d.toString()).slice(-20_000));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return { name, child, log };
}

async function stop(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  await once(child, "exit");
}

/** An agent process for `node`, pushing every INTERVAL_MS to `ingestUrl`. */
function startAgent(dir: string, name: string, node: HardhatNode, enrolled: Enrolled, ingestUrl: string) {
  const stateDir = path.join(dir, name);
  writeFileSync(path.join(dir, `${name}.token`), `${enrolled.token}\n`, { mode: 0o600 });
  const config = {
    family: "ethereum",
    rpcUrl: node.url,
    interval: `${INTERVAL_MS}ms`,
    ports: [Number(new URL(node.url).port)],
    nodeId: enrolled.nodeId,
    stateDir,
    ingestUrl,
    tokenFile: path.join(dir, `${name}.token`),
    logLevel: "warn",
  };
  writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(config));
  return spawnLogged(`agent-${name}`, ["apps/agent/src/cli.ts", "run", "--config", path.join(dir, `${name}.json`)], {
    HOME: dir,
  });
}

async function enroll(sql: SqlClient, orgId: string, name: string): Promise<Enrolled> {
  const { id: nodeId } = await createTestNode(sql, {
    organizationId: orgId,
    network: "ethereum-sepolia",
    apiFamily: "ethereum",
    clientName: "hardhat",
    name,
    localRpcUrl: "http://127.0.0.1:8545",
  });
  const ctx: ServiceContext = { userId: "u_test", organizationId: orgId, organizationSlug: orgId, role: "owner" };
  // PGlite is one session: "connect" hands out that session (a pg Pool is used as is).
  const session =
    "connect" in sql
      ? (sql as AgentTokenDeps["sql"])
      : { query: sql.query.bind(sql), connect: async () => ({ query: sql.query.bind(sql), release: () => undefined }) };
  const issued = await createAgentToken({ sql: session }, ctx, { nodeId });
  return { nodeId, token: issued.token };
}

interface StoredSample {
  time: number;
  head: number | null;
  lag: number | null;
}

async function samplesOf(sql: SqlClient, nodeId: string): Promise<StoredSample[]> {
  const { rows } = await sql.query(
    "SELECT time, head_block, lag_blocks FROM node_samples WHERE node_id = $1 ORDER BY time",
    [nodeId],
  );
  return (rows as Array<{ time: Date | string; head_block: unknown; lag_blocks: unknown }>).map((r) => ({
    time: new Date(r.time).getTime(),
    head: r.head_block === null ? null : Number(r.head_block),
    lag: r.lag_blocks === null ? null : Number(r.lag_blocks),
  }));
}

/**
 * The truth check shared by both storage modes: mine `leader` AHEAD blocks ahead of `follower`, then
 * every follower sample taken two intervals after the leader first reported its new head has lag
 * AHEAD (±1); then mine the follower past the leader and check the reverse.
 */
async function checkLagTruth(
  sql: SqlClient,
  nodes: { a: HardhatNode; b: HardhatNode },
  ids: { a: string; b: string },
  report: (line: string) => void,
) {
  await waitFor(
    "both agents' first samples",
    async () => {
      const [a, b] = await Promise.all([samplesOf(sql, ids.a), samplesOf(sql, ids.b)]);
      return a.length >= 2 && b.length >= 2 ? true : undefined;
    },
    30_000,
  );
  const phase = async (leader: "a" | "b", mined: number, expect: number) => {
    const follower = leader === "a" ? "b" : "a";
    await nodes[leader].mine(mined);
    const truth = (await nodes[leader].head()) - (await nodes[follower].head());
    assert.equal(truth, expect, "the nodes' own RPC says the lag is what was mined");
    const leaderHead = await nodes[leader].head();
    const leaderNew = await waitFor(
      `${leader} reports its new head`,
      async () => (await samplesOf(sql, ids[leader])).find((x) => x.head === leaderHead),
      30_000,
    );
    const settled = leaderNew.time + 2 * INTERVAL_MS;
    const after = await waitFor(
      `${follower} samples two intervals later`,
      async () => {
        const list = (await samplesOf(sql, ids[follower])).filter((x) => x.time >= settled);
        return list.length >= 3 ? list : undefined;
      },
      30_000,
    );
    // Let any late batch land, then read the stored values again.
    await new Promise((r) => setTimeout(r, 1_500));
    const stored = (await samplesOf(sql, ids[follower])).filter(
      (x) => x.time >= settled && x.time <= after.at(-1)!.time,
    );
    for (const s of stored) {
      assert.ok(
        s.lag !== null && Math.abs(s.lag - truth) <= 1,
        `${follower} lag ${s.lag} vs truth ${truth} at ${s.time}`,
      );
    }
    const exact = stored.filter((s) => s.lag === truth).length;
    report(
      `${follower} behind ${leader}: truth ${truth}, stored ${stored.map((s) => s.lag).join(",")} (${exact}/${stored.length} exact)`,
    );
  };
  await phase("a", AHEAD, AHEAD);
  await phase("b", AHEAD + 5, 5);
}

describe("lag truth on two real Ethereum nodes (Hardhat 2)", { timeout: 240_000 }, () => {
  let dir: string;
  const figures: string[] = [];

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), "rpcpulse-lag-truth-"));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    process.stdout.write(`# lag truth figures:\n${figures.map((f) => `#   ${f}`).join("\n")}\n`);
  });

  it("plain PostgreSQL, full pipeline: stored lag equals the mined distance (±1) in either direction", async () => {
    let db: TestDatabase | undefined;
    let redis: Redis | undefined;
    const nodes: HardhatNode[] = [];
    const procs: Array<ReturnType<typeof spawnLogged>> = [];
    const prefix = uniquePrefix();
    try {
      db = await createTestDatabase();
      const [a, b] = await Promise.all([startHardhatNode(), startHardhatNode()]);
      nodes.push(a!, b!);
      const orgId = `org_truth_${prefix.slice(-6)}`;
      await createTestOrg(db, { id: orgId });
      const ea = await enroll(db.pool, orgId, "hardhat-a");
      const eb = await enroll(db.pool, orgId, "hardhat-b");
      const ingestPort = await freePort();
      const common = { DATABASE_URL: db.url, REDIS_URL: SHARED_REDIS_URL, QUEUE_PREFIX: prefix, LOG_LEVEL: "warn" };
      procs.push(
        spawnLogged("ingest", ["apps/ingest/src/main.ts"], {
          ...common,
          INGEST_HOST: "127.0.0.1",
          INGEST_PORT: String(ingestPort),
          INGEST_WORKERS: "1",
          INGEST_RATE_PER_SECOND: "100",
        }),
        spawnLogged("worker", ["apps/worker/src/main.ts"], {
          ...common,
          WORKER_ID: `truth-${prefix}`,
          WORKER_HEALTH_HOST: "127.0.0.1",
          WORKER_HEALTH_PORT: "0",
          WORKER_REGISTER_SCHEDULES: "false",
          WORKER_MAINTENANCE_ENABLED: "false",
          WORKER_HEARTBEAT_INTERVAL_MS: "60000",
        }),
      );
      await waitFor(
        "ingest /healthz",
        async () => {
          const res = await fetch(`http://127.0.0.1:${ingestPort}/healthz`).catch(() => null);
          return res?.ok ? true : undefined;
        },
        30_000,
      );
      const ingestUrl = `http://127.0.0.1:${ingestPort}/v1/ingest`;
      procs.push(startAgent(dir, "a", a!, ea, ingestUrl), startAgent(dir, "b", b!, eb, ingestUrl));
      await checkLagTruth(db.pool, { a: a!, b: b! }, { a: ea.nodeId, b: eb.nodeId }, (l) =>
        figures.push(`plain: ${l}`),
      );
    } catch (error) {
      for (const p of procs) process.stderr.write(`--- ${p.name}\n${p.log.text.slice(-3_000)}\n`);
      throw error;
    } finally {
      for (const p of procs.reverse()) await stop(p.child);
      for (const n of nodes) await n.stop();
      redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
      await deleteKeys(redis, prefix).catch(() => undefined);
      await closeQueues(redis);
      await redis.quit();
      await db?.drop();
    }
  });

  it("TimescaleDB (PGlite): the same agents and the production lag steps give the same figures", async () => {
    const ts = await createTimescaleTestDatabase();
    const nodes: HardhatNode[] = [];
    const procs: Array<ReturnType<typeof spawnLogged>> = [];
    let server: Server | undefined;
    try {
      const [a, b] = await Promise.all([startHardhatNode(), startHardhatNode()]);
      nodes.push(a!, b!);
      // The PGlite database is migrated but not seeded: the one network this test enrols on.
      const sepolia = findNetwork("ethereum-sepolia")!;
      await ts.sql.query(
        `INSERT INTO chains (slug, name, api_families, finality, finality_note)
         VALUES ('ethereum', 'Ethereum', ARRAY['ethereum']::api_family[], 'finalized-checkpoint', 'Casper FFG')`,
      );
      await ts.sql.query(
        `INSERT INTO networks (slug, chain_slug, name, block_interval_ms, chain_id, testnet) VALUES ($1, 'ethereum', $2, $3, $4, true)`,
        [sepolia.slug, sepolia.name, sepolia.blockIntervalMs, sepolia.chainId],
      );
      await createTestOrg(ts, { id: "org_ts" });
      const ea = await enroll(ts.sql, "org_ts", "hardhat-a");
      const eb = await enroll(ts.sql, "org_ts", "hardhat-b");
      const { rows } = await ts.sql.query(
        "SELECT n.id, n.network_id, n.organization_id FROM nodes n WHERE n.id = ANY($1::uuid[])",
        [[ea.nodeId, eb.nodeId]],
      );
      const nodeInfo = new Map(
        (rows as Array<{ id: string; network_id: string; organization_id: string }>).map((r) => [r.id, r]),
      );
      const byToken = new Map([
        [ea.token, ea.nodeId],
        [eb.token, eb.nodeId],
      ]);
      const tracker = createNetworkHeadTracker({ sql: ts.sql }, { refreshMs: 0 });
      // PGlite is one session: writes are serialised through this chain.
      let chain: Promise<unknown> = Promise.resolve();
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          const nodeId = byToken.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
          const info = nodeId ? nodeInfo.get(nodeId) : undefined;
          if (!info) return void res.writeHead(401).end();
          const raw = Buffer.concat(chunks);
          const body = req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
          const batch = agentBatchSchema.parse(JSON.parse(body.toString("utf8")));
          const normalised = normaliseAgentBatch(batch);
          const headBatch = {
            organizationId: info.organization_id,
            networkId: info.network_id,
            nodeId: info.id,
            times: normalised.samples.time,
            heads: normalised.samples.headBlock,
            headTimes: normalised.samples.headTime,
          };
          chain = chain.then(async () => {
            await tracker.refresh();
            tracker.observe(headBatch);
            const lags = tracker.lagBlocks(headBatch);
            const sampleRows: NodeSampleInput[] = normalised.samples.time.map((time, i) => {
              const row: Record<string, unknown> = { time: new Date(time), nodeId: info.id, lagBlocks: lags[i] };
              for (const [field, values] of Object.entries(normalised.samples)) {
                if (field !== "time") row[field] = (values as unknown[])[i];
              }
              return row as NodeSampleInput;
            });
            await insertNodeSamples(ts.sql, sampleRows);
            for (const c of tracker.revise([headBatch])) {
              await ts.sql.query("UPDATE node_samples SET lag_blocks = $3 WHERE node_id = $1 AND time = $2", [
                c.nodeId,
                new Date(c.time),
                c.lagBlocks,
              ]);
            }
          });
          chain.then(
            () => res.writeHead(202, { "content-type": "application/json" }).end('{"status":"accepted"}'),
            (error: unknown) => res.writeHead(500).end(String(error)),
          );
        });
      });
      server.listen(0, "127.0.0.1");
      await once(server, "listening");
      const ingestUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/ingest`;
      procs.push(startAgent(dir, "ts-a", a!, ea, ingestUrl), startAgent(dir, "ts-b", b!, eb, ingestUrl));
      await checkLagTruth(ts.sql, { a: a!, b: b! }, { a: ea.nodeId, b: eb.nodeId }, (l) =>
        figures.push(`timescale: ${l}`),
      );
    } catch (error) {
      for (const p of procs) process.stderr.write(`--- ${p.name}\n${p.log.text.slice(-3_000)}\n`);
      throw error;
    } finally {
      for (const p of procs.reverse()) await stop(p.child);
      for (const n of nodes) await n.stop();
      await new Promise((r) => (server ? server.close(r) : r(undefined)));
      await ts.close();
    }
  });
});
