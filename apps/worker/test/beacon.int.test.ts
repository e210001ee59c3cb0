// Ethereum consensus clients end to end: a real rpcpulse-agent process reads simnet's Ethereum node and
// the Beacon API beside it (--beacon-url), pushes to the real ingest process, the in-process worker
// writes beacon_samples / node_beacon_latest; simnet's control server makes the beacon node fall behind
// (its execution node stalls with it), and the consensus_client_behind rule delivers a webhook naming
// the slots. Plain PostgreSQL. TimescaleDB (PGlite in process, one session: it cannot back the ingest and
// worker processes): the same agent pushes to an in-test receiver running the production steps on it
// (wire validation, normaliseAgentBatch with the own-EL check, writeBeaconSamples of the flush), and the
// rule's measurement reads node_beacon_latest from the hypertable's side.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createServer, type Server } from "node:http";
import { gunzipSync } from "node:zlib";
import { after, before, describe, it } from "node:test";
import { createLogger } from "@rpcpulse/config";
import { listBeaconSeries, listNodeBeaconLatest, writeBeaconSamples } from "@rpcpulse/db/fleet";
import {
  createTestDatabase,
  createTestNode,
  createTestOrg,
  createTimescaleTestDatabase,
  freePort,
  type TestDatabase,
  waitFor,
} from "@rpcpulse/db/testing";
import { agentBatchSchema } from "@rpcpulse/domain";
import { startHttpReceiver } from "@rpcpulse/notify/testing";
import { closeQueues, createRedisConnection, type Redis } from "@rpcpulse/queue";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import { createAgentToken } from "@rpcpulse/services/fleet";
import {
  createAlertChannel,
  createAlertRule,
  deriveSecretsKey,
  measureConsensusBehind,
} from "@rpcpulse/services/alerting";
import { normaliseAgentBatch } from "@rpcpulse/services/ingest";
import { type ServiceContext } from "@rpcpulse/services/context";
import { startSimnet, type Simnet } from "@rpcpulse/simnet";
import { parseWorkerEnv } from "../src/env.js";
import { startWorker, type RunningWorker } from "../src/start-worker.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const ORG = "org-beacon";
const SECRETS = "beacon-test-secrets-key-0123456789abcdef";

function spawnLogged(name: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: root,
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

describe("consensus client: agent → ingest → worker → alert", { timeout: 180_000 }, () => {
  let db: TestDatabase;
  let sim: Simnet;
  let redis: Redis;
  let worker: RunningWorker | undefined;
  let hook: Awaited<ReturnType<typeof startHttpReceiver>>;
  let dir: string;
  const procs: Array<ReturnType<typeof spawnLogged>> = [];
  const prefix = uniquePrefix();

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "rpcpulse-beacon-"));
    db = await createTestDatabase();
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
    hook = await startHttpReceiver(() => 200);
    sim = await startSimnet({
      seed: "worker-beacon",
      controlPort: 0,
      nodes: [{ name: "geth", family: "ethereum", network: "ethereum-mainnet", port: 0, beacon: {} }],
    });
  });

  after(async () => {
    for (const p of procs.reverse()) await stop(p.child);
    await worker?.stop("test end");
    await sim?.close();
    await hook?.close();
    await closeQueues(redis);
    await deleteKeys(redis, prefix);
    await redis.quit();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("stores the beacon readings with the own-EL check, and alerts when the beacon node falls behind", async () => {
    try {
      await createTestOrg(db, { id: ORG, name: "Beacon" });
      const ctx: ServiceContext = { userId: "u-b", organizationId: ORG, organizationSlug: ORG, role: "owner" };
      const deps = {
        prisma: db.prisma,
        sql: db.pool,
        queue: { connection: redis, prefix },
        secretsKey: deriveSecretsKey(SECRETS),
      };
      const { id: nodeId } = await createTestNode(db, {
        organizationId: ORG,
        network: "ethereum-mainnet",
        apiFamily: "ethereum",
        clientName: "geth",
        name: "geth-1",
        localRpcUrl: sim.node("geth").url,
      });
      const { token } = await createAgentToken({ sql: db.pool }, ctx, { nodeId });
      const channel = await createAlertChannel(deps, ctx, { name: "hook", type: "webhook", url: `${hook.url}/cl` });
      await createAlertRule(deps, ctx, {
        name: "Consensus client behind",
        type: "consensus_client_behind",
        target: "org",
        threshold: 16,
        degraded: 8,
        forSeconds: 0,
        channelIds: [channel.channel.id],
      });

      worker = await startWorker(
        parseWorkerEnv({
          DATABASE_URL: db.url,
          REDIS_URL: SHARED_REDIS_URL,
          QUEUE_PREFIX: prefix,
          WORKER_ID: `beacon-${prefix}`,
          WORKER_HEALTH_HOST: "127.0.0.1",
          WORKER_HEALTH_PORT: "0",
          WORKER_ADVISOR_ENABLED: "false",
          SECRETS_ENCRYPTION_KEY: SECRETS,
          PROBE_INTERVAL_MS: "600000",
          PROBE_CAPABILITY_INTERVAL_MS: "600000",
          DIRECTORY_RANK_INTERVAL_MS: "600000",
          ALERT_EVALUATE_INTERVAL_MS: "1000",
          NOTIFY_ALLOW_PRIVATE: "true",
          LOG_LEVEL: "warn",
        }),
        createLogger({ name: "worker", level: "warn" }),
      );
      const ingestPort = await freePort();
      procs.push(
        spawnLogged("ingest", ["apps/ingest/src/main.ts"], {
          DATABASE_URL: db.url,
          REDIS_URL: SHARED_REDIS_URL,
          QUEUE_PREFIX: prefix,
          LOG_LEVEL: "warn",
          INGEST_HOST: "127.0.0.1",
          INGEST_PORT: String(ingestPort),
          INGEST_WORKERS: "1",
          INGEST_RATE_PER_SECOND: "100",
        }),
      );
      await waitFor(
        "ingest /healthz",
        async () => {
          const res = await fetch(`http://127.0.0.1:${ingestPort}/healthz`).catch(() => null);
          return res?.ok ? true : undefined;
        },
        45_000,
      );
      writeFileSync(path.join(dir, "agent.token"), `${token}\n`, { mode: 0o600 });
      const config = {
        family: "ethereum",
        rpcUrl: sim.node("geth").url,
        beaconUrl: sim.node("geth").beacon!.url,
        interval: "1s",
        ports: [sim.node("geth").port],
        nodeId,
        stateDir: path.join(dir, "state"),
        ingestUrl: `http://127.0.0.1:${ingestPort}/v1/ingest`,
        tokenFile: path.join(dir, "agent.token"),
        logLevel: "warn",
      };
      writeFileSync(path.join(dir, "agent.json"), JSON.stringify(config));
      procs.push(
        spawnLogged("agent", ["apps/agent/src/cli.ts", "run", "--config", path.join(dir, "agent.json")], { HOME: dir }),
      );

      // In sync: the beacon head's execution block is this node's head (it drives it).
      const inSync = await waitFor(
        "an in-sync reading with a comparable own-EL check",
        async () => {
          const [b] = await listNodeBeaconLatest(db.pool, [nodeId]);
          return b && b.ok && b.elCheck === "match" ? b : undefined;
        },
        45_000,
      );
      assert.ok((inSync.slotsBehind ?? 99) <= 1, `slots behind ${inSync.slotsBehind}`);
      assert.equal(inSync.peers, 80);
      assert.match(inSync.version ?? "", /^Lighthouse\//);

      // The beacon node falls 40 slots behind (control server): the alert fires, naming the slots.
      const res = await fetch(`${sim.controlUrl}/nodes/geth/beacon?lagSlots=40`, { method: "POST" });
      assert.equal(res.status, 200);
      const delivered = await waitFor("the webhook", async () => hook.requests.find((r) => r.path === "/cl"), 45_000);
      const text = JSON.stringify(JSON.parse(delivered.body));
      assert.match(text, /consensus client 4\d slots behind the wall clock/);
      assert.match(text, /geth-1/);
      const behind = (await listNodeBeaconLatest(db.pool, [nodeId]))[0]!;
      assert.ok((behind.slotsBehind ?? 0) >= 40, `slots behind ${behind.slotsBehind}`);
      assert.equal(behind.syncing, true);
      // Its execution client stalled with it: still the same head on both sides.
      assert.equal(behind.elCheck, "match");
      const { rows: history } = await db.pool.query<{ n: number; max: number }>(
        `SELECT count(*)::int AS n, max(slots_behind)::int AS max FROM beacon_samples WHERE node_id = $1`,
        [nodeId],
      );
      assert.ok(history[0]!.n >= 2 && history[0]!.max >= 40, JSON.stringify(history[0]));
    } catch (error) {
      for (const p of procs) process.stderr.write(`--- ${p.name}\n${p.log.text.slice(-3_000)}\n`);
      throw error;
    }
  });
});

describe("consensus client: the same agent and production steps on TimescaleDB (PGlite)", { timeout: 120_000 }, () => {
  it("stores the readings in the hypertable; the rule's measurement sees the stuck beacon node", async () => {
    const ts = await createTimescaleTestDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), "rpcpulse-beacon-ts-"));
    const sim = await startSimnet({
      seed: "worker-beacon-ts",
      controlPort: 0,
      nodes: [{ name: "geth", family: "ethereum", network: "ethereum-mainnet", port: 0, beacon: {} }],
    });
    const procs: Array<ReturnType<typeof spawnLogged>> = [];
    let server: Server | undefined;
    try {
      await ts.sql.query(
        `INSERT INTO chains (slug, name, api_families, finality, finality_note)
         VALUES ('ethereum', 'Ethereum', ARRAY['ethereum']::api_family[], 'finalized-checkpoint', 'Casper FFG')`,
      );
      await ts.sql.query(
        `INSERT INTO networks (slug, chain_slug, name, block_interval_ms, chain_id) VALUES ('ethereum-mainnet', 'ethereum', 'Ethereum', 12000, 1)`,
      );
      await createTestOrg(ts, { id: "org_ts" });
      const { id: nodeId } = await createTestNode(ts, {
        organizationId: "org_ts",
        network: "ethereum-mainnet",
        apiFamily: "ethereum",
        clientName: "geth",
        name: "geth-ts",
        localRpcUrl: sim.node("geth").url,
      });
      // PGlite is one session: writes are serialised through this chain.
      let chain: Promise<unknown> = Promise.resolve();
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          const raw = Buffer.concat(chunks);
          const body = req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
          const normalised = normaliseAgentBatch(agentBatchSchema.parse(JSON.parse(body.toString("utf8"))));
          chain = chain.then(() => writeBeaconSamples(ts.sql, [{ nodeId, beacon: normalised.beacon }]));
          chain.then(
            () => res.writeHead(202, { "content-type": "application/json" }).end('{"status":"accepted"}'),
            (error: unknown) => res.writeHead(500).end(String(error)),
          );
        });
      });
      server.listen(0, "127.0.0.1");
      await once(server, "listening");
      writeFileSync(path.join(dir, "agent.token"), "rpa_test_token\n", { mode: 0o600 });
      const config = {
        family: "ethereum",
        rpcUrl: sim.node("geth").url,
        beaconUrl: sim.node("geth").beacon!.url,
        interval: "1s",
        ports: [sim.node("geth").port],
        nodeId,
        stateDir: path.join(dir, "state"),
        ingestUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/ingest`,
        tokenFile: path.join(dir, "agent.token"),
        logLevel: "warn",
      };
      writeFileSync(path.join(dir, "agent.json"), JSON.stringify(config));
      procs.push(
        spawnLogged("agent-ts", ["apps/agent/src/cli.ts", "run", "--config", path.join(dir, "agent.json")], {
          HOME: dir,
        }),
      );
      const inSync = await waitFor(
        "an in-sync reading",
        async () => {
          const [b] = await listNodeBeaconLatest(ts.sql, [nodeId]);
          return b && b.ok && b.elCheck === "match" ? b : undefined;
        },
        45_000,
      );
      assert.equal(measureConsensusBehind(inSync, new Date(), { freshMs: 300_000 }).value! <= 1, true);

      // Stuck (control server): it falls behind slot by slot, and its execution node stands with it.
      const res = await fetch(`${sim.controlUrl}/nodes/geth/beacon?stall=1&lagSlots=20`, { method: "POST" });
      assert.equal(res.status, 200);
      const behind = await waitFor(
        "a reading 20 slots behind",
        async () => {
          const [b] = await listNodeBeaconLatest(ts.sql, [nodeId]);
          return b && (b.slotsBehind ?? 0) >= 20 ? b : undefined;
        },
        45_000,
      );
      const m = measureConsensusBehind(behind, new Date(), { freshMs: 300_000 });
      assert.ok((m.value ?? 0) >= 20, String(m.value));
      assert.match(m.detail ?? "", /^Lighthouse\/v7\.1\.0-8d1b2f8: head slot \d+ of \d+, sync distance \d+, syncing/);
      assert.equal(behind.elCheck, "match", "the execution node stands at the beacon head's block");
      const series = await listBeaconSeries(ts.sql, {
        nodeId,
        from: new Date(Date.now() - 600_000),
        to: new Date(Date.now() + 1_000),
      });
      assert.ok(series.length >= 2 && series.some((p) => (p.slotsBehind ?? 0) >= 20));
      const { rows: ht } = await ts.sql.query(
        `SELECT count(*)::int AS n FROM timescaledb_information.hypertables WHERE hypertable_name = 'beacon_samples'`,
      );
      assert.equal((ht[0] as { n: number }).n, 1);
    } catch (error) {
      for (const p of procs) process.stderr.write(`--- ${p.name}\n${p.log.text.slice(-3_000)}\n`);
      throw error;
    } finally {
      for (const p of procs.reverse()) await stop(p.child);
      await new Promise((r) => (server ? server.close(r) : r(undefined)));
      await sim.close();
      await ts.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
