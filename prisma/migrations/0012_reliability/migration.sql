-- Reliability: the delivery outbox. A delivery row is committed first and queued after; queued_at
-- records that the notify job exists, so the worker's sweeper finds rows committed but never
-- queued (a crash between the two steps, Redis down) and queues them (job id = delivery id).
-- DDL as Prisma renders prisma/schema/alerting.prisma (npm run db:check proves they agree).

-- AlterTable
ALTER TABLE "deliveries" ADD COLUMN "queued_at" TIMESTAMPTZ(3);

-- Rows written before the outbox were queued (or marked failed) by the code that wrote them.
UPDATE "deliveries" SET "queued_at" = "created_at";

-- CreateIndex
CREATE INDEX "deliveries_queued_at_created_at_idx" ON "deliveries"("queued_at", "created_at");
