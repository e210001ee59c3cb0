import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbNumber, dbNumberOrNull } from "../sql/row-values.js";

/**
 * The organization's own nodes on a producer's network around a miss (node_samples in a window):
 * worst lag, oldest head, listen overflows summed, lowest free memory share, fewest peers, and the newest
 * sample's lag (is the node in sync now). The producers service tells from these whether the miss coincides
 * with the producing node's trouble and which node could take over signing.
 */
export interface NodeAroundMiss {
  nodeId: string;
  name: string;
  /** ApiFamily of the node (a validator's backup must be a substrate node, not a sidecar). */
  apiFamily?: string;
  samples: number;
  maxLagBlocks: number | null;
  maxHeadAgeMs: number | null;
  listenOverflows: number | null;
  minMemAvailableShare: number | null;
  lastLagBlocks: number | null;
  /** Fewest peers reported in the window (null: not collected). */
  minPeers?: number | null;
}

const Row = z
  .object({
    node_id: z.string(),
    name: z.string(),
    api_family: z.string(),
    samples: dbNumber,
    max_lag: dbNumberOrNull,
    max_head_age: dbNumberOrNull,
    listen_overflows: dbNumberOrNull,
    min_mem_share: dbNumberOrNull,
    last_lag: dbNumberOrNull,
    min_peers: dbNumberOrNull,
  })
  .transform((r): NodeAroundMiss => ({
    nodeId: r.node_id,
    name: r.name,
    apiFamily: r.api_family,
    samples: r.samples,
    maxLagBlocks: r.max_lag,
    maxHeadAgeMs: r.max_head_age,
    listenOverflows: r.listen_overflows,
    minMemAvailableShare: r.min_mem_share,
    lastLagBlocks: r.last_lag,
    minPeers: r.min_peers,
  }));

export async function listNodesAroundMiss(
  sql: SqlClient,
  params: { organizationId: string; network: string; from: Date; to: Date },
): Promise<NodeAroundMiss[]> {
  const { rows } = await sql.query(
    `SELECT n.id::text AS node_id, n.name, n.api_family::text AS api_family, count(s.time) AS samples, max(s.lag_blocks) AS max_lag,
            max(s.head_age_ms) AS max_head_age, sum(s.listen_overflows) AS listen_overflows,
            min(s.mem_available::float8 / nullif(s.mem_total, 0)) AS min_mem_share,
            (array_agg(s.lag_blocks ORDER BY s.time DESC))[1] AS last_lag, min(s.peers) AS min_peers
     FROM nodes n
     JOIN networks nw ON nw.id = n.network_id
     LEFT JOIN node_samples s ON s.node_id = n.id AND s.time BETWEEN $3 AND $4
     WHERE n.organization_id = $1 AND nw.slug = $2
     GROUP BY n.id, n.name, n.api_family
     ORDER BY n.name
     LIMIT 50`,
    [params.organizationId, params.network, params.from, params.to],
  );
  return rows.map((r) => Row.parse(r));
}
