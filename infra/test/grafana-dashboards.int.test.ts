/**
 * Every SQL the provisioned dashboards send (panel targets and query variables), interpolated the
 * way Grafana does (./grafana-interpolate.ts), run against a migrated database with seeded rows in
 * both storage modes:
 *   - plain PostgreSQL (createTestDatabase), connected AS rpcpulse_grafana after running
 *     infra/postgres/grafana-readonly-role.sql with psql, so a table missing from its allow-list fails;
 *   - TimescaleDB (createTimescaleTestDatabase, PGlite; one role, no grants to test).
 * Each result must have the columns its panel expects (./expected-columns.ts) and rows.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { estimateQuantile, type SqlClient } from "@rpcpulse/db/sql";
import { createTestDatabase, createTimescaleTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import pg from "pg";
import {
  allPanels,
  checkResult,
  type Dashboard,
  loadDashboards,
  loadDatasource,
  type Panel,
  type QueryResult,
  ROLE_FILE,
  variableSql,
} from "./dashboards.js";
import { EXPECTED_COLUMNS } from "./expected-columns.js";
import { calculateIntervalMs, interpolate, type TimeRange, type VariableValue } from "./grafana-interpolate.js";
import { NETWORK, NODES, ORG, seedFleet } from "./seed.js";

const DS = loadDatasource();
const DASHBOARDS = [...loadDashboards().values()];
const HOUR = 3_600_000;

interface Runner {
  run(sql: string): Promise<QueryResult>;
}

interface Scenario {
  label: string;
  range: TimeRange;
  variables: Record<string, VariableValue>;
}

/** Variable values as a user would pick them: the fixture organization, all networks, node alpha. */
function scenarios(d: Dashboard, now: Date): Scenario[] {
  const to = new Date(now.getTime() + 1000);
  const last = (ms: number): TimeRange => ({ from: new Date(to.getTime() - ms), to });
  const base: Record<string, VariableValue> = {
    org: { value: ORG },
    network: { value: [NETWORK], multi: true, includeAll: true },
    agent_interval: { value: "60" },
    lag_threshold: { value: "3" },
    node: { value: NODES.alpha },
  };
  const ranges = [
    ["3h", last(3 * HOUR)],
    ["24h", last(24 * HOUR)],
    ["30d", last(30 * 24 * HOUR)],
  ] as const;
  if (!d.templating?.list?.some((v) => v.name === "resolution"))
    return ranges.map(([label, range]) => ({ label, range, variables: base }));
  return [
    ...ranges.map(([label, range]) => ({
      label: `${label} auto`,
      range,
      variables: { ...base, resolution: { value: "auto" } },
    })),
    ...(["raw", "1m", "1h"] as const).map((r) => ({
      label: `3h ${r}`,
      range: last(3 * HOUR),
      variables: { ...base, resolution: { value: r } },
    })),
  ];
}

/** Runs every target of a panel; throws with the SQL when a query fails or its result does not fit. */
async function runPanel(
  runner: Runner,
  uid: string,
  panel: Panel,
  s: Scenario,
  { requireRows = true } = {},
): Promise<QueryResult[]> {
  const expected = EXPECTED_COLUMNS[uid]?.[panel.title ?? ""];
  if (!expected) throw new Error(`no expected columns for ${uid} / ${String(panel.title)} in expected-columns.ts`);
  const results: QueryResult[] = [];
  for (const target of panel.targets ?? []) {
    const sql = interpolate(target.rawSql ?? "", {
      range: s.range,
      intervalMs: calculateIntervalMs(s.range),
      variables: s.variables,
      timescaledb: DS.timescaledb,
    });
    let result: QueryResult;
    try {
      result = await runner.run(sql);
    } catch (error) {
      throw new Error(`${uid} / ${String(panel.title)} [${s.label}]: ${(error as Error).message}\n${sql}`);
    }
    const problems = checkResult(panel, target, result, expected, { requireRows });
    if (problems.length > 0)
      throw new Error(`${uid} / ${String(panel.title)} [${s.label}]:\n  ${problems.join("\n  ")}\n${sql}`);
    results.push(result);
  }
  return results;
}

const panelOf = (uid: string, title: string): Panel => {
  const d = DASHBOARDS.find((x) => x.uid === uid);
  const p = d && allPanels(d).find((x) => x.title === title);
  if (!p) throw new Error(`panel ${uid} / ${title} not found`);
  return structuredClone(p);
};
const column = (r: QueryResult, name: string) => {
  const i = r.fields.findIndex((f) => f.name === name);
  assert.ok(i >= 0, `column ${name}`);
  return r.rows.map((row) => row[i]);
};

/** Runs grafana-readonly-role.sql with psql, as the compose one-shot does (serialized: roles are global). */
async function applyGrafanaRole(db: TestDatabase): Promise<void> {
  const adminUrl = new URL(db.url);
  adminUrl.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    await admin.query("SELECT pg_advisory_lock(hashtext('rpcpulse_grafana role'))");
    await promisify(execFile)("psql", [
      "--no-psqlrc",
      "--quiet",
      "--set=ON_ERROR_STOP=1",
      `--set=grafana_password=${randomBytes(18).toString("base64url")}`,
      `--file=${ROLE_FILE}`,
      db.url,
    ]);
  } finally {
    await admin.end();
  }
}

interface Mode {
  name: "plain" | "timescale";
  runner: Runner;
  /** The database owner (seeding, reference queries). */
  owner: SqlClient;
  close(): Promise<void>;
}

async function openPlain(): Promise<Mode> {
  const db = await createTestDatabase();
  try {
    await seedFleet(db.sql, seededAt);
    await applyGrafanaRole(db);
    const url = new URL(db.url);
    url.username = "rpcpulse_grafana";
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    return {
      name: "plain",
      owner: db.sql,
      runner: {
        run: async (text) => {
          const r = await client.query({ text, rowMode: "array" });
          return { fields: r.fields, rows: r.rows as unknown[][] };
        },
      },
      async close() {
        await client.end();
        await db.drop();
      },
    };
  } catch (error) {
    await db.drop();
    throw error;
  }
}

type ArrayRowsClient = {
  query(text: string, params: unknown[], options: { rowMode: "array" }): Promise<QueryResult>;
};

async function openTimescale(): Promise<Mode> {
  const db = await createTimescaleTestDatabase();
  await seedFleet(db.sql, seededAt);
  const lite = db.sql as unknown as ArrayRowsClient;
  return {
    name: "timescale",
    owner: db.sql,
    runner: { run: async (text) => lite.query(text, [], { rowMode: "array" }) },
    close: () => db.close(),
  };
}

const seededAt = new Date();

for (const open of [openPlain, openTimescale]) {
  const modeName = open === openPlain ? "plain PostgreSQL as rpcpulse_grafana" : "TimescaleDB (PGlite)";
  describe(`Grafana dashboards, ${modeName}`, () => {
    let mode: Mode;
    before(async () => {
      mode = await open();
    });
    after(() => mode?.close());

    for (const d of DASHBOARDS) {
      const uid = d.uid ?? "";
      for (const panel of allPanels(d).filter((p) => p.type !== "row")) {
        test(`${uid} / ${String(panel.title)}: every range and resolution`, async () => {
          for (const s of scenarios(d, seededAt)) await runPanel(mode.runner, uid, panel, s);
        });
      }
      test(`${uid}: query variables return __text/__value with the seeded fleet`, async () => {
        const s = scenarios(d, seededAt)[0]!;
        for (const v of d.templating?.list ?? []) {
          const raw = variableSql(v);
          if (raw === null) continue;
          const sql = interpolate(raw, {
            range: s.range,
            intervalMs: 60_000,
            variables: s.variables,
            timescaledb: DS.timescaledb,
          });
          const r = await mode.runner.run(sql);
          assert.deepEqual(
            r.fields.map((f) => f.name),
            ["__text", "__value"],
            `variable ${v.name}`,
          );
          const values = new Map(r.rows.map((row) => [String(row[1]), String(row[0])]));
          const want = { org: [ORG], network: [NETWORK], node: Object.values(NODES).filter((id) => id !== NODES.xray) }[
            v.name
          ];
          assert.ok(want, `no expectation for variable ${v.name}`);
          if (v.name === "org") assert.equal(values.get(ORG), "Fixture org");
          else assert.deepEqual([...values.keys()].sort(), [...want].sort(), `variable ${v.name}`);
        }
      });
    }

    test("fleet: status counts, order, organization and network filters", async () => {
      const [s] = scenarios(
        DASHBOARDS.find((d) => d.uid === "rpcpulse-fleet")!,
        seededAt,
      );
      const [counts] = await runPanel(mode.runner, "rpcpulse-fleet", panelOf("rpcpulse-fleet", "Nodes by status"), s!);
      assert.deepEqual(counts!.rows[0]!.map(Number), [1, 1, 2, 4]); // up alpha, lagging bravo, down charlie+delta
      const [nodes] = await runPanel(mode.runner, "rpcpulse-fleet", panelOf("rpcpulse-fleet", "Nodes"), s!);
      assert.deepEqual(column(nodes!, "Node"), ["charlie", "delta", "bravo", "alpha"]);
      assert.deepEqual(column(nodes!, "Status"), ["down", "down", "lagging", "up"]);
      const none = { ...s!, variables: { ...s!.variables, network: { value: [], multi: true, includeAll: true } } };
      const [empty] = await runPanel(mode.runner, "rpcpulse-fleet", panelOf("rpcpulse-fleet", "Nodes by status"), none);
      assert.deepEqual(empty!.rows[0]!.map(Number), [0, 0, 0, 0]);
    });

    test("fleet: latency p50/p95 equal estimateQuantile() over the same rollup rows", async () => {
      const [s] = scenarios(
        DASHBOARDS.find((d) => d.uid === "rpcpulse-fleet")!,
        seededAt,
      );
      const [nodes] = await runPanel(mode.runner, "rpcpulse-fleet", panelOf("rpcpulse-fleet", "Nodes"), s!);
      const alpha = column(nodes!, "Node").indexOf("alpha");
      const { rows } = await mode.owner.query(
        `SELECT ARRAY[sum(lat_le_5), sum(lat_le_10), sum(lat_le_25), sum(lat_le_50), sum(lat_le_100), sum(lat_le_250),
                      sum(lat_le_500), sum(lat_le_1000), sum(lat_le_2500), sum(lat_le_5000), sum(lat_gt_5000)]::float8[] AS h,
                min(total_ms_min)::float8 AS mn, max(total_ms_max)::float8 AS mx
         FROM node_samples_1m WHERE node_id = $1 AND bucket BETWEEN $2 AND $3`,
        [NODES.alpha, s!.range.from, s!.range.to],
      );
      const ref = rows[0] as { h: number[]; mn: number; mx: number };
      assert.ok(ref.h.reduce((a, b) => a + b, 0) > 100, "rollups hold the seeded samples");
      for (const [name, q] of [
        ["Latency p50", 0.5],
        ["Latency p95", 0.95],
      ] as const) {
        const want = estimateQuantile(ref.h, q, ref.mn, ref.mx);
        const got = Number(column(nodes!, name)[alpha]);
        assert.ok(want !== null && Math.abs(got - want) < 1e-9, `${name}: dashboard ${got}, estimateQuantile ${want}`);
      }
    });

    test("node: same maximum ESTABLISHED from raw samples and both rollups; busiest remote IP first", async () => {
      const d = DASHBOARDS.find((x) => x.uid === "rpcpulse-node")!;
      for (const s of scenarios(d, seededAt)) {
        const [r] = await runPanel(
          mode.runner,
          "rpcpulse-node",
          panelOf("rpcpulse-node", "Connections by state (max)"),
          s,
        );
        assert.equal(Math.max(...column(r!, "ESTABLISHED").map(Number)), 106, s.label);
      }
      const [top] = await runPanel(
        mode.runner,
        "rpcpulse-node",
        panelOf("rpcpulse-node", "Top remote IPs"),
        scenarios(d, seededAt)[0]!,
      );
      assert.deepEqual(column(top!, "Remote IP")[0], "203.0.113.7");
      assert.equal(Number(column(top!, "Max connections")[0]), 49);
    });

    test("node: an empty node selection runs every panel and returns no rows", async () => {
      const d = DASHBOARDS.find((x) => x.uid === "rpcpulse-node")!;
      const s = scenarios(d, seededAt)[0]!;
      const none = { ...s, variables: { ...s.variables, node: { value: "" } } };
      for (const panel of allPanels(d)) {
        const [r] = await runPanel(mode.runner, "rpcpulse-node", panel, none, { requireRows: false });
        assert.equal(r!.rows.length, 0, String(panel.title));
      }
    });

    describe("a broken panel fails", () => {
      const s = () =>
        scenarios(
          DASHBOARDS.find((d) => d.uid === "rpcpulse-node")!,
          seededAt,
        )[0]!;

      test("a column renamed in the schema (query error)", async () => {
        const panel = panelOf("rpcpulse-node", "Connections by state (max)");
        for (const t of panel.targets ?? []) t.rawSql = t.rawSql?.replaceAll("tcp_syn_recv", "tcp_syn_received");
        await assert.rejects(runPanel(mode.runner, "rpcpulse-node", panel, s()), /tcp_syn_received.*does not exist/);
      });

      test("an output column renamed (the panel's contract)", async () => {
        const panel = panelOf("rpcpulse-fleet", "Nodes");
        for (const t of panel.targets ?? []) t.rawSql = t.rawSql?.replace('AS "Latency p95"', 'AS "p95"');
        const fleet = scenarios(
          DASHBOARDS.find((d) => d.uid === "rpcpulse-fleet")!,
          seededAt,
        )[0]!;
        await assert.rejects(runPanel(mode.runner, "rpcpulse-fleet", panel, fleet), /the panel expects .*Latency p95/);
      });

      test("a time series without a time column", async () => {
        const panel = panelOf("rpcpulse-node", "Memory");
        for (const t of panel.targets ?? []) t.rawSql = t.rawSql?.replaceAll(") AS time,", ") AS bucket_time,");
        await assert.rejects(runPanel(mode.runner, "rpcpulse-node", panel, s()), /timestamp column `time`/);
      });

      test("$__timeGroup expands as datasource.yml says (time_bucket with timescaledb: true)", async () => {
        const panel = panelOf("rpcpulse-node", "Memory");
        for (const t of panel.targets ?? [])
          t.rawSql = `SELECT $__timeGroupAlias(time, '1m'), min(mem_available) AS "MemAvailable", max(shmem) AS "Shmem",
            max(swap_used) AS "swap used", max(mem_total) AS "MemTotal"
            FROM node_samples WHERE node_id = '$node' AND $__timeFilter(time) GROUP BY 1 ORDER BY 1`;
        const run = runPanel(mode.runner, "rpcpulse-node", panel, s());
        if (mode.name === "plain" && DS.timescaledb)
          await assert.rejects(run, /function time_bucket\(.*\) does not exist/);
        else await run;
      });

      // PGlite has one superuser session: roles and grants are only testable on PostgreSQL.
      if (open === openPlain)
        test("plain: the session is rpcpulse_grafana, read-only, refused outside the allow-list", async () => {
          const who = await mode.runner.run(
            "SELECT current_user::text, current_setting('default_transaction_read_only')",
          );
          assert.deepEqual(who.rows[0], ["rpcpulse_grafana", "on"]);
          for (const table of ["users", "sessions", "accounts", "verifications", "agent_tokens", "members"])
            await assert.rejects(mode.runner.run(`SELECT * FROM ${table} LIMIT 1`), /permission denied/, table);
          await assert.rejects(
            mode.runner.run(`UPDATE nodes SET name = name WHERE false`),
            /read-only transaction|permission denied/,
          );
        });
    });
  });
}
