import type { CapabilityReport, PendingCapability, Tri } from "./types.js";

/**
 * What the directory shows of an endpoint's capabilities changes only on evidence that agrees over
 * several checks. One check answers each capability with a value or "could not tell" (a transient
 * error outlived its retries); settling merges it into the endpoint's last settled report:
 *
 * - could not tell: the settled value stands (a 503 says nothing about eth_getLogs);
 * - a value where none was known (first check, or after unknowns): taken at once;
 * - the settled value again: kept, with this check's measurements, and any pending flip dropped;
 * - a different value: counted; it replaces the settled one after CAPABILITY_FLIP_CHECKS
 *   consecutive checks that say so (checks that could not tell neither count nor break the run);
 * - nothing but "could not tell" for CAPABILITY_FORGET_CHECKS checks in a row: unknown again.
 *
 * Method coverage is recomputed from the settled method groups, so it moves with them.
 */
export const CAPABILITY_FLIP_CHECKS = 3;
export const CAPABILITY_FORGET_CHECKS = 10;

type Copy = (into: CapabilityReport, from: CapabilityReport) => void;

interface Facet {
  key: string;
  /** The check's answer as a comparable token; undefined = could not tell. */
  token(report: CapabilityReport): string | undefined;
  copy: Copy;
}

const tri = (v: Tri | undefined): string | undefined => (v === null || v === undefined ? undefined : String(v));

const FIXED_FACETS: readonly Facet[] = [
  {
    key: "archive",
    token: (r) => tri(r.archive),
    copy: (into, from) => {
      into.archive = from.archive;
      into.archiveBlock = from.archiveBlock;
      into.archiveDetail = from.archiveDetail;
    },
  },
  { key: "batch", token: (r) => tri(r.batch), copy: (into, from) => void (into.batch = from.batch) },
  {
    key: "logs",
    // logsRangeLimited null: the check failed (or the family has no eth_getLogs).
    token: (r) =>
      r.logsRangeLimited === null || r.logsRangeLimited === undefined ? undefined : String(r.logsMaxRange ?? "none"),
    copy: (into, from) => {
      into.logsMaxRange = from.logsMaxRange;
      into.logsRangeLimited = from.logsRangeLimited;
    },
  },
  {
    key: "websocket",
    token: (r) => tri(r.websocket?.supported),
    copy: (into, from) => void (into.websocket = from.websocket),
  },
  {
    key: "cors",
    // No answer, or a 5xx/429 to the preflight: nothing learnt about the CORS policy.
    token: (r) =>
      r.cors?.status === null || r.cors?.status === undefined || r.cors.status >= 500 || r.cors.status === 429
        ? undefined
        : String(r.cors.allowed),
    copy: (into, from) => void (into.cors = from.cors),
  },
];

function methodFacet(group: string): Facet {
  return {
    key: `methods.${group}`,
    token: (r) => tri(r.methods?.[group]),
    copy: (into, from) => {
      into.methods[group] = from.methods?.[group] ?? null;
    },
  };
}

export function coverageOf(methods: Record<string, Tri>): number | null {
  const known = Object.values(methods).filter((v): v is boolean => v !== null);
  return known.length === 0 ? null : known.filter(Boolean).length / known.length;
}

/**
 * The report to store after `observed` (one raw check), given the endpoint's last settled report
 * (null before its first check). Pure; `observed` is not modified.
 */
export function settleCapabilityReport(
  previous: CapabilityReport | null,
  observed: CapabilityReport,
): CapabilityReport {
  const settled: CapabilityReport = {
    ...observed,
    methods: { ...observed.methods },
    clientVersion: observed.clientVersion ?? previous?.clientVersion ?? null,
  };
  const pending: Record<string, PendingCapability> = {};
  const unknownChecks: Record<string, number> = {};
  const groups = new Set([...Object.keys(previous?.methods ?? {}), ...Object.keys(observed.methods)]);
  const facets = [...FIXED_FACETS, ...[...groups].map(methodFacet)];

  for (const facet of facets) {
    const seen = facet.token(observed);
    const held = previous ? facet.token(previous) : undefined;
    const before = previous?.pending?.[facet.key];
    if (seen === undefined) {
      const misses = (previous?.unknownChecks?.[facet.key] ?? 0) + 1;
      if (held === undefined || misses >= CAPABILITY_FORGET_CHECKS) continue; // unknown, as observed
      if (previous) facet.copy(settled, previous);
      unknownChecks[facet.key] = misses;
      if (before) pending[facet.key] = before;
      continue;
    }
    if (held === undefined || held === seen) continue; // learnt, or confirmed: the observed value
    const checks = before?.value === seen ? before.checks + 1 : 1;
    if (checks >= CAPABILITY_FLIP_CHECKS) continue; // confirmed often enough: it flips
    if (previous) facet.copy(settled, previous);
    pending[facet.key] = { value: seen, checks, since: before?.value === seen ? before.since : observed.checkedAt };
  }

  settled.coverage = coverageOf(settled.methods);
  if (Object.keys(pending).length > 0) settled.pending = pending;
  else delete settled.pending;
  if (Object.keys(unknownChecks).length > 0) settled.unknownChecks = unknownChecks;
  else delete settled.unknownChecks;
  return settled;
}
