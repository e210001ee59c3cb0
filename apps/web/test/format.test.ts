import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  cookieValue,
  displayZone,
  HEAD_SCRIPT,
  parseTheme,
  readDisplayPrefs,
  THEME_COOKIE,
  TIME_MODE_COOKIE,
  TZ_COOKIE,
} from "../src/lib/display-prefs.js";
import {
  formatAgo,
  formatBytes,
  formatClock,
  formatDate,
  formatDateTime,
  formatDuration,
  isValidTimeZone,
  utcToZonedInput,
  zonedInputToUtc,
  zoneName,
  zoneOffsetMs,
} from "../src/lib/format.js";

describe("formatDateTime in a zone", () => {
  const at = new Date("2026-07-01T12:34:56Z");
  test("UTC, Berlin summer, New York, Kolkata (half-hour offset)", () => {
    assert.equal(formatDateTime(at, "UTC"), "2026-07-01 12:34 UTC");
    assert.equal(formatDateTime(at, "Europe/Berlin", { zoneName: false }), "2026-07-01 14:34");
    assert.equal(formatDateTime(at, "America/New_York", { seconds: true }), "2026-07-01 08:34:56 EDT");
    assert.equal(formatDateTime(at, "Asia/Kolkata", { zoneName: false }), "2026-07-01 18:04");
    assert.equal(formatDateTime(null, "UTC"), "—");
    assert.equal(formatDateTime("not a date", "UTC"), "—");
  });
  test("the day changes with the zone", () => {
    const late = new Date("2026-12-31T23:30:00Z");
    assert.equal(formatDate(late, "UTC"), "2026-12-31");
    assert.equal(formatDate(late, "Asia/Tokyo"), "2027-01-01");
    assert.equal(formatClock(late, "America/Los_Angeles"), "15:30");
  });
  test("a clock time with its zone (the hour titles of the producer and validator charts)", () => {
    const hour = "2026-07-01T14:00:00.000Z";
    assert.equal(formatClock(hour, "UTC", { zoneName: true }), "14:00 UTC");
    assert.equal(formatClock(hour, "America/New_York", { zoneName: true }), "10:00 EDT");
  });
  test("offsets and names across the European DST change (29 March 2026, 01:00 UTC)", () => {
    const before = new Date("2026-03-29T00:59:00Z");
    const after = new Date("2026-03-29T01:00:00Z");
    assert.equal(zoneOffsetMs(before, "Europe/Berlin"), 3_600_000);
    assert.equal(zoneOffsetMs(after, "Europe/Berlin"), 7_200_000);
    assert.equal(formatDateTime(before, "Europe/Berlin", { zoneName: false }), "2026-03-29 01:59");
    assert.equal(formatDateTime(after, "Europe/Berlin", { zoneName: false }), "2026-03-29 03:00");
    assert.notEqual(zoneName(before, "Europe/Berlin"), zoneName(after, "Europe/Berlin"));
    assert.equal(zoneName(after, "UTC"), "UTC");
  });
});

describe("zonedInputToUtc (maintenance form times)", () => {
  test("an ordinary wall-clock time", () => {
    assert.equal(zonedInputToUtc("2026-07-01T14:00", "Europe/Berlin")?.toISOString(), "2026-07-01T12:00:00.000Z");
    assert.equal(zonedInputToUtc("2026-01-15T09:30", "America/New_York")?.toISOString(), "2026-01-15T14:30:00.000Z");
    assert.equal(zonedInputToUtc("2026-01-15T09:30", "UTC")?.toISOString(), "2026-01-15T09:30:00.000Z");
  });
  test("a time the clocks skip (spring forward) is refused", () => {
    assert.equal(zonedInputToUtc("2026-03-29T02:30", "Europe/Berlin"), null);
    assert.equal(zonedInputToUtc("2026-03-08T02:30", "America/New_York"), null);
    // Either side of the gap exists.
    assert.equal(zonedInputToUtc("2026-03-29T01:59", "Europe/Berlin")?.toISOString(), "2026-03-29T00:59:00.000Z");
    assert.equal(zonedInputToUtc("2026-03-29T03:00", "Europe/Berlin")?.toISOString(), "2026-03-29T01:00:00.000Z");
  });
  test("a time that happens twice (fall back) is its first occurrence", () => {
    // 25 Oct 2026: 02:30 CEST (00:30Z) and 02:30 CET (01:30Z).
    assert.equal(zonedInputToUtc("2026-10-25T02:30", "Europe/Berlin")?.toISOString(), "2026-10-25T00:30:00.000Z");
    assert.equal(zonedInputToUtc("2026-11-01T01:30", "America/New_York")?.toISOString(), "2026-11-01T05:30:00.000Z");
  });
  test("bad input", () => {
    assert.equal(zonedInputToUtc("2026-13-01T00:00", "UTC"), null);
    assert.equal(zonedInputToUtc("yesterday", "UTC"), null);
    assert.equal(zonedInputToUtc("2026-01-01T00:00", "Mars/Olympus"), null);
    assert.equal(isValidTimeZone("Europe/Berlin"), true);
    assert.equal(isValidTimeZone(""), false);
  });
  test("round trip through the form value", () => {
    for (const zone of ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu"]) {
      const at = new Date("2026-10-04T15:45:00Z");
      assert.equal(zonedInputToUtc(utcToZonedInput(at, zone), zone)?.getTime(), at.getTime(), zone);
    }
  });
});

describe("durations, relative times, sizes", () => {
  test("formatDuration", () => {
    assert.equal(formatDuration(null), "—");
    assert.equal(formatDuration(45_000), "45 s");
    assert.equal(formatDuration(12 * 60_000), "12 min");
    assert.equal(formatDuration(3 * 3_600_000 + 5 * 60_000), "3 h 5 min");
    assert.equal(formatDuration(4 * 86_400_000), "4 d");
  });
  test("formatAgo", () => {
    const now = new Date("2026-07-01T12:00:00Z");
    assert.equal(formatAgo(null, now), "never");
    assert.equal(formatAgo(now, now), "just now");
    assert.equal(formatAgo(new Date(now.getTime() - 30_000), now), "30 s ago");
    assert.equal(formatAgo(new Date(now.getTime() - 12 * 60_000), now.getTime()), "12 min ago");
    assert.equal(formatAgo("2026-06-27T12:00:00Z", now), "4 d ago");
    // A time slightly in the future (clock skew) is not negative.
    assert.equal(formatAgo(new Date(now.getTime() + 5_000), now), "just now");
  });
  test("formatBytes", () => {
    assert.equal(formatBytes(512), "512 B");
    assert.equal(formatBytes(1536), "1.5 KiB");
    assert.equal(formatBytes(120 * 1024 * 1024), "120 MiB");
    assert.equal(formatBytes(null), "—");
  });
});

describe("display preferences (cookies)", () => {
  test("the zone: the browser's, UTC when toggled or unknown", () => {
    assert.equal(displayZone({ browserZone: "Europe/Berlin", mode: "local" }), "Europe/Berlin");
    assert.equal(displayZone({ browserZone: "Europe/Berlin", mode: "utc" }), "UTC");
    assert.equal(displayZone({ browserZone: null, mode: "local" }), "UTC");
  });
  test("parsed from a cookie header; junk falls back to defaults", () => {
    const header = `a=1; ${TZ_COOKIE}=${encodeURIComponent("America/New_York")}; ${TIME_MODE_COOKIE}=utc; ${THEME_COOKIE}=dark`;
    assert.deepEqual(
      readDisplayPrefs((n) => cookieValue(header, n)),
      { browserZone: "America/New_York", mode: "utc", theme: "dark" },
    );
    const junk = `${TZ_COOKIE}=Not/AZone; ${TIME_MODE_COOKIE}=sideways; ${THEME_COOKIE}=neon`;
    assert.deepEqual(
      readDisplayPrefs((n) => cookieValue(junk, n)),
      { browserZone: null, mode: "local", theme: "system" },
    );
    assert.equal(parseTheme(undefined), "system");
  });
  test("the head script resolves the theme before paint and records the browser's zone", () => {
    const run = (cookie: string, systemDark: boolean) => {
      const attrs = new Map<string, string>();
      const doc = {
        cookie,
        documentElement: {
          getAttribute: (n: string) => attrs.get(n) ?? null,
          setAttribute: (n: string, v: string) => attrs.set(n, v),
        },
      };
      const win = { matchMedia: () => ({ matches: systemDark, addEventListener: () => undefined }) };
      const intl = { DateTimeFormat: () => ({ resolvedOptions: () => ({ timeZone: "Europe/Berlin" }) }) };
      new Function("document", "window", "Intl", HEAD_SCRIPT)(doc, win, intl);
      return { theme: attrs.get("data-theme"), pref: attrs.get("data-theme-pref"), cookie: doc.cookie };
    };
    assert.deepEqual(run("", true).theme, "dark");
    assert.deepEqual(run("", false).theme, "light");
    assert.equal(run(`${THEME_COOKIE}=light`, true).theme, "light");
    assert.equal(run(`x=1; ${THEME_COOKIE}=dark`, false).pref, "dark");
    assert.match(run("", false).cookie, new RegExp(`^${TZ_COOKIE}=Europe%2FBerlin; Path=/`));
    // Already recorded: the cookie is left alone.
    assert.equal(run(`${TZ_COOKIE}=Europe%2FBerlin`, false).cookie, `${TZ_COOKIE}=Europe%2FBerlin`);
  });
});
