import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbDateOrNull, dbNumber, dbNumberOrNull, int4, int8 } from "../sql/row-values.js";

/**
 * Polkadot/Kusama validators (producers of kind 'validator', migration 0020): the last reading of each
 * stash (validator_latest), the offline reports seen (validator_offline_reports) and the era-points
 * history (validator_samples, hypertable or plain table).
 */

export const VALIDATOR_STATUSES = ["active", "waiting", "inactive"] as const;
export type ValidatorStatus = (typeof VALIDATOR_STATUSES)[number];

export const ValidatorReading = z.object({
  producerId: z.string().uuid(),
  observedAt: z.date(),
  source: z.string().min(1).max(2_048),
  headBlock: int8.nonnegative(),
  activeEra: int4.nonnegative(),
  eraProgress: z.number().min(0).max(1),
  status: z.enum(VALIDATOR_STATUSES),
  eraPoints: int4.nonnegative(),
  medianPoints: z.number().finite().nonnegative(),
  setSize: int4.nonnegative(),
  commissionPpb: z.number().int().min(0).max(1_000_000_000).nullable(),
  blocked: z.boolean().nullable(),
  sessionKeys: z
    .string()
    .regex(/^0x[0-9a-f]*$/)
    .max(2_048)
    .nullable(),
  keysOnNode: z.boolean().nullable(),
  keysNode: z.string().max(2_048).nullable(),
  /** null: payouts not read this round (the previous answer is kept). */
  payouts: z
    .object({
      checkedEra: int4.nonnegative(),
      eras: z.array(int4.nonnegative()).max(200),
      planck: z.string().regex(/^\d{1,40}$/),
    })
    .nullable(),
  scannedBlock: int8.nonnegative().nullable(),
  /** imOnline.SomeOffline events naming this stash in the blocks scanned this round. */
  offlineReports: z.array(z.object({ block: int8.nonnegative(), era: int4.nonnegative() })).max(1_000),
});
export type ValidatorReading = z.input<typeof ValidatorReading>;

export interface RecordedValidatorReading {
  /** The stash was active at the previous reading and is not now. */
  leftSet: boolean;
  /** Offline reports not seen before. */
  newOfflineReports: number;
}

/** Store one reading: validator_latest upserted, new offline reports, one validator_samples row. */
export async function recordValidatorReading(
  sql: SqlClient,
  input: ValidatorReading,
): Promise<RecordedValidatorReading> {
  const r = ValidatorReading.parse(input);
  const prev = await sql.query(`SELECT status FROM validator_latest WHERE producer_id = $1`, [r.producerId]);
  const wasActive = z.object({ status: z.string() }).safeParse(prev.rows[0]).data?.status === "active";
  await sql.query(
    `INSERT INTO validator_latest (producer_id, observed_at, source, head_block, active_era, era_progress, status,
       left_set_at, era_points, median_points, set_size, commission_ppb, blocked, session_keys, keys_on_node, keys_node,
       pending_payout_eras, pending_payout_planck, payouts_checked_era, scanned_block, error, error_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, $8, $9, $10, $11, $12, $13, $14, $15,
       coalesce($16::int[], '{}'), coalesce($17::numeric, 0), $18, $19, NULL, NULL)
     ON CONFLICT (producer_id) DO UPDATE SET
       observed_at = EXCLUDED.observed_at, source = EXCLUDED.source, head_block = EXCLUDED.head_block,
       active_era = EXCLUDED.active_era, era_progress = EXCLUDED.era_progress,
       left_set_at = CASE WHEN EXCLUDED.status = 'active' THEN NULL
                          WHEN validator_latest.status = 'active' THEN EXCLUDED.observed_at
                          ELSE validator_latest.left_set_at END,
       status = EXCLUDED.status, era_points = EXCLUDED.era_points, median_points = EXCLUDED.median_points,
       set_size = EXCLUDED.set_size, commission_ppb = EXCLUDED.commission_ppb, blocked = EXCLUDED.blocked,
       session_keys = EXCLUDED.session_keys, keys_on_node = EXCLUDED.keys_on_node, keys_node = EXCLUDED.keys_node,
       pending_payout_eras = CASE WHEN $16::int[] IS NULL THEN validator_latest.pending_payout_eras ELSE $16::int[] END,
       pending_payout_planck = CASE WHEN $17::numeric IS NULL THEN validator_latest.pending_payout_planck ELSE $17::numeric END,
       payouts_checked_era = coalesce($18, validator_latest.payouts_checked_era),
       scanned_block = coalesce(EXCLUDED.scanned_block, validator_latest.scanned_block),
       error = NULL, error_at = NULL
     WHERE validator_latest.observed_at <= EXCLUDED.observed_at`,
    [
      r.producerId,
      r.observedAt,
      r.source,
      r.headBlock,
      r.activeEra,
      r.eraProgress,
      r.status,
      r.eraPoints,
      r.medianPoints,
      r.setSize,
      r.commissionPpb,
      r.blocked,
      r.sessionKeys,
      r.keysOnNode,
      r.keysNode,
      r.payouts?.eras ?? null,
      r.payouts?.planck ?? null,
      r.payouts?.checkedEra ?? null,
      r.scannedBlock,
    ],
  );
  let newOfflineReports = 0;
  for (const report of r.offlineReports) {
    const ins = await sql.query(
      `INSERT INTO validator_offline_reports (producer_id, block, detected_at, era) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING RETURNING block`,
      [r.producerId, report.block, r.observedAt, report.era],
    );
    newOfflineReports += ins.rows.length;
  }
  await sql.query(
    `INSERT INTO validator_samples (time, producer_id, era, era_progress, era_points, median_points, in_active_set)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
    [r.observedAt, r.producerId, r.activeEra, r.eraProgress, r.eraPoints, r.medianPoints, r.status === "active"],
  );
  return { leftSet: wasActive && r.status !== "active", newOfflineReports };
}

/** Every source failed: keep the last good reading, note the error (a row appears only after a first read). */
export async function recordValidatorError(
  sql: SqlClient,
  params: { producerId: string; at: Date; message: string },
): Promise<void> {
  await sql.query(`UPDATE validator_latest SET error = $3, error_at = $2 WHERE producer_id = $1`, [
    params.producerId,
    params.at,
    params.message.slice(0, 500),
  ]);
}

export interface ValidatorLatest {
  observedAt: Date;
  source: string;
  headBlock: number;
  activeEra: number;
  eraProgress: number;
  status: ValidatorStatus;
  leftSetAt: Date | null;
  eraPoints: number;
  medianPoints: number;
  setSize: number;
  commissionPpb: number | null;
  blocked: boolean | null;
  sessionKeys: string | null;
  keysOnNode: boolean | null;
  keysNode: string | null;
  pendingPayoutEras: number[];
  pendingPayoutPlanck: string;
  payoutsCheckedEra: number | null;
  scannedBlock: number | null;
}

export interface ValidatorStatusRow {
  id: string;
  organizationId: string;
  network: string;
  /** The SS58 stash address. */
  account: string;
  createdAt: Date;
  latest: ValidatorLatest | null;
  error: { message: string; at: Date } | null;
}

const StatusDbRow = z
  .object({
    id: z.string(),
    organization_id: z.string(),
    network: z.string(),
    account: z.string(),
    created_at: dbDate,
    observed_at: dbDateOrNull,
    source: z.string().nullable(),
    head_block: dbNumberOrNull,
    active_era: dbNumberOrNull,
    era_progress: dbNumberOrNull,
    status: z.enum(VALIDATOR_STATUSES).nullable(),
    left_set_at: dbDateOrNull,
    era_points: dbNumberOrNull,
    median_points: dbNumberOrNull,
    set_size: dbNumberOrNull,
    commission_ppb: dbNumberOrNull,
    blocked: z.boolean().nullable(),
    session_keys: z.string().nullable(),
    keys_on_node: z.boolean().nullable(),
    keys_node: z.string().nullable(),
    pending_payout_eras: z.array(dbNumber).nullable(),
    pending_payout_planck: z.union([z.string(), z.number()]).nullable(),
    payouts_checked_era: dbNumberOrNull,
    scanned_block: dbNumberOrNull,
    error: z.string().nullable(),
    error_at: dbDateOrNull,
  })
  .transform((r): ValidatorStatusRow => {
    const latest: ValidatorLatest | null =
      r.observed_at === null || r.head_block === null || r.status === null
        ? null
        : {
            observedAt: r.observed_at,
            source: r.source ?? "",
            headBlock: r.head_block,
            activeEra: r.active_era ?? 0,
            eraProgress: r.era_progress ?? 0,
            status: r.status,
            leftSetAt: r.left_set_at,
            eraPoints: r.era_points ?? 0,
            medianPoints: r.median_points ?? 0,
            setSize: r.set_size ?? 0,
            commissionPpb: r.commission_ppb,
            blocked: r.blocked,
            sessionKeys: r.session_keys,
            keysOnNode: r.keys_on_node,
            keysNode: r.keys_node,
            pendingPayoutEras: r.pending_payout_eras ?? [],
            pendingPayoutPlanck: String(r.pending_payout_planck ?? "0"),
            payoutsCheckedEra: r.payouts_checked_era,
            scannedBlock: r.scanned_block,
          };
    return {
      id: r.id,
      organizationId: r.organization_id,
      network: r.network,
      account: r.account,
      createdAt: r.created_at,
      latest,
      error: r.error !== null && r.error_at !== null ? { message: r.error, at: r.error_at } : null,
    };
  });

/** Validators of some organizations (or all, for the worker) with their latest reading. */
export async function listValidatorStatuses(
  sql: SqlClient,
  params: { organizationIds?: readonly string[]; ids?: readonly string[] } = {},
): Promise<ValidatorStatusRow[]> {
  const { rows } = await sql.query(
    `SELECT p.id::text AS id, p.organization_id, nw.slug AS network, p.account, p.created_at,
            l.observed_at, l.source, l.head_block, l.active_era, l.era_progress, l.status, l.left_set_at,
            l.era_points, l.median_points, l.set_size, l.commission_ppb, l.blocked, l.session_keys,
            l.keys_on_node, l.keys_node, l.pending_payout_eras, l.pending_payout_planck::text AS pending_payout_planck,
            l.payouts_checked_era, l.scanned_block, l.error, l.error_at
     FROM producers p
     JOIN networks nw ON nw.id = p.network_id
     LEFT JOIN validator_latest l ON l.producer_id = p.id
     WHERE p.kind = 'validator'
       AND ($1::text[] IS NULL OR p.organization_id = ANY($1::text[]))
       AND ($2::uuid[] IS NULL OR p.id = ANY($2::uuid[]))
     ORDER BY nw.slug, p.account, p.organization_id
     LIMIT 10000`,
    [params.organizationIds ? [...params.organizationIds] : null, params.ids ? [...params.ids] : null],
  );
  return rows.map((r) => StatusDbRow.parse(r));
}

export interface ValidatorOfflineReportRow {
  producerId: string;
  block: number;
  detectedAt: Date;
  era: number;
}

const OfflineDbRow = z
  .object({ producer_id: z.string(), block: dbNumber, detected_at: dbDate, era: dbNumber })
  .transform((r): ValidatorOfflineReportRow => ({
    producerId: r.producer_id,
    block: r.block,
    detectedAt: r.detected_at,
    era: r.era,
  }));

/** Offline reports detected since `since`, newest first, at most `limit` per validator. */
export async function listValidatorOfflineReports(
  sql: SqlClient,
  params: { producerIds: readonly string[]; since: Date; limit?: number },
): Promise<ValidatorOfflineReportRow[]> {
  if (params.producerIds.length === 0) return [];
  const { rows } = await sql.query(
    `SELECT producer_id::text, block, detected_at, era FROM (
       SELECT o.*, row_number() OVER (PARTITION BY producer_id ORDER BY detected_at DESC, block DESC) AS rn
       FROM validator_offline_reports o
       WHERE producer_id = ANY($1::uuid[]) AND detected_at >= $2) x
     WHERE rn <= $3 ORDER BY detected_at DESC, block DESC`,
    [[...params.producerIds], params.since, params.limit ?? 20],
  );
  return rows.map((r) => OfflineDbRow.parse(r));
}

export interface ValidatorHistoryPoint {
  bucket: Date;
  era: number;
  eraPoints: number;
  medianPoints: number;
  inActiveSet: boolean;
}

const HistoryRow = z
  .object({ bucket: dbDate, era: dbNumber, era_points: dbNumber, median_points: dbNumber, in_active_set: z.boolean() })
  .transform((r): ValidatorHistoryPoint => ({
    bucket: r.bucket,
    era: r.era,
    eraPoints: r.era_points,
    medianPoints: r.median_points,
    inActiveSet: r.in_active_set,
  }));

/**
 * Era points and the set's median at the end of each bucket (the last sample in it: points grow
 * through an era and restart at the next), over validator_samples in either storage mode.
 */
export async function readValidatorHistory(
  sql: SqlClient,
  params: { producerId: string; from: Date; to: Date; bucketSeconds: number },
): Promise<ValidatorHistoryPoint[]> {
  const bucket = z.number().int().min(60).max(86_400).parse(params.bucketSeconds);
  const { rows } = await sql.query(
    `SELECT DISTINCT ON (b) b AS bucket, era, era_points, median_points, in_active_set
     FROM (
       SELECT date_bin(make_interval(secs => $4), time, TIMESTAMPTZ '2000-01-01') AS b, time, era, era_points,
              median_points, in_active_set
       FROM validator_samples WHERE producer_id = $1 AND time >= $2 AND time < $3) s
     ORDER BY b, time DESC`,
    [params.producerId, params.from, params.to, bucket],
  );
  return rows.map((r) => HistoryRow.parse(r));
}

/**
 * Public URLs of an organization's own nodes of one API family on a network (the validator's own
 * substrate nodes are asked author_hasSessionKeys; never a directory endpoint).
 */
export async function listOrganizationNodeUrls(
  sql: SqlClient,
  params: { organizationId: string; network: string; family: "substrate" | "sidecar" },
): Promise<Array<{ name: string; url: string }>> {
  const { rows } = await sql.query(
    `SELECT n.name, n.public_url AS url
     FROM nodes n JOIN networks nw ON nw.id = n.network_id
     WHERE n.organization_id = $1 AND nw.slug = $2 AND n.api_family = $3::api_family
       AND n.public_url IS NOT NULL AND n.public_url <> ''
     ORDER BY n.name LIMIT 20`,
    [params.organizationId, params.network, params.family],
  );
  return rows.map((r) => z.object({ name: z.string(), url: z.string() }).parse(r));
}
