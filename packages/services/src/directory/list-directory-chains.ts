import { summarizeDirectoryNetworks, type SqlClient } from "@rpcpulse/db";
import type { ChainsResponse } from "./schemas.js";

/** Every network of the catalogue with its endpoint counts and newest ranking time. */
export async function listDirectoryChains(deps: { sql: SqlClient }): Promise<ChainsResponse> {
  const rows = await summarizeDirectoryNetworks(deps.sql);
  return {
    chains: rows.map((r) => ({
      network: r.network,
      chain: r.chain,
      name: r.name,
      families: r.families,
      endpoints: { total: r.total, active: r.active, probation: r.probation, dead: r.dead },
      updatedAt: r.updatedAt?.toISOString() ?? null,
    })),
  };
}
