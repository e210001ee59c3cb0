import { AppError } from "@rpcpulse/config";
import { findOrganizationOwner } from "@rpcpulse/db/orgs";
import { type PrismaClient, type SqlClient } from "@rpcpulse/db/sql";
import type { ServiceContext } from "../context.js";
import { registerProducer } from "./register-producer.js";

/**
 * Demo only: the demo organization watches the witnesses simnet's demo config puts in trouble (misses
 * every 20 minutes, a feed 30 h old) plus a healthy one per network, and the demo config's Polkadot
 * validators (one offline, one healthy), so the fleet page shows both states.
 * Idempotent: a witness already registered is kept.
 */
export async function seedDemoProducers(
  deps: { prisma: PrismaClient; sql: SqlClient },
  input: { organizationSlug: string; witnesses: ReadonlyArray<{ network: string; account: string }> },
): Promise<string[]> {
  const owner = await findOrganizationOwner(deps.prisma, input.organizationSlug);
  if (!owner) throw new AppError("NOT_FOUND", `Organization ${input.organizationSlug} does not exist yet.`);
  const ctx: ServiceContext = { ...owner, role: "owner" };
  const seeded: string[] = [];
  for (const w of input.witnesses) {
    const view = await registerProducer({ sql: deps.sql }, ctx, w);
    seeded.push(`${view.account}@${view.network}`);
  }
  return seeded;
}
