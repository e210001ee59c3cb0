// Stand-in for the client `prisma generate` writes here (ignored by eslint and prettier like the real one).
export class PrismaClient {}
