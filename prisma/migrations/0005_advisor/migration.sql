-- Tuning advisor: suggestions per node with their lifecycle history, the node settings the agent
-- last reported, and the advisor sweep's per-node cursor.
-- DDL as Prisma renders prisma/schema/advisor.prisma (npm run db:check proves they agree).

-- CreateEnum
CREATE TYPE "suggestion_kind" AS ENUM ('change', 'explanation', 'obsolete-setting');

-- CreateEnum
CREATE TYPE "suggestion_severity" AS ENUM ('info', 'low', 'medium', 'high', 'critical');

-- CreateEnum
CREATE TYPE "suggestion_state" AS ENUM ('open', 'acknowledged', 'applied', 'verified', 'not_effective', 'closed', 'dismissed', 'auto_closed');

-- CreateEnum
CREATE TYPE "suggestion_applied_by" AS ENUM ('operator', 'agent');

-- CreateTable
CREATE TABLE "suggestions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" TEXT NOT NULL,
    "node_id" UUID NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "rule_id" TEXT NOT NULL,
    "kind" "suggestion_kind" NOT NULL,
    "severity" "suggestion_severity" NOT NULL,
    "impact" DOUBLE PRECISION NOT NULL,
    "title" TEXT NOT NULL,
    "draft" JSONB NOT NULL,
    "state" "suggestion_state" NOT NULL DEFAULT 'open',
    "dismiss_reason" TEXT,
    "opened_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "condition_cleared_since" TIMESTAMPTZ(3),
    "state_changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "applied_at" TIMESTAMPTZ(3),
    "applied_by" "suggestion_applied_by",
    "applied_by_user_id" TEXT,
    "verified_at" TIMESTAMPTZ(3),
    "verification" JSONB,
    "verification_checked_at" TIMESTAMPTZ(3),
    "reopen_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "suggestions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "suggestion_events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "suggestion_id" UUID NOT NULL,
    "from_state" "suggestion_state",
    "to_state" "suggestion_state" NOT NULL,
    "actor" TEXT NOT NULL,
    "reason" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "suggestion_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "node_reported_settings" (
    "node_id" UUID NOT NULL,
    "settings" JSONB NOT NULL,
    "reported_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "node_reported_settings_pkey" PRIMARY KEY ("node_id")
);

-- CreateTable
CREATE TABLE "advisor_node_cursors" (
    "node_id" UUID NOT NULL,
    "evaluated_up_to" TIMESTAMPTZ(3) NOT NULL,
    "evaluated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "advisor_node_cursors_pkey" PRIMARY KEY ("node_id")
);

-- CreateIndex
CREATE INDEX "suggestions_organization_id_state_impact_idx" ON "suggestions"("organization_id", "state", "impact");

-- CreateIndex
CREATE INDEX "suggestions_state_applied_at_idx" ON "suggestions"("state", "applied_at");

-- CreateIndex
CREATE UNIQUE INDEX "suggestions_node_id_fingerprint_key" ON "suggestions"("node_id", "fingerprint");

-- CreateIndex
CREATE INDEX "suggestion_events_suggestion_id_at_idx" ON "suggestion_events"("suggestion_id", "at");

-- AddForeignKey
ALTER TABLE "suggestions" ADD CONSTRAINT "suggestions_node_id_fkey" FOREIGN KEY ("node_id") REFERENCES "nodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "suggestion_events" ADD CONSTRAINT "suggestion_events_suggestion_id_fkey" FOREIGN KEY ("suggestion_id") REFERENCES "suggestions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "node_reported_settings" ADD CONSTRAINT "node_reported_settings_node_id_fkey" FOREIGN KEY ("node_id") REFERENCES "nodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "advisor_node_cursors" ADD CONSTRAINT "advisor_node_cursors_node_id_fkey" FOREIGN KEY ("node_id") REFERENCES "nodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
