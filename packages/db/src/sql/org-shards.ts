import { z } from "zod";
import type { SqlClient } from "./sql-client.js";

/**
 * Sweeps (alert evaluation, advisor, status-page uptime) split into `count` shards by organization:
 * an organization belongs to shard (hashtext(organization id) & 0x7fffffff) % count, computed by
 * PostgreSQL so every query of every sweep agrees. Each shard is its own BullMQ job, so worker
 * replicas take different shards at once and one shard runs on one replica at a time (job lock).
 */
export const OrgShard = z
  .object({ index: z.number().int().min(0), count: z.number().int().min(1).max(1_024) })
  .refine((s) => s.index < s.count, { message: "shard index must be below the shard count" });
export type OrgShard = z.infer<typeof OrgShard>;

/**
 * SQL condition: `column` (an organization id) is in the shard given by the two parameters, or
 * always true when the count parameter is NULL (the whole sweep in one run).
 */
export function orgShardCondition(column: string, indexParam: string, countParam: string): string {
  return `(${countParam}::int IS NULL OR (hashtext(${column}) & 2147483647) % ${countParam}::int = ${indexParam}::int)`;
}

/** Parameters for orgShardCondition: [index, count], or [null, null] for no sharding. */
export function orgShardParams(shard: OrgShard | undefined): [number | null, number | null] {
  if (!shard) return [null, null];
  const s = OrgShard.parse(shard);
  return [s.index, s.count];
}

/** Ids of the organizations in `shard` (all of them without one). */
export async function listOrganizationIdsInShard(sql: SqlClient, shard: OrgShard | undefined): Promise<Set<string>> {
  const { rows } = await sql.query(
    `SELECT id FROM organizations WHERE ${orgShardCondition("id", "$1", "$2")}`,
    orgShardParams(shard),
  );
  return new Set((rows as { id: string }[]).map((r) => r.id));
}
