-- Ethereum consensus clients (issue 14): what the agent reads from the Beacon API beside an Ethereum
-- node (wire group `beacon`, --beacon-url), with history. beacon_samples holds one row per agent sample
-- that carried the group (a hypertable from timescale.sql or a plain table from plain.sql, same
-- columns); node_beacon_latest the newest reading per node (the fleet, the node page and the alerts read
-- it with one primary-key lookup per node). Raw SQL only (packages/db/src/beacon), no Prisma model,
-- except the enum value added to Prisma's enum.

-- Slots the consensus client's head is behind the wall-clock slot (new enum values are not used in
-- this transaction).
ALTER TYPE "alert_rule_type" ADD VALUE IF NOT EXISTS 'consensus-client-behind';

-- How the beacon node's head execution block compares with the execution node's own head, read in the
-- same agent sample (see packages/services/src/ingest/normalise-beacon.ts for the reasoning):
--   match          same block number, same hash: consistent with this beacon node driving this EL
--   hash-mismatch  same number, different hash: it follows another chain or fork than this EL
--   el-ahead       this EL's head is past the beacon node's head execution block: another consensus
--                  client drives this EL (an EL only moves its head on its own CL's forkchoiceUpdated)
--   el-offline     the beacon node says its EL is offline while this EL answers: it does not reach
--                  this EL (engine URL or JWT secret)
-- NULL: not comparable in that sample (no data, or heights one block apart, or the EL syncing behind).

-- History shape (real table in timescale.sql / plain.sql). Column order: 8-byte, 4-byte, 1-byte.
CREATE TABLE _shape_beacon_samples (
    time timestamptz NOT NULL,
    node_id uuid NOT NULL,
    head_slot bigint,
    wall_slot bigint,
    -- The beacon head's execution payload block number (blinded block header).
    exec_block bigint,
    slots_behind integer,
    sync_distance integer,
    peers integer,
    ok boolean NOT NULL,
    syncing boolean,
    optimistic boolean,
    el_offline boolean,
    el_check text CHECK (el_check IN ('match', 'hash-mismatch', 'el-ahead', 'el-offline')),
    PRIMARY KEY (node_id, time)
);

-- Newest reading per node (upserted by the ingest flush, newer sample wins). Not a foreign key to
-- nodes, like node_latest (ingest must not fail on a node deleted mid-batch); storage maintenance
-- removes rows of deleted nodes. last_ok_* keep the last successful read while the beacon node fails.
CREATE TABLE node_beacon_latest (
    node_id uuid PRIMARY KEY,
    time timestamptz NOT NULL,
    ok boolean NOT NULL,
    head_slot bigint,
    wall_slot bigint,
    slots_behind integer,
    sync_distance integer,
    syncing boolean,
    optimistic boolean,
    el_offline boolean,
    peers integer,
    version text,
    exec_block bigint,
    exec_hash text,
    -- This node's own execution head in the same sample (what el_check compared with).
    el_block bigint,
    el_check text CHECK (el_check IN ('match', 'hash-mismatch', 'el-ahead', 'el-offline')),
    -- Newest sample whose el_check was not NULL, and what it said.
    el_check_at timestamptz,
    error text,
    last_ok_at timestamptz,
    last_head_slot bigint
);
