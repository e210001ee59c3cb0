// Breaks sql-only-in-db: Prisma's runtime package.
export { PrismaClient } from "@prisma/client";
