/**
 * Where a 10,000-node fleet page's server time goes, without Next: seeds one organization (few
 * samples per node, 1-minute rollups) and times the overview SQL, the service call, and the other
 * reads of the fleet page. Not part of the test suite.
 *
 *   npx tsx bench/fleet-overview-profile.ts [--nodes 10000] [--runs 10] [--keep]
 */
import { parseArgs } from "node:util";
import {
  getFleetOverview as queryFleetOverview,
  insertNodeSamples,
  listFleetIndex,
  type NodeSampleInput,
} from "@rpcpulse/db/fleet";
import { refreshRollups } from "@rpcpulse/db/platform";
import { createTestDatabase, createTestOrg } from "@rpcpulse/db/testing";
import { getFleetOverview } from "@rpcpulse/services/fleet";
import { listProducerViews, listValidatorViews } from "@rpcpulse/services/producers";
import { type ServiceContext } from "@rpcpulse/services/context";

const { values: args } = parseArgs({
  options: {
    nodes: { type: "string", default: "10000" },
    runs: { type: "string", default: "10" },
    keep: { type: "boolean" },
  },
});
const NODES = Number(args.nodes);
const RUNS = Number(args.runs);

async function time(label: string, fn: () => Promise<unknown>): Promise<void> {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(`${label.padEnd(34)} p50 ${ms[Math.floor(RUNS / 2)]!.toFixed(0)} ms  max ${ms.at(-1)!.toFixed(0)} ms`);
}

async function main(): Promise<void> {
  const db = await createTestDatabase();
  const org = "org-big";
  await createTestOrg(db, { id: org });
  const network = await db.prisma.network.findUniqueOrThrow({ where: { slug: "hive" } });
  await db.sql.query(
    `INSERT INTO nodes (id, organization_id, network_id, api_family, client_name, client_version, name, local_rpc_url, region, created_at)
     SELECT gen_random_uuid(), $1, $2, 'hive', 'hived', '1.27.11', 'node-' || lpad(i::text, 5, '0'), 'http://127.0.0.1:8091',
            (ARRAY['eu-central','us-east','ap-south'])[1 + i % 3], now()
     FROM generate_series(0, $3 - 1) i`,
    [org, network.id, NODES],
  );
  const { rows: nodes } = await db.sql.query<{ id: string; name: string }>(
    `SELECT id, name FROM nodes WHERE organization_id = $1 ORDER BY name`,
    [org],
  );
  const now = Date.now();
  const samples: NodeSampleInput[] = [];
  nodes.forEach((n, i) => {
    const kind = i % 100;
    if (kind >= 98) return;
    const silent = kind >= 95 ? 120_000 : 0;
    for (let s = 0; s < 6; s++) {
      const t = now - silent - s * 10_000;
      samples.push({
        time: new Date(t),
        nodeId: n.id,
        headBlock: 9e7 - s,
        headTime: new Date(t - 1500),
        lagBlocks: kind >= 90 && kind < 95 ? 40 : i % 2,
        headAgeMs: 1500,
        tcpEstablished: 100,
        tcpTimeWait: 5,
        totalMs: 5 + (s % 40),
      });
    }
  });
  for (let i = 0; i < samples.length; i += 10_000) await insertNodeSamples(db.sql, samples.slice(i, i + 10_000));
  await refreshRollups(db.sql, { from: new Date(now - 3_600_000), to: new Date(now) }, new Date(now));
  await db.sql.query("ANALYZE");
  console.log(`seeded ${NODES} nodes in ${db.name}`);
  const ctx: ServiceContext = { userId: "u", organizationId: org, organizationSlug: org, role: "owner" };
  const deps = { sql: db.sql };
  const since = new Date(now - 15 * 60_000);
  await time("db getFleetOverview (no latency)", () =>
    queryFleetOverview(db.sql, { organizationId: org, latencySince: since, latencyOf: [] }),
  );
  await time("db listFleetIndex", () => listFleetIndex(db.sql, { organizationId: org }));
  await time("raw SQL rows only", () =>
    db.sql.query(`SELECT n.id, n.name FROM nodes n WHERE n.organization_id = $1`, [org]),
  );
  await time("service overview default", () => getFleetOverview(deps, ctx, { query: {} }));
  await time("service overview status=up", () => getFleetOverview(deps, ctx, { query: { status: "up" } }));
  await time("service overview sort=p95", () => getFleetOverview(deps, ctx, { query: { sort: "p95" } }));
  await time("listProducerViews", () => listProducerViews(deps, ctx));
  await time("listValidatorViews", () => listValidatorViews(deps, ctx));
  if (args.keep) console.log(`kept ${db.name}`);
  else await db.drop();
}

void main().then(() => process.exit(0));
