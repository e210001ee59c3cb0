import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { rankedSearchText, rankedSortValue, type RankedRow } from "../src/features/directory/view-model.js";
import { paginate, parseTableState, searchRows, sortRows, tableHref } from "../src/lib/table-query.js";

interface Row {
  name: string;
  score: number | null;
  up: boolean | null;
}
const rows: Row[] = [
  { name: "node-10", score: 80, up: true },
  { name: "Node-2", score: null, up: false },
  { name: "node-1", score: 95.5, up: null },
  { name: "Zürich", score: 80, up: true },
];

describe("sortRows", () => {
  test("numbers both ways, empty values last either way, ties keep their order", () => {
    assert.deepEqual(
      sortRows(rows, (r) => r.score, "asc").map((r) => r.name),
      ["node-10", "Zürich", "node-1", "Node-2"],
    );
    assert.deepEqual(
      sortRows(rows, (r) => r.score, "desc").map((r) => r.name),
      ["node-1", "node-10", "Zürich", "Node-2"],
    );
  });
  test("text in natural, case-insensitive order", () => {
    assert.deepEqual(
      sortRows(rows, (r) => r.name, "asc").map((r) => r.name),
      ["node-1", "Node-2", "node-10", "Zürich"],
    );
  });
  test("booleans: no before yes, unknown last", () => {
    assert.deepEqual(
      sortRows(rows, (r) => r.up, "asc").map((r) => r.name),
      ["Node-2", "node-10", "Zürich", "node-1"],
    );
  });
  test("does not change its input", () => {
    const copy = [...rows];
    sortRows(rows, (r) => r.name, "desc");
    assert.deepEqual(rows, copy);
  });
});

describe("searchRows", () => {
  test("every word must match, case and accents ignored", () => {
    assert.deepEqual(
      searchRows(rows, "  NODE 1 ", (r) => r.name).map((r) => r.name),
      ["node-10", "node-1"],
    );
    assert.deepEqual(
      searchRows(rows, "zurich", (r) => r.name).map((r) => r.name),
      ["Zürich"],
    );
    assert.equal(searchRows(rows, "", (r) => r.name).length, 4);
    assert.equal(searchRows(rows, "nothing", (r) => r.name).length, 0);
  });
});

describe("paginate", () => {
  const many = Array.from({ length: 10_001 }, (_, i) => i);
  test("pages of 100 over 10,001 rows", () => {
    const p = paginate(many, 3, 100);
    assert.equal(p.pageCount, 101);
    assert.equal(p.total, 10_001);
    assert.deepEqual([p.rows[0], p.rows.at(-1), p.rows.length], [200, 299, 100]);
    const last = paginate(many, 101, 100);
    assert.deepEqual(last.rows, [10_000]);
  });
  test("a page past the end shows the last page; nothing is page 1 of 1", () => {
    assert.equal(paginate(many, 999, 100).page, 101);
    assert.deepEqual(paginate([], 5, 100), { rows: [], page: 1, pageCount: 1, total: 0, pageSize: 100 });
  });
});

describe("URL state", () => {
  test("parse with a prefix; junk falls back to the defaults", () => {
    const keys = ["name", "score"] as const;
    assert.deepEqual(
      parseTableState({ asort: "score", adir: "desc", apage: "3", aq: " x " }, { keys, sort: "name", prefix: "a" }),
      {
        q: "x",
        sort: "score",
        dir: "desc",
        page: 3,
      },
    );
    assert.deepEqual(parseTableState({ sort: "drop table", dir: "up", page: "-2" }, { keys, sort: "name" }), {
      q: "",
      sort: "name",
      dir: "asc",
      page: 1,
    });
  });
  test("links keep the other params, drop defaults, and go back to page 1 unless paging", () => {
    const current = { q: "hive", sort: "score", dir: "desc", page: "4", cap: ["archive", "trace"] };
    assert.equal(
      tableHref("/t", current, { sort: "name", dir: "asc" }, { defaults: { sort: "name", dir: "asc" } }),
      "/t?q=hive&cap=archive&cap=trace",
    );
    assert.equal(tableHref("/t", current, { page: 5 }), "/t?q=hive&sort=score&dir=desc&page=5&cap=archive&cap=trace");
    assert.equal(tableHref("/t", { dpage: "2", x: "1" }, { dpage: 1 }, { pageKey: "dpage" }), "/t?x=1");
    assert.equal(
      tableHref("/t", { dpage: "2", apage: "3" }, { dstatus: "failed" }, { pageKey: "dpage" }),
      "/t?apage=3&dstatus=failed",
    );
  });
});

describe("directory ranked table: every column sorts, search covers name, provider and URL", () => {
  const row = (id: string, over: Partial<RankedRow>): RankedRow => ({
    id,
    rank: Number(id),
    name: `ep ${id}`,
    provider: null,
    url: `https://${id}.example`,
    score: 50,
    status: "healthy",
    operatorVerified: false,
    latency: [],
    lagBlocks: null,
    uptime: { h24: null, d7: null, d30: null },
    capabilities: { archive: null, websocket: null, trace: null, batch: null } as RankedRow["capabilities"],
    ...over,
  });
  const ranked = [
    row("1", {
      latency: [
        { region: "eu", p50Ms: 90, p95Ms: 200 },
        { region: "us", p50Ms: 40, p95Ms: 100 },
      ],
    }),
    row("2", { provider: "Anyblock", latency: [{ region: "eu", p50Ms: 60, p95Ms: 80 }] }),
    row("3", {}),
  ];
  test("latency sorts by the fastest region, missing last", () => {
    assert.deepEqual(
      sortRows(ranked, (r) => rankedSortValue(r, "latency"), "asc").map((r) => r.id),
      ["1", "2", "3"],
    );
    assert.deepEqual(
      sortRows(ranked, (r) => rankedSortValue(r, "latency"), "desc").map((r) => r.id),
      ["2", "1", "3"],
    );
  });
  test("search", () => {
    assert.deepEqual(
      searchRows(ranked, "anyblock", rankedSearchText).map((r) => r.id),
      ["2"],
    );
    assert.deepEqual(
      searchRows(ranked, "3.example", rankedSearchText).map((r) => r.id),
      ["3"],
    );
  });
});
