import { summarizeDirectoryNetworks } from "@rpcpulse/db/directory";
import { type SqlClient } from "@rpcpulse/db/sql";
import { getNetworkHead } from "./network-head.js";
import type { ChainsResponse } from "./schemas.js";

/** Every network of the catalogue with its endpoint counts, newest ranking time and consensus head. */
export async function listDirectoryChains(deps: { sql: SqlClient; now?: () => Date }): Promise<ChainsResponse> {
  const rows = await summarizeDirectoryNetworks(deps.sql);
  const heads = await Promise.all(
    rows.map((r) => (r.total > 0 ? getNetworkHead(deps, { network: r.network }).catch(() => null) : null)),
  );
  return {
    chains: rows.map((r, i) => ({
      network: r.network,
      chain: r.chain,
      name: r.name,
      families: r.families,
      endpoints: { total: r.total, active: r.active, probation: r.probation, dead: r.dead },
      updatedAt: r.updatedAt?.toISOString() ?? null,
      head: heads[i] ?? null,
    })),
  };
}
