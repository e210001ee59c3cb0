/**
 * Rows most integration tests need before their own: an organization and its nodes, written with plain
 * SQL so they work on any SqlClient (a TestDatabase, its pool, or the PGlite of a Timescale test).
 * Exported through `@rpcpulse/db/testing`.
 */
import { randomBytes } from "node:crypto";
import type { ApiFamily } from "@rpcpulse/domain";
import type { SqlClient } from "./sql/sql-client.js";

/** Anything with a `query` (a pool, PGlite), or a test database holding one as `sql`. */
export type TestSql = SqlClient | { sql: SqlClient };

function sqlOf(db: TestSql): SqlClient {
  return "query" in db ? db : db.sql;
}

export interface TestOrgOptions {
  /** Default `org_<12 hex>`. */
  id?: string;
  /** Default: the id. */
  name?: string;
  /** Default: the id. */
  slug?: string;
}

export interface TestOrg {
  id: string;
  name: string;
  slug: string;
}

/** One organization (no members); returns its id, name and slug. */
export async function createTestOrg(db: TestSql, options: TestOrgOptions = {}): Promise<TestOrg> {
  const id = options.id ?? `org_${randomBytes(6).toString("hex")}`;
  const org = { id, name: options.name ?? id, slug: options.slug ?? id };
  await sqlOf(db).query("INSERT INTO organizations (id, name, slug) VALUES ($1, $2, $3)", [org.id, org.name, org.slug]);
  return org;
}

export interface TestNodeOptions {
  organizationId: string;
  /** Default: a random uuid. */
  id?: string;
  /** Network by slug (default "hive"), or by id. */
  network?: string;
  networkId?: string;
  /** Default "hive". */
  apiFamily?: ApiFamily;
  /** Default "hived". */
  clientName?: string;
  clientVersion?: string | null;
  /** Default `node-<8 hex>` (names are unique within an organization). */
  name?: string;
  /** Default http://127.0.0.1:8091. */
  localRpcUrl?: string;
  publicUrl?: string | null;
  region?: string | null;
  lastSeenAt?: Date | null;
  /** The agent version ingest records with the first push; default null (never reported). */
  agentVersion?: string | null;
  /** Default: now. */
  createdAt?: Date;
}

export interface TestNode {
  id: string;
  networkId: string;
  name: string;
}

/** One node of an organization, as enrolment would write it but without a token. */
export async function createTestNode(db: TestSql, options: TestNodeOptions): Promise<TestNode> {
  const network = options.network ?? "hive";
  const name = options.name ?? `node-${randomBytes(4).toString("hex")}`;
  const { rows } = await sqlOf(db).query(
    `INSERT INTO nodes (id, organization_id, network_id, api_family, client_name, client_version, name,
                        local_rpc_url, public_url, region, last_seen_at, created_at, agent_version)
     SELECT COALESCE($1::uuid, gen_random_uuid()), $2, n.id, $4::api_family, $5, $6, $7, $8, $9, $10,
            $11::timestamptz, COALESCE($12::timestamptz, now()), $14::text
     FROM networks n WHERE n.id = COALESCE($3::uuid, (SELECT id FROM networks WHERE slug = $13))
     RETURNING id, network_id`,
    [
      options.id ?? null,
      options.organizationId,
      options.networkId ?? null,
      options.apiFamily ?? "hive",
      options.clientName ?? "hived",
      options.clientVersion ?? null,
      name,
      options.localRpcUrl ?? "http://127.0.0.1:8091",
      options.publicUrl ?? null,
      options.region ?? null,
      options.lastSeenAt ?? null,
      options.createdAt ?? null,
      network,
      options.agentVersion ?? null,
    ],
  );
  const row = rows[0] as { id: string; network_id: string } | undefined;
  if (!row) throw new Error(`createTestNode: no network ${options.networkId ?? network}`);
  return { id: row.id, networkId: row.network_id, name };
}
