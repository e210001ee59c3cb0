// Breaks sql-only-in-db: the generated Prisma client, reached by relative path.
export { PrismaClient } from "../../db/src/generated/client/index.js";
