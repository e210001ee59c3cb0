/**
 * Without a database: the dashboards' JSON structure, their freshness against the generator, and
 * the Grafana interpolation the integration test relies on (expected strings are those of Grafana's
 * postgres macro engine and SQL datasource for the same input).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildDashboards } from "../grafana/dashboards/src/build.js";
import { allPanels, type Dashboard, loadDashboards, loadDatasource, validateDashboard } from "./dashboards.js";
import { EXPECTED_COLUMNS } from "./expected-columns.js";
import {
  calculateIntervalMs,
  formatInterval,
  interpolate,
  rfc3339Nano,
  type InterpolateOptions,
} from "./grafana-interpolate.js";

const DS = loadDatasource();
const FILES = loadDashboards();

describe("dashboard JSON", () => {
  test("the provisioned datasource is the PostgreSQL one the dashboards reference", () => {
    assert.deepEqual({ uid: DS.uid, type: DS.type }, { uid: "rpcpulse-db", type: "grafana-postgresql-datasource" });
  });

  test("fleet.json and node.json are what grafana/dashboards/src/build.ts generates", () => {
    const built = buildDashboards();
    assert.deepEqual([...FILES.keys()].sort(), Object.keys(built).sort());
    for (const [file, model] of Object.entries(built))
      assert.deepEqual(
        FILES.get(file),
        JSON.parse(JSON.stringify(model)),
        `${file} is stale: npm run build:dashboards -w @rpcpulse/infra`,
      );
  });

  for (const [file, d] of FILES) {
    test(`${file}: valid structure (ids, gridPos, datasource uid, editable: false)`, () => {
      assert.deepEqual(validateDashboard(d, DS), []);
    });
    test(`${file}: every panel has its expected columns declared`, () => {
      const titles = allPanels(d).map((p) => String(p.title));
      assert.deepEqual(titles.sort(), Object.keys(EXPECTED_COLUMNS[d.uid ?? ""] ?? {}).sort());
    });
  }

  test("uids are unique across dashboards", () => {
    const uids = [...FILES.values()].map((d) => d.uid);
    assert.equal(new Set(uids).size, uids.length);
  });

  describe("a broken copy is rejected", () => {
    const fleet = () => structuredClone(FILES.get("fleet.json")) as Dashboard;
    const cases: [string, (d: Dashboard) => void, RegExp][] = [
      ["duplicate panel id", (d) => void (d.panels![1]!.id = d.panels![0]!.id), /duplicate panel id/],
      [
        "another datasource uid",
        (d) => void (d.panels![0]!.targets![0]!.datasource = { type: DS.type, uid: "other" }),
        /is not the provisioned/,
      ],
      ["overlapping panels", (d) => void (d.panels![1]!.gridPos = { ...d.panels![0]!.gridPos }), /overlap/],
      ["gridPos outside the grid", (d) => void (d.panels![0]!.gridPos!.w = 25), /24-column grid/],
      ["editable", (d) => void (d.editable = true), /editable must be false/],
      [
        "a table-format time series",
        (d) => void (d.panels![2]!.targets![0]!.format = "table"),
        /needs format time_series/,
      ],
    ];
    for (const [name, mutate, message] of cases)
      test(name, () => {
        const d = fleet();
        mutate(d);
        assert.match(validateDashboard(d, DS).join("\n"), message);
      });
  });
});

describe("Grafana interpolation", () => {
  const range = { from: new Date("2018-04-12T18:00:00Z"), to: new Date("2018-04-12T18:05:00Z") };
  const base: InterpolateOptions = { range, intervalMs: 300_000, variables: {}, timescaledb: false };

  test("$__timeFilter, $__timeFrom, $__timeTo: RFC 3339 in UTC, fraction without trailing zeros", () => {
    assert.equal(
      interpolate("WHERE $__timeFilter(time_column)", base),
      "WHERE time_column BETWEEN '2018-04-12T18:00:00Z' AND '2018-04-12T18:05:00Z'",
    );
    assert.equal(
      interpolate("select $__timeFrom(), $__timeTo()", base),
      "select '2018-04-12T18:00:00Z', '2018-04-12T18:05:00Z'",
    );
    assert.equal(rfc3339Nano(new Date("1960-02-01T07:00:00.500Z")), "1960-02-01T07:00:00.5Z");
  });

  test("$__timeGroup: floor(extract(epoch)) on plain, time_bucket with timescaledb, alias rules", () => {
    assert.equal(
      interpolate("SELECT $__timeGroup(time_column,'5m')", base),
      "SELECT floor(extract(epoch from time_column)/300)*300",
    );
    assert.equal(
      interpolate("SELECT $__timeGroup(time_column,'5m'), value", base),
      'SELECT floor(extract(epoch from time_column)/300)*300 AS "time", value',
    );
    assert.equal(
      interpolate("$__timeGroupAlias(time_column , '5m')", base),
      'floor(extract(epoch from time_column)/300)*300 AS "time"',
    );
    assert.equal(
      interpolate("GROUP BY $__timeGroup(time_column , '12d')", { ...base, timescaledb: true }),
      "GROUP BY time_bucket('1036800.000s',time_column)",
    );
  });

  test("$__interval / $__interval_ms, and unknown macros are errors", () => {
    assert.equal(interpolate("SELECT $__interval_ms, '$__interval'", base), "SELECT 300000, '5m'");
    assert.equal(formatInterval(90_000), "1m");
    assert.throws(() => interpolate("SELECT $__unknownMacro(x)", base), /unknown macro/);
    assert.throws(() => interpolate("SELECT '$nosuchvar'", base), /unexpanded variable/);
  });

  test("variables: single values have quotes doubled, multi values are quoted lists, :sqlstring and :csv", () => {
    const o: InterpolateOptions = {
      ...base,
      variables: {
        node: { value: "o'brien" },
        net: { value: ["a", "b'c"], multi: true, includeAll: true },
        one: { value: "x", multi: true },
      },
    };
    assert.equal(interpolate("'$node' '${node}'", o), "'o''brien' 'o''brien'");
    assert.equal(interpolate("IN ($net) IN ($one)", o), "IN ('a','b''c') IN ('x')");
    assert.equal(interpolate("ARRAY[${net:sqlstring}] ${net:csv}", o), "ARRAY['a','b''c'] a,b'c");
    assert.equal(
      interpolate("ARRAY[${net:sqlstring}]", { ...o, variables: { net: { value: [], multi: true } } }),
      "ARRAY[]",
    );
  });

  test("panel interval: range / 1000 points, rounded, at least the datasource's 10 s", () => {
    const span = (ms: number) => calculateIntervalMs({ from: new Date(0), to: new Date(ms) });
    assert.equal(span(3_600_000), 10_000);
    assert.equal(span(86_400_000), 60_000);
    assert.equal(span(30 * 86_400_000), 3_600_000);
  });
});
