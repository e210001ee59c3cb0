-- Status pages, components, incidents, maintenance windows, subscribers and the per-day uptime
-- cache. DDL as Prisma renders prisma/schema/status.prisma (npm run db:check proves they agree).

-- CreateEnum
CREATE TYPE "status_component_kind" AS ENUM ('node', 'endpoint');

-- CreateEnum
CREATE TYPE "incident_status" AS ENUM ('investigating', 'identified', 'monitoring', 'resolved');

-- CreateEnum
CREATE TYPE "incident_impact" AS ENUM ('none', 'minor', 'major', 'critical');

-- CreateEnum
CREATE TYPE "status_subscriber_kind" AS ENUM ('email', 'webhook');

-- CreateTable
CREATE TABLE "status_pages" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "custom_domain" TEXT,
    "domain_verify_token" TEXT,
    "domain_verified_at" TIMESTAMPTZ(3),
    "is_public" BOOLEAN NOT NULL DEFAULT false,
    "accent_color" TEXT NOT NULL DEFAULT '#2563eb',
    "theme" TEXT NOT NULL DEFAULT 'auto',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "status_pages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "status_groups" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "page_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "status_groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "status_components" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "page_id" UUID NOT NULL,
    "group_id" UUID,
    "kind" "status_component_kind" NOT NULL,
    "node_id" UUID,
    "endpoint_id" UUID,
    "display_name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "status_components_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "incidents" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" TEXT NOT NULL,
    "page_id" UUID,
    "title" TEXT NOT NULL,
    "status" "incident_status" NOT NULL DEFAULT 'investigating',
    "impact" "incident_impact" NOT NULL DEFAULT 'minor',
    "auto" BOOLEAN NOT NULL DEFAULT false,
    "alert_key" TEXT,
    "component_ref" UUID,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "incidents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "incident_components" (
    "incident_id" UUID NOT NULL,
    "component_id" UUID NOT NULL,

    CONSTRAINT "incident_components_pkey" PRIMARY KEY ("incident_id","component_id")
);

-- CreateTable
CREATE TABLE "incident_updates" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "incident_id" UUID NOT NULL,
    "status" "incident_status" NOT NULL,
    "body" TEXT NOT NULL,
    "body_html" TEXT NOT NULL,
    "author_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "incident_updates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "maintenance_windows" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" TEXT NOT NULL,
    "page_id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL DEFAULT '',
    "body_html" TEXT NOT NULL DEFAULT '',
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "maintenance_windows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "maintenance_components" (
    "window_id" UUID NOT NULL,
    "component_id" UUID NOT NULL,

    CONSTRAINT "maintenance_components_pkey" PRIMARY KEY ("window_id","component_id")
);

-- CreateTable
CREATE TABLE "status_subscribers" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "page_id" UUID NOT NULL,
    "kind" "status_subscriber_kind" NOT NULL,
    "target" TEXT NOT NULL,
    "webhook_secret" TEXT,
    "confirm_token_hash" TEXT,
    "confirmed_at" TIMESTAMPTZ(3),
    "unsubscribe_token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "status_subscribers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "status_uptime_days" (
    "kind" "status_component_kind" NOT NULL,
    "ref_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "measured_minutes" INTEGER NOT NULL,
    "up_minutes" INTEGER NOT NULL,
    "degraded_minutes" INTEGER NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "status_uptime_days_pkey" PRIMARY KEY ("ref_id","day")
);

-- CreateIndex
CREATE UNIQUE INDEX "status_pages_slug_key" ON "status_pages"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "status_pages_custom_domain_key" ON "status_pages"("custom_domain");

-- CreateIndex
CREATE INDEX "status_pages_organization_id_idx" ON "status_pages"("organization_id");

-- CreateIndex
CREATE INDEX "status_groups_page_id_position_idx" ON "status_groups"("page_id", "position");

-- CreateIndex
CREATE INDEX "status_components_node_id_idx" ON "status_components"("node_id");

-- CreateIndex
CREATE INDEX "status_components_endpoint_id_idx" ON "status_components"("endpoint_id");

-- CreateIndex
CREATE UNIQUE INDEX "status_components_page_id_node_id_key" ON "status_components"("page_id", "node_id");

-- CreateIndex
CREATE UNIQUE INDEX "status_components_page_id_endpoint_id_key" ON "status_components"("page_id", "endpoint_id");

-- CreateIndex
CREATE INDEX "incidents_organization_id_alert_key_idx" ON "incidents"("organization_id", "alert_key");

-- CreateIndex
CREATE INDEX "incidents_organization_id_started_at_idx" ON "incidents"("organization_id", "started_at");

-- CreateIndex
CREATE INDEX "incidents_page_id_started_at_idx" ON "incidents"("page_id", "started_at");

-- CreateIndex
CREATE INDEX "incident_components_component_id_idx" ON "incident_components"("component_id");

-- CreateIndex
CREATE INDEX "incident_updates_incident_id_created_at_idx" ON "incident_updates"("incident_id", "created_at");

-- CreateIndex
CREATE INDEX "maintenance_windows_page_id_starts_at_idx" ON "maintenance_windows"("page_id", "starts_at");

-- CreateIndex
CREATE INDEX "maintenance_windows_organization_id_ends_at_idx" ON "maintenance_windows"("organization_id", "ends_at");

-- CreateIndex
CREATE INDEX "maintenance_components_component_id_idx" ON "maintenance_components"("component_id");

-- CreateIndex
CREATE UNIQUE INDEX "status_subscribers_confirm_token_hash_key" ON "status_subscribers"("confirm_token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "status_subscribers_unsubscribe_token_hash_key" ON "status_subscribers"("unsubscribe_token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "status_subscribers_page_id_kind_target_key" ON "status_subscribers"("page_id", "kind", "target");

-- AddForeignKey
ALTER TABLE "status_pages" ADD CONSTRAINT "status_pages_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "status_groups" ADD CONSTRAINT "status_groups_page_id_fkey" FOREIGN KEY ("page_id") REFERENCES "status_pages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "status_components" ADD CONSTRAINT "status_components_page_id_fkey" FOREIGN KEY ("page_id") REFERENCES "status_pages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "status_components" ADD CONSTRAINT "status_components_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "status_groups"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "status_components" ADD CONSTRAINT "status_components_node_id_fkey" FOREIGN KEY ("node_id") REFERENCES "nodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "status_components" ADD CONSTRAINT "status_components_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "public_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_page_id_fkey" FOREIGN KEY ("page_id") REFERENCES "status_pages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "incident_components" ADD CONSTRAINT "incident_components_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incidents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "incident_components" ADD CONSTRAINT "incident_components_component_id_fkey" FOREIGN KEY ("component_id") REFERENCES "status_components"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "incident_updates" ADD CONSTRAINT "incident_updates_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incidents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "maintenance_windows" ADD CONSTRAINT "maintenance_windows_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "maintenance_windows" ADD CONSTRAINT "maintenance_windows_page_id_fkey" FOREIGN KEY ("page_id") REFERENCES "status_pages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "maintenance_components" ADD CONSTRAINT "maintenance_components_window_id_fkey" FOREIGN KEY ("window_id") REFERENCES "maintenance_windows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "maintenance_components" ADD CONSTRAINT "maintenance_components_component_id_fkey" FOREIGN KEY ("component_id") REFERENCES "status_components"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "status_subscribers" ADD CONSTRAINT "status_subscribers_page_id_fkey" FOREIGN KEY ("page_id") REFERENCES "status_pages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
