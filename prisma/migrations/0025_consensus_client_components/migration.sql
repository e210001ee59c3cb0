-- Ethereum consensus clients on status pages (issue 14): a component of kind 'consensus_client' lists
-- the consensus client the agent reads beside an Ethereum node of the organization (node_beacon_latest,
-- beacon_samples; migration 0021). The readings are per node, so the component points at the node,
-- in its own column: a page may list the execution node (node_id) and its consensus client side by side.
-- New enum values are not used in this transaction.

ALTER TYPE "status_component_kind" ADD VALUE IF NOT EXISTS 'consensus_client';

-- The node whose consensus client a component lists (kind 'consensus_client'); exactly one of node_id /
-- endpoint_id / producer_id / beacon_node_id is set (checked by the service). Deleting the node deletes
-- the component, as for node_id.
ALTER TABLE "status_components" ADD COLUMN "beacon_node_id" UUID;
CREATE UNIQUE INDEX "status_components_page_id_beacon_node_id_key" ON "status_components"("page_id", "beacon_node_id");
CREATE INDEX "status_components_beacon_node_id_idx" ON "status_components"("beacon_node_id");
ALTER TABLE "status_components" ADD CONSTRAINT "status_components_beacon_node_id_fkey"
    FOREIGN KEY ("beacon_node_id") REFERENCES "nodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The uptime cache is per (ref, day) of one kind: a node's own days and its consensus client's days share
-- the node id as ref_id. ref_id stays first so the per-ref reads keep using the key.
ALTER TABLE "status_uptime_days" DROP CONSTRAINT "status_uptime_days_pkey";
ALTER TABLE "status_uptime_days" ADD CONSTRAINT "status_uptime_days_pkey" PRIMARY KEY ("ref_id", "day", "kind");
