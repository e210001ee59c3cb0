-- Public endpoint directory: latest capability check per endpoint and the ranking snapshot.
-- DDL as Prisma renders prisma/schema/directory.prisma (npm run db:check proves they agree).

-- CreateTable
CREATE TABLE "endpoint_capabilities" (
    "endpoint_id" UUID NOT NULL,
    "checked_at" TIMESTAMPTZ(3) NOT NULL,
    "archive" BOOLEAN,
    "methods" JSONB NOT NULL DEFAULT '{}',
    "coverage" DOUBLE PRECISION,
    "batch" BOOLEAN,
    "logs_max_range" INTEGER,
    "websocket" BOOLEAN,
    "ws_url" TEXT,
    "ws_new_head_ms" DOUBLE PRECISION,
    "cors" BOOLEAN,
    "client_version" TEXT,
    "report" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "endpoint_capabilities_pkey" PRIMARY KEY ("endpoint_id")
);

-- CreateTable
CREATE TABLE "endpoint_rankings" (
    "network" TEXT NOT NULL,
    "window" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "rank" INTEGER NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "status" TEXT NOT NULL,
    "samples" INTEGER NOT NULL,
    "ok_samples" INTEGER NOT NULL,
    "p50_ms" DOUBLE PRECISION,
    "p95_ms" DOUBLE PRECISION,
    "lag_blocks" DOUBLE PRECISION,
    "availability" DOUBLE PRECISION,
    "head_regressions" INTEGER NOT NULL DEFAULT 0,
    "components" JSONB NOT NULL DEFAULT '{}',
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "endpoint_rankings_pkey" PRIMARY KEY ("network","window","region","endpoint_id")
);

-- CreateIndex
CREATE INDEX "endpoint_rankings_network_window_region_rank_idx" ON "endpoint_rankings"("network", "window", "region", "rank");

-- CreateIndex
CREATE INDEX "endpoint_rankings_endpoint_id_idx" ON "endpoint_rankings"("endpoint_id");

-- AddForeignKey
ALTER TABLE "endpoint_capabilities" ADD CONSTRAINT "endpoint_capabilities_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "public_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "endpoint_rankings" ADD CONSTRAINT "endpoint_rankings_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "public_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;
