import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { PublicComponent, PublicDay } from "@rpcpulse/services/status";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { indexDayIncidents, UptimeBars } from "../src/features/status/uptime-bars.js";
import {
  dayDate,
  dayTooltipLines,
  decodeDayIncidents,
  decodeUptime,
  encodeDayIncidents,
  encodeUptimes,
} from "../src/features/status/uptime-day-code.js";

function component(id: string, days: PublicDay[]): PublicComponent {
  return {
    id,
    name: `Node ${id}`,
    description: "",
    kind: "node",
    network: "Hive",
    state: "operational",
    uptime90: 0.99,
    days,
    responseMs: [],
    lagBlocks: [],
    finalityLagBlocks: null,
    finalityLag: [],
    producer: null,
  };
}

function ninetyDays(): PublicDay[] {
  return Array.from({ length: 90 }, (_, i) => ({
    date: dayDate("2026-08-25", i),
    uptime: i < 3 ? null : i % 17 === 0 ? 0.93456 : i % 5 === 0 ? 0.99981 : 1,
    level: i < 3 ? "none" : i % 17 === 0 ? "partial" : "ok",
    incidents: i === 89 ? [{ id: "i1", title: "Lag <b>&</b> stalls" }] : i === 40 ? [{ id: "i2", title: "DNS" }] : [],
  }));
}

describe("uptime day code", () => {
  test("uptimes round-trip at 1/100,000 with 100 % and no data as one character at most", () => {
    const values = [1, null, 0.99981, 0, 0.5, 0.999996, 0.123454];
    const code = encodeUptimes(values);
    assert.equal(code, ",-,99981,0,50000,,12345");
    assert.deepEqual(code.split(",").map(decodeUptime), [1, null, 0.99981, 0, 0.5, 1, 0.12345]);
  });

  test("incidents per day, dates and tooltip lines", () => {
    const code = encodeDayIncidents([[], [0, 2], [], [1]]);
    assert.equal(code, "1:0.2;3:1");
    assert.deepEqual(decodeDayIncidents(code, 1), [0, 2]);
    assert.deepEqual(decodeDayIncidents(code, 3), [1]);
    assert.deepEqual(decodeDayIncidents(code, 2), []);
    assert.equal(dayDate("2026-02-27", 2), "2026-03-01");
    assert.deepEqual(dayTooltipLines({ date: "2026-03-01", uptime: 0.99981, incidentTitles: ["Lag"] }), [
      "2026-03-01: 99.98% uptime",
      "incident: Lag",
    ]);
    assert.deepEqual(dayTooltipLines({ date: "2026-03-01", uptime: null, incidentTitles: [] }), [
      "2026-03-01: no data",
    ]);
  });
});

describe("uptime bars markup", () => {
  test("one path per level, the day data in attributes, escaped, and small", () => {
    const c = component("a", ninetyDays());
    const { index, titles } = indexDayIncidents([c]);
    assert.deepEqual(titles, ["DNS", "Lag <b>&</b> stalls"]);
    const html = renderToStaticMarkup(createElement(UptimeBars, { component: c, incidentIndex: index }));
    assert.equal((html.match(/<path /g) ?? []).length, 4, "ok, partial, none and the incident marks");
    // Runs of one level: every day is covered exactly once, in day order, by the level's stroke.
    const covered: string[] = [];
    for (const m of html.matchAll(/<path class="lv-(\w+)" d="([^"]+)"/g))
      for (const run of m[2]!.matchAll(/M(\d+) 14h(\d+)/g))
        for (let x = Number(run[1]); x < Number(run[1]) + Number(run[2]); x += 5) covered[x / 5] = m[1]!;
    assert.deepEqual(
      covered,
      c.days.map((d) => d.level),
    );
    assert.match(html, /<path class="inc" d="M200 26\.5h5M445 26\.5h5"/);
    const u = /data-u="([^"]*)"/.exec(html)?.[1] ?? "";
    assert.deepEqual(
      u.split(",").map(decodeUptime),
      c.days.map((d) => (d.uptime === null ? null : Math.round(d.uptime * 100_000) / 100_000)),
    );
    assert.equal(/data-inc="([^"]*)"/.exec(html)?.[1], "40:0;89:1");
    assert.equal(/data-first="([^"]*)"/.exec(html)?.[1], "2026-08-25");
    assert.ok(!html.includes("<b>"), "titles never enter the markup here");
    assert.match(html, /aria-label="Node a: 99\.00% uptime over the last 90 days, 2 days with incidents/);
    // 100 of these are the page's biggest part: keep a component's bars small.
    assert.ok(html.length < 1_000, `bars markup is ${html.length} bytes`);
  });
});
