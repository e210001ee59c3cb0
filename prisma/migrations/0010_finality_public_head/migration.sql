-- Finality lag and public head vs node head (issue 10).
-- DDL as Prisma renders prisma/schema/public-head.prisma and the two new AlertRuleType values
-- (npm run db:check proves they agree). No time-series change: finality lag is head_block -
-- finalized_block, both already in node_samples and (as per-bucket maxima) in the rollups.

-- Alert rule types: the finalized block stopped while the head moves; the node's public URL serves
-- a head behind the node's own (or fails). New enum values are not used in this transaction.
ALTER TYPE "alert_rule_type" ADD VALUE IF NOT EXISTS 'finality-stalled';
ALTER TYPE "alert_rule_type" ADD VALUE IF NOT EXISTS 'public-head-behind';

-- The latest probe of each node's public URL by the worker (one row per node, upserted). The
-- head_* columns keep the newest head the URL served successfully, so they survive a failing check;
-- node_head_block is the node's own head (its agent's newest sample) when the check ran.
-- CreateTable
CREATE TABLE "node_public_heads" (
    "node_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "checked_at" TIMESTAMPTZ(3) NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "latency_ms" DOUBLE PRECISION,
    "http_status" INTEGER,
    "error_class" TEXT,
    "error_message" TEXT,
    "failing_since" TIMESTAMPTZ(3),
    "ok_at" TIMESTAMPTZ(3),
    "head_block" BIGINT,
    "head_time" TIMESTAMPTZ(3),
    "finalized_block" BIGINT,
    "node_head_block" BIGINT,
    "node_sample_time" TIMESTAMPTZ(3),

    CONSTRAINT "node_public_heads_pkey" PRIMARY KEY ("node_id")
);

-- AddForeignKey
ALTER TABLE "node_public_heads" ADD CONSTRAINT "node_public_heads_node_id_fkey" FOREIGN KEY ("node_id") REFERENCES "nodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
