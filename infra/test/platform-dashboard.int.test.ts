// "RPC Pulse itself" (grafana/dashboards/platform/rpcpulse-itself.json): the file is what
// src/platform.ts generates, it reads the provisioned Prometheus datasource, every query parses with
// the Prometheus project's PromQL grammar (@prometheus-io/lezer-promql), and every metric and label it
// names is in a real /metrics exposition (createPlatformMetrics, the registry web, ingest and worker
// serve, with real BullMQ queues in Redis), read with a Prometheus text parser. A renamed metric fails.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { parser } from "@prometheus-io/lezer-promql";
import { closeQueues, createRedisConnection, getQueue, type Redis } from "@rpcpulse/queue";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import { createPlatformMetrics } from "@rpcpulse/services/platform";
import { parsePrometheusText } from "@rpcpulse/config/testing";
import { parse as parseYaml } from "yaml";
import { PLATFORM_DASHBOARD_FILE, platformDashboard, PROMETHEUS } from "../grafana/dashboards/src/platform.js";

interface PanelJson {
  id: number;
  title: string;
  datasource: { type: string; uid: string };
  gridPos: { x: number; y: number; w: number; h: number };
  targets: Array<{ refId: string; expr: string; datasource: { type: string; uid: string } }>;
}

const FILE = JSON.parse(readFileSync(PLATFORM_DASHBOARD_FILE, "utf8")) as { uid: string; panels: PanelJson[] };
const promql = parser.configure({ top: "PromQL" });
/** Labels Prometheus adds at scrape time (the targets' job and instance) and histogram buckets' le. */
const SCRAPE_LABELS = new Set(["job", "instance", "le"]);

interface Selector {
  metric: string;
  labels: string[];
}

/** Parse with the PromQL grammar (Grafana's $__rate_interval as Grafana sends it: a duration). */
function parseQuery(expr: string): { errors: number; selectors: Selector[]; grouping: string[] } {
  const text = expr.replaceAll("$__rate_interval", "1m");
  const tree = promql.parse(text);
  let errors = 0;
  const selectors: Selector[] = [];
  const grouping: string[] = [];
  const cursor = tree.cursor();
  do {
    const node = cursor.node;
    if (node.type.isError) errors++;
    if (node.name === "VectorSelector") {
      const id = node.getChild("Identifier");
      const labels: string[] = [];
      const matchers = node.getChild("LabelMatchers");
      for (const m of matchers?.getChildren("UnquotedLabelMatcher") ?? []) {
        const name = m.getChild("LabelName");
        if (name) labels.push(text.slice(name.from, name.to));
      }
      if (id) selectors.push({ metric: text.slice(id.from, id.to), labels });
    }
    if (node.name === "GroupingLabels") {
      for (const l of node.getChildren("LabelName")) grouping.push(text.slice(l.from, l.to));
    }
  } while (cursor.next());
  return { errors, selectors, grouping };
}

describe("RPC Pulse itself: the platform dashboard", () => {
  let redis: Redis;
  const prefix = uniquePrefix();
  /** Series name (histograms as _bucket/_sum/_count too) -> label names seen. */
  const exposed = new Map<string, Set<string>>();

  before(async () => {
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
    const target = { connection: redis, prefix };
    await getQueue("ingest", target).pause();
    await getQueue("ingest", target).add("ingest-batch", {} as never);
    // Every metric observed once, as the three apps do.
    const metrics = createPlatformMetrics("ingest");
    metrics.watchQueues(target, ["ingest"]);
    metrics.watchReplica(() => ({ configured: true, serving: "replica", lagMs: 10, lagBytes: 0, checkedAt: null }));
    metrics.watchCache("agent_tokens", () => ({ hits: 1, misses: 1 }));
    metrics.observeRequest("/v1/ingest", "POST", 202, 0.01);
    metrics.observeJob("ingest", "completed", 0.01);
    metrics.observeJob("ingest", "failed", 0.01, false);
    metrics.observeFlush(100, 0.01);
    const { body } = await metrics.render();
    for (const family of parsePrometheusText(body)) {
      const labels = new Set(family.metrics.flatMap((m) => Object.keys(m.labels ?? {})));
      // The parser drops histogram labels: read them from the exposition's _count lines.
      if (family.type === "HISTOGRAM") {
        const line = new RegExp(`^${family.name}_count\\{([^}]*)\\}`, "m").exec(body)?.[1] ?? "";
        for (const pair of line.split(",")) if (pair) labels.add(pair.split("=")[0]!);
        for (const suffix of ["_bucket", "_sum", "_count"]) exposed.set(family.name + suffix, labels);
      }
      exposed.set(family.name, labels);
    }
  });
  after(async () => {
    await closeQueues(redis);
    await deleteKeys(redis, prefix);
    await redis.quit();
  });

  test("the JSON is what src/platform.ts generates", () => {
    assert.deepEqual(
      FILE,
      JSON.parse(JSON.stringify(platformDashboard())),
      "stale: npm run build:dashboards -w @rpcpulse/infra",
    );
  });

  test("panels read the provisioned Prometheus datasource, ids unique, inside the grid", () => {
    const doc = parseYaml(
      readFileSync(
        path.join(path.dirname(PLATFORM_DASHBOARD_FILE), "../../provisioning/datasources/prometheus.yml"),
        "utf8",
      ),
    ) as { datasources: Array<{ uid: string; type: string }> };
    assert.deepEqual(
      doc.datasources.map((d) => ({ uid: d.uid, type: d.type })),
      [{ uid: PROMETHEUS.uid, type: PROMETHEUS.type }],
    );
    const ids = new Set<number>();
    for (const panel of FILE.panels) {
      assert.ok(!ids.has(panel.id), `duplicate id ${panel.id}`);
      ids.add(panel.id);
      assert.ok(panel.gridPos.x + panel.gridPos.w <= 24);
      assert.deepEqual(panel.datasource, PROMETHEUS);
      assert.ok(panel.targets.length > 0);
      for (const t of panel.targets) assert.deepEqual(t.datasource, PROMETHEUS);
    }
  });

  for (const panel of FILE.panels)
    test(`"${panel.title}": every query parses and names only exposed metrics and labels`, () => {
      for (const t of panel.targets) {
        const { errors, selectors, grouping } = parseQuery(t.expr);
        assert.equal(errors, 0, `${t.refId} does not parse: ${t.expr}`);
        assert.ok(selectors.length > 0, `${t.refId} selects no metric`);
        const labelsOfQuery = new Set<string>(SCRAPE_LABELS);
        for (const s of selectors) {
          const labels = exposed.get(s.metric);
          assert.ok(labels, `${t.refId}: ${s.metric} is not in /metrics`);
          for (const l of s.labels) assert.ok(labels.has(l) || SCRAPE_LABELS.has(l), `${s.metric} has no label ${l}`);
          for (const l of labels) labelsOfQuery.add(l);
        }
        for (const l of grouping)
          assert.ok(labelsOfQuery.has(l), `${t.refId} groups by ${l}, which no selected metric has`);
      }
    });

  test("a renamed metric or a broken query is caught", () => {
    assert.ok(parseQuery("sum(rate(rpcpulse_http_requests_total[1m])").errors > 0);
    const { selectors } = parseQuery('sum by (queue) (rpcpulse_queue_job{state="waiting"})');
    assert.equal(exposed.has(selectors[0]!.metric), false);
  });
});
