-- Alerting: rules, per-target state, event history, notification channels, routing and the
-- delivery log. DDL as Prisma renders prisma/schema/alerting.prisma (npm run db:check proves they agree).

-- CreateEnum
CREATE TYPE "alert_rule_type" AS ENUM ('node-down', 'lag', 'head-age', 'endpoint-down', 'latency-p95', 'port-exhaustion', 'connection-flood', 'suggestion');

-- CreateEnum
CREATE TYPE "alert_target_kind" AS ENUM ('node', 'endpoint', 'org-nodes');

-- CreateEnum
CREATE TYPE "alert_status" AS ENUM ('ok', 'pending', 'degraded', 'firing');

-- CreateEnum
CREATE TYPE "alert_channel_type" AS ENUM ('email', 'webhook', 'slack', 'discord', 'telegram');

-- CreateEnum
CREATE TYPE "delivery_status" AS ENUM ('queued', 'retrying', 'sent', 'failed');

-- CreateTable
CREATE TABLE "alert_rules" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" "alert_rule_type" NOT NULL,
    "target_kind" "alert_target_kind" NOT NULL,
    "node_id" UUID,
    "endpoint_id" UUID,
    "params" JSONB NOT NULL DEFAULT '{}',
    "for_seconds" INTEGER NOT NULL DEFAULT 120,
    "resolve_for_seconds" INTEGER NOT NULL DEFAULT 120,
    "renotify_minutes" INTEGER NOT NULL DEFAULT 0,
    "notify_resolved" BOOLEAN NOT NULL DEFAULT true,
    "open_incidents" BOOLEAN NOT NULL DEFAULT true,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_rule_channels" (
    "rule_id" UUID NOT NULL,
    "channel_id" UUID NOT NULL,

    CONSTRAINT "alert_rule_channels_pkey" PRIMARY KEY ("rule_id","channel_id")
);

-- CreateTable
CREATE TABLE "alert_states" (
    "rule_id" UUID NOT NULL,
    "target_key" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "target_name" TEXT NOT NULL,
    "status" "alert_status" NOT NULL DEFAULT 'ok',
    "since" TIMESTAMPTZ(3) NOT NULL,
    "breach_since" TIMESTAMPTZ(3),
    "firing_since" TIMESTAMPTZ(3),
    "clear_since" TIMESTAMPTZ(3),
    "last_value" DOUBLE PRECISION,
    "summary" TEXT NOT NULL DEFAULT '',
    "last_notified_at" TIMESTAMPTZ(3),
    "dedup_key" TEXT,
    "silenced" BOOLEAN NOT NULL DEFAULT false,
    "evaluated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "alert_states_pkey" PRIMARY KEY ("rule_id","target_key")
);

-- CreateTable
CREATE TABLE "alert_events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" TEXT NOT NULL,
    "rule_id" UUID NOT NULL,
    "target_key" TEXT NOT NULL,
    "target_name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "from_status" "alert_status" NOT NULL,
    "to_status" "alert_status" NOT NULL,
    "value" DOUBLE PRECISION,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "dedup_key" TEXT NOT NULL,
    "silenced" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_channels" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" "alert_channel_type" NOT NULL,
    "config_enc" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_channels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "deliveries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" TEXT,
    "channel_id" UUID,
    "event_id" UUID,
    "purpose" TEXT NOT NULL,
    "channel_type" "alert_channel_type" NOT NULL,
    "target" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "secret_enc" TEXT,
    "status" "delivery_status" NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "response_code" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_attempt_at" TIMESTAMPTZ(3),
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "alert_rules_organization_id_name_idx" ON "alert_rules"("organization_id", "name");

-- CreateIndex
CREATE INDEX "alert_rules_enabled_idx" ON "alert_rules"("enabled");

-- CreateIndex
CREATE INDEX "alert_rules_node_id_idx" ON "alert_rules"("node_id");

-- CreateIndex
CREATE INDEX "alert_rules_endpoint_id_idx" ON "alert_rules"("endpoint_id");

-- CreateIndex
CREATE INDEX "alert_rule_channels_channel_id_idx" ON "alert_rule_channels"("channel_id");

-- CreateIndex
CREATE INDEX "alert_states_organization_id_status_idx" ON "alert_states"("organization_id", "status");

-- CreateIndex
CREATE INDEX "alert_events_organization_id_created_at_idx" ON "alert_events"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "alert_events_rule_id_created_at_idx" ON "alert_events"("rule_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "alert_channels_organization_id_name_key" ON "alert_channels"("organization_id", "name");

-- CreateIndex
CREATE INDEX "deliveries_organization_id_created_at_idx" ON "deliveries"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "deliveries_channel_id_created_at_idx" ON "deliveries"("channel_id", "created_at");

-- CreateIndex
CREATE INDEX "deliveries_event_id_idx" ON "deliveries"("event_id");

-- AddForeignKey
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_node_id_fkey" FOREIGN KEY ("node_id") REFERENCES "nodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "public_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_rule_channels" ADD CONSTRAINT "alert_rule_channels_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "alert_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_rule_channels" ADD CONSTRAINT "alert_rule_channels_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "alert_channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_states" ADD CONSTRAINT "alert_states_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "alert_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "alert_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_channels" ADD CONSTRAINT "alert_channels_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "alert_channels"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "alert_events"("id") ON DELETE SET NULL ON UPDATE CASCADE;
