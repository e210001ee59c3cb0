import { databaseEnv, loggingEnv } from "@rpcpulse/config";
import { z } from "zod";

/** The migrate runner's environment (cli.ts); its own module so the configuration reference can read it. */
export const migrateEnvShape = {
  ...databaseEnv,
  ...loggingEnv,
  MIGRATIONS_DIR: z
    .string()
    .min(1)
    .optional()
    .describe("Folder of the SQL migrations (default: prisma/migrations of this checkout; the image sets its copy)."),
};
