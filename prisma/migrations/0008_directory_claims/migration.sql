-- Claims of public endpoints by organizations (DNS TXT record or the organization's agent).
-- DDL as Prisma renders prisma/schema/directory-claims.prisma (npm run db:check proves they agree).

-- CreateTable
CREATE TABLE "endpoint_claims" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "endpoint_id" UUID NOT NULL,
    "organization_id" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "verified_method" TEXT,
    "verified_at" TIMESTAMPTZ(3),
    "last_checked_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "node_id" UUID,

    CONSTRAINT "endpoint_claims_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "endpoint_claims_token_key" ON "endpoint_claims"("token");

-- CreateIndex
CREATE INDEX "endpoint_claims_organization_id_idx" ON "endpoint_claims"("organization_id");

-- CreateIndex
CREATE INDEX "endpoint_claims_node_id_idx" ON "endpoint_claims"("node_id");

-- CreateIndex
CREATE UNIQUE INDEX "endpoint_claims_endpoint_id_organization_id_key" ON "endpoint_claims"("endpoint_id", "organization_id");

-- AddForeignKey
ALTER TABLE "endpoint_claims" ADD CONSTRAINT "endpoint_claims_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "public_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "endpoint_claims" ADD CONSTRAINT "endpoint_claims_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "endpoint_claims" ADD CONSTRAINT "endpoint_claims_node_id_fkey" FOREIGN KEY ("node_id") REFERENCES "nodes"("id") ON DELETE SET NULL ON UPDATE CASCADE;
