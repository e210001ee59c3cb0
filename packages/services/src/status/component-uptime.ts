import {
  queryConsensusUptimeDays,
  queryEndpointUptimeDays,
  queryNodeUptimeDays,
  queryProducerUptimeDays,
  queryValidatorUptimeDays,
  readCachedUptimeDays,
  writeCachedUptimeDays,
  type UptimeDayRow,
  type UptimeKind,
} from "@rpcpulse/db/status";
import { type SqlClient } from "@rpcpulse/db/sql";
import { FRESH_READING_MS } from "../alerting/measure-producers.js";
import { LOW_POINTS_SHARE, MIN_ERA_PROGRESS } from "../producers/validator-view.js";
import { CONSENSUS_DEGRADED_SLOTS, CONSENSUS_MAJOR_SLOTS } from "./consensus-components.js";

export const UPTIME_DAYS = 90;
const DAY_MS = 86_400_000;
const ROLLUP_SLACK_MS = 5 * 60_000;

/** A consensus client's reading stands for at most this long (agents read it every ~10 s). */
const CONSENSUS_GAP_SECONDS = 60;

export interface UptimeRef {
  /** consensus_client: refId is the node the consensus client runs beside. */
  kind: UptimeKind;
  refId: string;
  /** Node/endpoint creation: days before it have no bar. */
  createdAt: Date;
}

export interface DayUptime {
  /** UTC midnight. */
  day: Date;
  /** 0..1, null = no data that day. */
  uptime: number | null;
  /** Share of the measured minutes that were degraded (0..1). */
  degradedShare: number;
}

export function utcDay(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}

/** The key of a ref in getComponentUptime's answer: a node and its consensus client share an id. */
export function uptimeKey(ref: { kind: UptimeKind; refId: string }): string {
  return `${ref.kind}:${ref.refId}`;
}

function key(ref: { kind: UptimeKind; refId: string }, day: Date): string {
  return `${uptimeKey(ref)}|${day.getTime()}`;
}

const KINDS: readonly UptimeKind[] = ["node", "endpoint", "producer", "consensus_client"];

/** Minutes of [day, day+1d) that fall inside [start, end). */
function overlapMinutes(day: Date, start: Date, end: Date): number {
  const from = Math.max(day.getTime(), start.getTime());
  const to = Math.min(day.getTime() + DAY_MS, end.getTime());
  return Math.max(0, Math.floor((to - from) / 60_000));
}

/** Computed days of these refs in [from, to), by key(ref, day). */
async function computeDays(
  sql: SqlClient,
  refs: readonly UptimeRef[],
  from: Date,
  to: Date,
): Promise<Map<string, UptimeDayRow>> {
  const ids = (kind: UptimeKind) => refs.filter((r) => r.kind === kind).map((r) => r.refId);
  const nodes = ids("node");
  const endpoints = ids("endpoint");
  const producers = ids("producer");
  // A producer id is a witness (producer_samples) or a validator (validator_samples): each query
  // finds rows for its own kind only.
  const [a, b, c, d, e] = await Promise.all([
    queryNodeUptimeDays(sql, { refIds: nodes, from, to }),
    queryEndpointUptimeDays(sql, { refIds: endpoints, from, to }),
    queryProducerUptimeDays(sql, { refIds: producers, from, to }),
    queryValidatorUptimeDays(sql, {
      refIds: producers,
      from,
      to,
      lowShare: LOW_POINTS_SHARE,
      minProgress: MIN_ERA_PROGRESS,
      gapSeconds: FRESH_READING_MS / 1_000,
    }),
    queryConsensusUptimeDays(sql, {
      refIds: ids("consensus_client"),
      from,
      to,
      majorSlots: CONSENSUS_MAJOR_SLOTS,
      degradedSlots: CONSENSUS_DEGRADED_SLOTS,
      gapSeconds: CONSENSUS_GAP_SECONDS,
    }),
  ]);
  const out = new Map<string, UptimeDayRow>();
  const tagged: [UptimeKind, UptimeDayRow[]][] = [
    ["node", a],
    ["endpoint", b],
    ["producer", [...c, ...d]],
    ["consensus_client", e],
  ];
  for (const [kind, rows] of tagged) for (const r of rows) out.set(key({ kind, refId: r.refId }, utcDay(r.day)), r);
  return out;
}

/**
 * Finished days [first, today) of each ref from status_uptime_days; the days missing there (on or
 * after the ref's creation day) are computed from the 1-minute rollups and written, days without
 * data as zero rows so they are not recomputed. Returns the rows by ref and day, and how many
 * were written.
 */
async function loadFinishedDays(
  sql: SqlClient,
  refs: readonly UptimeRef[],
  first: Date,
  today: Date,
): Promise<{ rows: Map<string, UptimeDayRow>; written: number }> {
  const rows = new Map<string, UptimeDayRow>();
  const cached = await Promise.all(
    KINDS.map(async (kind) => {
      const refIds = refs.filter((r) => r.kind === kind).map((r) => r.refId);
      const found = refIds.length > 0 ? await readCachedUptimeDays(sql, { refIds, from: first, to: today, kind }) : [];
      return { kind, found };
    }),
  );
  for (const { kind, found } of cached)
    for (const r of found) rows.set(key({ kind, refId: r.refId }, utcDay(r.day)), r);
  // Finished days missing from the cache (on or after the ref's creation day).
  const missing: UptimeRef[] = [];
  let missingFrom = today;
  for (const ref of refs) {
    const start = new Date(Math.max(first.getTime(), utcDay(ref.createdAt).getTime()));
    for (let d = start.getTime(); d < today.getTime(); d += DAY_MS) {
      if (!rows.has(key(ref, new Date(d)))) {
        missing.push(ref);
        if (d < missingFrom.getTime()) missingFrom = new Date(d);
        break;
      }
    }
  }
  if (missing.length === 0) return { rows, written: 0 };
  const computed = await computeDays(sql, missing, missingFrom, today);
  const toWrite: Record<UptimeKind, UptimeDayRow[]> = { node: [], endpoint: [], producer: [], consensus_client: [] };
  for (const ref of missing) {
    const start = new Date(Math.max(missingFrom.getTime(), utcDay(ref.createdAt).getTime()));
    for (let d = start.getTime(); d < today.getTime(); d += DAY_MS) {
      const k = key(ref, new Date(d));
      if (rows.has(k)) continue;
      const row = computed.get(k) ?? {
        refId: ref.refId,
        day: new Date(d),
        measuredMinutes: 0,
        upMinutes: 0,
        degradedMinutes: 0,
      };
      rows.set(k, row);
      toWrite[ref.kind].push(row);
    }
  }
  let written = 0;
  for (const kind of KINDS) {
    await writeCachedUptimeDays(sql, kind, toWrite[kind]);
    written += toWrite[kind].length;
  }
  return { rows, written };
}

/** The first day (UTC midnight) of a `days`-day window ending today, and today. */
export function computeUptimeWindow(now: Date, days = UPTIME_DAYS): { first: Date; today: Date } {
  const today = utcDay(now);
  return { first: new Date(today.getTime() - (days - 1) * DAY_MS), today };
}

function uniqueRefs(refs: readonly UptimeRef[]): UptimeRef[] {
  return [...new Map(refs.map((r) => [uptimeKey(r), r])).values()];
}

/**
 * Fills status_uptime_days with the finished days of these refs that it lacks (the same step
 * getComponentUptime takes before answering), so a later page view only reads the cache.
 */
export async function fillMissingUptimeDays(
  deps: { sql: SqlClient },
  input: { refs: readonly UptimeRef[]; now: Date; days?: number },
): Promise<{ daysWritten: number }> {
  const { first, today } = computeUptimeWindow(input.now, input.days);
  const { written } = await loadFinishedDays(deps.sql, uniqueRefs(input.refs), first, today);
  return { daysWritten: written };
}

/**
 * Per-day uptime of each ref (by uptimeKey) for the last UPTIME_DAYS UTC days (oldest first, today last). Finished
 * days come from status_uptime_days (computed once from the 1-minute rollups, then cached; days
 * without data are cached as zero rows so they are not recomputed); today is computed live.
 */
export async function getComponentUptime(
  deps: { sql: SqlClient },
  input: { refs: readonly UptimeRef[]; now: Date; days?: number },
): Promise<Map<string, DayUptime[]>> {
  const days = input.days ?? UPTIME_DAYS;
  const { first, today } = computeUptimeWindow(input.now, days);
  const refs = uniqueRefs(input.refs);
  const { rows } = await loadFinishedDays(deps.sql, refs, first, today);
  for (const [k, r] of await computeDays(deps.sql, refs, today, new Date(today.getTime() + DAY_MS))) rows.set(k, r);

  const out = new Map<string, DayUptime[]>();
  for (const ref of refs) {
    const series: DayUptime[] = [];
    let reporting = false;
    for (let i = 0; i < days; i++) {
      const day = new Date(first.getTime() + i * DAY_MS);
      const row = rows.get(key(ref, day));
      const measured = row?.measuredMinutes ?? 0;
      if (measured > 0) reporting = true;
      if (ref.kind === "producer") {
        series.push(producerDay(day, row));
        continue;
      }
      if (ref.kind === "endpoint" || ref.kind === "consensus_client") {
        // Consensus clients count minutes read (consensus-uptime-days.ts): served = up, as an endpoint.
        series.push({
          day,
          uptime: measured > 0 ? (row?.upMinutes ?? 0) / measured : null,
          degradedShare: measured > 0 ? (row?.degradedMinutes ?? 0) / measured : 0,
        });
        continue;
      }
      // Nodes: from the first day the agent reported, a silent minute counts as down.
      // Today's last minutes may not be rolled up yet: count expected minutes up to 5 minutes ago.
      const end = day.getTime() === today.getTime() ? new Date(input.now.getTime() - ROLLUP_SLACK_MS) : input.now;
      const expected = overlapMinutes(day, ref.createdAt, end);
      if (!reporting || expected === 0) {
        series.push({ day, uptime: null, degradedShare: 0 });
        continue;
      }
      const served = (row?.upMinutes ?? 0) + (row?.degradedMinutes ?? 0);
      series.push({
        day,
        uptime: Math.min(1, served / expected),
        degradedShare: Math.min(1, (row?.degradedMinutes ?? 0) / expected),
      });
    }
    out.set(uptimeKey(ref), series);
  }
  return out;
}

/**
 * A producer's day. Witnesses (rows count slots, see producer-uptime-days.ts): uptime = produced /
 * slots seen; a day with any missed block is at least degraded. Validators (rows count minutes, see
 * validator-uptime-days.ts): uptime = minutes in the active set / minutes read (out of the set is
 * down); degraded = minutes with low era points, and a day with an offline report is at least
 * degraded. "At least degraded": the degraded share is raised to dayLevel's 5 % mark, as an operator
 * would read it. null without a slot (minute) seen.
 */
export function producerDay(day: Date, row: UptimeDayRow | undefined): DayUptime {
  const slots = row?.measuredMinutes ?? 0;
  if (slots === 0) return { day, uptime: null, degradedShare: 0 };
  const missed = row?.degradedMinutes ?? 0;
  return {
    day,
    uptime: (row?.upMinutes ?? 0) / slots,
    degradedShare: missed > 0 ? Math.max(PRODUCER_MISS_DAY_SHARE, missed / slots) : 0,
  };
}

/** The degraded share dayLevel colours "minor": a day with a miss is never shown as a clean day. */
export const PRODUCER_MISS_DAY_SHARE = 0.05;

/** Uptime over a series: served / expected minutes, approximated by the mean of days with data. */
export function summarizeUptime(series: readonly DayUptime[]): number | null {
  const withData = series.filter((d) => d.uptime !== null);
  if (withData.length === 0) return null;
  return withData.reduce((sum, d) => sum + (d.uptime ?? 0), 0) / withData.length;
}
