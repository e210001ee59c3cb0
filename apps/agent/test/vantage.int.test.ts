// Opt-in vantage probing end to end, with the REAL agent process (src/cli.ts run --vantage), the
// real ingest API and worker processes, Redis (own prefix), PostgreSQL (own database) and simnet
// Hive nodes as the public endpoints. The endpoint list comes over HTTP from a small server in this
// test that answers /api/v1/chains/<network>/endpoints with the same service the web route calls.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { after, describe, it } from "node:test";
import { WIRE_FORMAT_VERSION, type AgentBatch } from "@rpcpulse/domain";
import { createSafeHttpClient } from "@rpcpulse/prober";
import { listRankedEndpoints, probeDirectoryRound, rankDirectory } from "@rpcpulse/services/directory";
import { startSimnet, type Simnet } from "@rpcpulse/simnet";
import { waitFor } from "@rpcpulse/config/testing";
import { sleep } from "./support/processes.js";
import { startStack, type Stack } from "./support/stack.js";

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const fn of cleanups.reverse()) await fn().catch(() => undefined);
});

async function startDirectoryApi(stack: Stack): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? "");
    const m = /^\/api\/v1\/chains\/([a-z0-9-]+)\/endpoints$/.exec(req.url ?? "");
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    listRankedEndpoints({ sql: stack.db.pool }, { network: m[1]! }).then(
      (body) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body)),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests };
}

async function listEndpoint(stack: Stack, network: string, url: string): Promise<string> {
  const { rows } = await stack.db.pool.query<{ id: string }>(
    `INSERT INTO public_endpoints (network_id, api_family, url, name, status)
     SELECT id, $2::api_family, $3, $3, 'active' FROM networks WHERE slug = $1 RETURNING id`,
    [network, network === "hive" ? "hive" : "ethereum", url],
  );
  return rows[0]!.id;
}

describe("agent as an opt-in vantage point (real processes)", () => {
  it("probes the listed endpoints of its chain, ingest keeps only those, the worker stores them per (org, node, region), ranking gets the region", async () => {
    const stack = await startStack("vantage");
    cleanups.push(() => stack.dispose());
    const publicNodes: Simnet = await startSimnet({
      nodes: [
        { name: "fast", family: "hive", network: "hive" },
        { name: "slow", family: "hive", network: "hive", latency: { kind: "fixed", ms: 40 } },
      ],
    });
    cleanups.push(() => publicNodes.close());
    const fastId = await listEndpoint(stack, "hive", publicNodes.node("fast").url);
    const slowId = await listEndpoint(stack, "hive", publicNodes.node("slow").url);
    const ethId = await listEndpoint(stack, "ethereum-mainnet", "http://127.0.0.1:9/eth");

    // The server's own vantage point probes once and ranks, so the public list has the endpoints.
    const client = createSafeHttpClient({ allowPrivate: true, timeoutMs: 2_000 });
    await probeDirectoryRound(
      { sql: stack.db.pool },
      { client, vantage: { name: "server:test", region: "eu-central" }, concurrency: 2 },
    );
    await rankDirectory({ pool: stack.db.pool });
    const api = await startDirectoryApi(stack);

    const agent = await stack.startAgent({
      extraArgs: [
        "--vantage",
        "--vantage-region",
        "ap-south",
        "--vantage-networks",
        "hive",
        "--directory-url",
        api.url,
        "--vantage-interval",
        "10s",
        "--vantage-rate",
        "20",
        "--vantage-allow-private",
      ],
    });
    const stored = async () =>
      (
        await stack.db.pool.query<{
          endpoint_id: string;
          region: string;
          kind: string;
          name: string;
          node_id: string;
          ok: boolean;
          total_ms: number | null;
          head_block: string | null;
        }>(
          `SELECT p.endpoint_id, v.region, v.kind::text AS kind, v.name, v.node_id, p.ok, p.total_ms, p.head_block
           FROM probe_results p JOIN vantage_points v ON v.id = p.vantage_point_id WHERE v.kind = 'agent'`,
        )
      ).rows;
    await waitFor(
      "agent probes of both hive endpoints in probe_results",
      async () => {
        const rows = await stored();
        return new Set(rows.map((r) => r.endpoint_id)).size >= 2 ? rows : undefined;
      },
      // The worker child is not waited for by the stack; under a loaded suite it may take a while to start.
      { timeoutMs: 120_000, intervalMs: 250 },
    ).catch((error: unknown) => {
      const vantageLines = [...agent.lines(), ...(stack.worker?.lines() ?? []), ...(stack.ingest?.lines() ?? [])]
        .filter((l) => /vantage|batch|ingest/i.test(String(l.msg)))
        .slice(-15);
      throw new Error(`${String(error)}\n${JSON.stringify(vantageLines, null, 1)}`);
    });
    const rows = await stored();
    assert.deepEqual(
      new Set(rows.map((r) => r.endpoint_id)),
      new Set([fastId, slowId]),
      "only the listed hive endpoints",
    );
    const { rows: org } = await stack.db.pool.query<{ organization_id: string }>(
      "SELECT organization_id FROM nodes WHERE id = $1",
      [stack.nodeId],
    );
    for (const r of rows) {
      assert.equal(r.region, "ap-south");
      assert.equal(r.kind, "agent");
      assert.equal(r.node_id, stack.nodeId);
      assert.equal(r.name, `agent:${org[0]!.organization_id}:${stack.nodeId}:ap-south`);
      assert.equal(r.ok, true);
      assert.ok(r.total_ms !== null && r.total_ms > 0);
      assert.ok(Number(r.head_block) > 0, "head block recorded");
    }
    const slow = rows.filter((r) => r.endpoint_id === slowId).map((r) => r.total_ms!);
    assert.ok(Math.min(...slow) >= 40, `the slow endpoint's 40 ms delay is seen from the agent (${slow.join(", ")})`);
    assert.ok(api.requests.includes("/api/v1/chains/hive/endpoints"), "the list came from the API");
    assert.ok(!agent.output().includes(stack.secret));

    // A crafted batch (same token): probes of an endpoint of another chain and of an unlisted id are refused.
    const now = new Date();
    const probe = (endpointId: string) => ({
      endpointId,
      startedAt: now.toISOString(),
      ok: true,
      httpStatus: 200,
      errorClass: null,
      errorMessage: null,
      rateLimited: false,
      responseBytes: 100,
      headBlock: 1,
      headTime: null,
      finalizedBlock: null,
      phases: { dnsMs: 0, connectMs: 1, tlsMs: 0, firstByteMs: 2, totalMs: 3 },
    });
    const sample: AgentBatch["samples"][number] = {
      collectedAt: now.toISOString(),
      ...{ tcp: null, sockstat: null, netstat: null, conntrack: null, fds: null, host: null },
      ...{ settings: null, chain: null, remoteIps: null, outbound: null, self: null },
      disks: [],
      errors: [],
    };
    const batch: AgentBatch = {
      wireVersion: WIRE_FORMAT_VERSION,
      agent: { version: "test", hostname: "crafted" },
      batchSeq: 900_000,
      sentAt: now.toISOString(),
      samples: [sample],
      vantage: { region: "ap-south", probes: [probe(fastId), probe(ethId), probe(randomUUID())] },
    };
    const answer = await fetch(`http://127.0.0.1:${stack.ingestPort}/v1/ingest`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${stack.token}`,
        "content-type": "application/json",
        "content-encoding": "gzip",
      },
      body: gzipSync(JSON.stringify(batch)),
    });
    assert.equal(answer.status, 202);
    assert.deepEqual(((await answer.json()) as { probes: unknown }).probes, { accepted: 1, refused: 2 });
    await sleep(1_500);
    const eth = await stack.db.pool.query(
      `SELECT 1 FROM probe_results p JOIN vantage_points v ON v.id = p.vantage_point_id
       WHERE p.endpoint_id = $1 AND v.kind = 'agent'`,
      [ethId],
    );
    assert.equal(eth.rowCount, 0, "nothing stored for the other chain's endpoint");

    // The ranking has per-region figures for the agent's region.
    await rankDirectory({ pool: stack.db.pool });
    const regional = await listRankedEndpoints(
      { sql: stack.db.pool },
      { network: "hive", region: "ap-south", window: "1h" },
    );
    assert.deepEqual(new Set(regional.endpoints.map((e) => e.id)), new Set([fastId, slowId]));
    const bySpeed = regional.endpoints.find((e) => e.id === slowId)!;
    assert.ok((bySpeed.latency.p50Ms ?? 0) >= 40, "regional p50 comes from the agent's probes");
  });
});
