-- Block producers (issue 14): an organization's Hive/Steem witness accounts (and, later, validator
-- stashes), what the worker last read about each from the chain, every miss it saw, and a history of
-- misses and feed age (producer_samples: created by timescale.sql as a hypertable or by plain.sql as
-- a plain table, same columns). Same SQL in both storage modes otherwise. Raw SQL only
-- (packages/db/src/producers), no Prisma model, except the enum values added to Prisma's enums.

-- Alert rule types over producers and the target kind "every producer of the organization".
-- New enum values are not used in this transaction.
ALTER TYPE "alert_rule_type" ADD VALUE IF NOT EXISTS 'witness-missed-block';
ALTER TYPE "alert_rule_type" ADD VALUE IF NOT EXISTS 'witness-feed-stale';
ALTER TYPE "alert_rule_type" ADD VALUE IF NOT EXISTS 'witness-key-changed';
ALTER TYPE "alert_rule_type" ADD VALUE IF NOT EXISTS 'witness-version-behind';
ALTER TYPE "alert_target_kind" ADD VALUE IF NOT EXISTS 'org-producers';

-- A producer an organization watches: a witness account on a Hive/Steem network.
CREATE TABLE producers (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    network_id uuid NOT NULL REFERENCES networks (id) ON DELETE RESTRICT,
    kind text NOT NULL CHECK (kind IN ('witness')),
    -- Witness account name (Hive/Steem account rules: 3-16 of a-z 0-9 . -).
    account text NOT NULL CHECK (account ~ '^[a-z][a-z0-9.-]{2,15}$'),
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (organization_id, network_id, account)
);
CREATE INDEX producers_network_idx ON producers (network_id);

-- What the last read of the chain said about each producer (one row, upserted each round). The
-- previous signing key is kept when it changes so the change can be alerted and shown.
CREATE TABLE producer_latest (
    producer_id uuid PRIMARY KEY REFERENCES producers (id) ON DELETE CASCADE,
    observed_at timestamptz NOT NULL,
    -- Which endpoint answered (directory endpoint or the organization's own node URL).
    source text NOT NULL,
    head_block bigint NOT NULL,
    total_missed bigint NOT NULL,
    last_confirmed_block bigint NOT NULL,
    signing_key text NOT NULL,
    disabled boolean NOT NULL,
    key_changed_at timestamptz,
    previous_signing_key text,
    running_version text NOT NULL,
    hardfork_vote text NOT NULL,
    majority_version text,
    feed_base text,
    feed_quote text,
    feed_updated_at timestamptz,
    votes text NOT NULL,
    rank integer,
    in_schedule boolean NOT NULL,
    -- The last failed read (every source failed), kept until a read succeeds.
    error text,
    error_at timestamptz
);

-- Every miss seen: total_missed grew between two reads. The miss happened in a block after
-- from_block (head of the read before) and at or before to_block (head of the read that saw it):
-- reads every few blocks make that a narrow range. count > 1 when several misses fell between reads.
CREATE TABLE producer_misses (
    producer_id uuid NOT NULL REFERENCES producers (id) ON DELETE CASCADE,
    detected_at timestamptz NOT NULL,
    from_block bigint NOT NULL,
    to_block bigint NOT NULL CHECK (to_block >= from_block),
    count integer NOT NULL CHECK (count > 0),
    total_missed bigint NOT NULL,
    PRIMARY KEY (producer_id, total_missed)
);
CREATE INDEX producer_misses_time_idx ON producer_misses (producer_id, detected_at DESC);

-- History shape (real table in timescale.sql / plain.sql).
CREATE TABLE _shape_producer_samples (
    time timestamptz NOT NULL,
    producer_id uuid NOT NULL,
    total_missed bigint NOT NULL,
    last_confirmed_block bigint NOT NULL,
    head_block bigint NOT NULL,
    feed_age_s integer,
    rank integer,
    PRIMARY KEY (producer_id, time)
);
