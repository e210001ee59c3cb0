// Prisma config used only by `npm run db:diff` / `db:check` (see src/migrate/prisma-diff.ts):
// the JavaScript schema engine (WebAssembly, no downloaded binary) over the pg driver adapter.
// `prisma migrate diff --from-empty` opens a connection but never writes; it is pointed at the
// server's maintenance database. The root prisma.config.ts stays the one for `prisma generate`.
import { PrismaPg } from "@prisma/adapter-pg";
import { databaseEnv, loadEnvOrExit } from "@rpcpulse/config";
import { defineConfig } from "prisma/config";

const env = loadEnvOrExit({ DATABASE_URL: databaseEnv.DATABASE_URL }, "prisma-diff.config");
const maintenance = new URL(env.DATABASE_URL);
maintenance.pathname = "/postgres";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "../../prisma/schema",
  async adapter() {
    return new PrismaPg({ connectionString: maintenance.toString() });
  },
});
