-- Block producers, the rest of issue 14 for Hive/Steem witnesses:
-- 1. a status-page component can be a producer (a witness today, a validator later: the component
--    points at producers.id whatever the producer's kind);
-- 2. the exact block(s) of a miss, read from Hive's producer_missed virtual operation;
-- 3. producer_samples retention (timescale.sql: a policy; plain mode: the maintenance job deletes).
-- New enum values are not used in this transaction.

ALTER TYPE "status_component_kind" ADD VALUE IF NOT EXISTS 'producer';

-- The producer a component lists (kind 'producer'); exactly one of node_id / endpoint_id /
-- producer_id is set (checked by the service, like the other two). Deleting the producer deletes
-- its components, as deleting a node or an endpoint does: a component without a target would show
-- nothing. The foreign key is SQL only (Prisma has no model of producers; the schema check skips
-- foreign keys to relations Prisma does not manage).
ALTER TABLE "status_components" ADD COLUMN "producer_id" UUID;
CREATE UNIQUE INDEX "status_components_page_id_producer_id_key" ON "status_components"("page_id", "producer_id");
CREATE INDEX "status_components_producer_id_idx" ON "status_components"("producer_id");
ALTER TABLE "status_components" ADD CONSTRAINT "status_components_producer_id_fkey"
    FOREIGN KEY ("producer_id") REFERENCES producers (id) ON DELETE CASCADE ON UPDATE CASCADE;

-- The exact missed block number(s) of a miss row, from the producer_missed virtual operations in
-- from_block..to_block (account_history_api.enum_virtual_ops). NULL: no source could say (a node
-- without the account-history plugin, Steem, which has no such operation): the range stands.
-- Empty: the source answered and listed none (yet).
ALTER TABLE producer_misses ADD COLUMN missed_blocks bigint[];
