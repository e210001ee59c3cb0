import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/client/index.js";

export { Prisma, PrismaClient } from "../generated/client/index.js";

/**
 * Prisma Client over the `pg` driver adapter: no native query engine is needed at run time.
 * One client per process; `createPrismaClient` for tests that need their own database.
 */
export function createPrismaClient(databaseUrl: string): PrismaClient {
  const adapter = new PrismaPg({ connectionString: databaseUrl });
  return new PrismaClient({ adapter });
}
