-- Polkadot/Kusama validators (issue 14): an organization's validator stash addresses beside its
-- witnesses in `producers` (kind 'validator', account = the SS58 stash address), what the worker last
-- read through substrate-api-sidecar about each (validator_latest), every im-online offline report it
-- saw (validator_offline_reports) and a history of era points against the active set's median
-- (validator_samples: a hypertable from timescale.sql or a plain table from plain.sql, same columns).
-- Raw SQL only (packages/db/src/producers/validators.ts), no Prisma model, except the enum values.

-- Alert rule types over validators (targets: the organization's producers, as for witnesses).
ALTER TYPE "alert_rule_type" ADD VALUE IF NOT EXISTS 'validator-left-active-set';
ALTER TYPE "alert_rule_type" ADD VALUE IF NOT EXISTS 'validator-low-era-points';
ALTER TYPE "alert_rule_type" ADD VALUE IF NOT EXISTS 'validator-offline-report';

-- A producer is a witness account or a validator stash; each kind keeps its own address rules
-- (SS58: base58 of prefix + 32-byte key + 2-byte checksum, 46-48 characters; the checksum and the
-- network prefix are checked by the service).
ALTER TABLE producers DROP CONSTRAINT producers_kind_check;
ALTER TABLE producers ADD CONSTRAINT producers_kind_check CHECK (kind IN ('witness', 'validator'));
ALTER TABLE producers DROP CONSTRAINT producers_account_check;
ALTER TABLE producers ADD CONSTRAINT producers_account_check CHECK (
    (kind = 'witness' AND account ~ '^[a-z][a-z0-9.-]{2,15}$')
    OR (kind = 'validator' AND account ~ '^[1-9A-HJ-NP-Za-km-z]{46,48}$')
);
CREATE INDEX producers_kind_idx ON producers (kind);

-- The last read of each validator (one row, upserted each round).
CREATE TABLE validator_latest (
    producer_id uuid PRIMARY KEY REFERENCES producers (id) ON DELETE CASCADE,
    observed_at timestamptz NOT NULL,
    -- Which sidecar answered (the organization's own sidecar node or a directory endpoint).
    source text NOT NULL,
    -- Block the staking reads were made at (sidecar's `at.height`, the finalized head).
    head_block bigint NOT NULL,
    active_era integer NOT NULL,
    -- Share of the active era elapsed, 0..1 (from the era's start and nextActiveEraEstimate).
    era_progress real NOT NULL CHECK (era_progress >= 0 AND era_progress <= 1),
    -- 'active': in the session's validator set; 'waiting': intends to validate, not elected;
    -- 'inactive': no validator preferences on chain (chilled or never validated).
    status text NOT NULL CHECK (status IN ('active', 'waiting', 'inactive')),
    -- When the stash was last seen leaving the active set (kept until it is back in).
    left_set_at timestamptz,
    era_points integer NOT NULL CHECK (era_points >= 0),
    -- Median era points of the active set this era (validators without points count as 0).
    median_points double precision NOT NULL CHECK (median_points >= 0),
    set_size integer NOT NULL CHECK (set_size >= 0),
    -- Commission in parts per billion (Perbill); null when the stash has no validator preferences.
    commission_ppb bigint CHECK (commission_ppb BETWEEN 0 AND 1000000000),
    blocked boolean,
    -- On-chain next session keys (session.nextKeys) concatenated as hex; null when none are set.
    session_keys text,
    -- author_hasSessionKeys on the organization's own nodes: true/false, null when no node answered.
    keys_on_node boolean,
    keys_node text,
    -- Eras with an unclaimed payout for this stash, and their sum in planck (staking-payouts).
    pending_payout_eras integer[] NOT NULL DEFAULT '{}',
    pending_payout_planck numeric(40, 0) NOT NULL DEFAULT 0,
    payouts_checked_era integer,
    -- Blocks scanned for imOnline.SomeOffline events up to (and including) this one.
    scanned_block bigint,
    error text,
    error_at timestamptz
);

-- Every offline report seen (an imOnline.SomeOffline event naming the stash), one per block.
CREATE TABLE validator_offline_reports (
    producer_id uuid NOT NULL REFERENCES producers (id) ON DELETE CASCADE,
    block bigint NOT NULL,
    detected_at timestamptz NOT NULL,
    era integer NOT NULL,
    PRIMARY KEY (producer_id, block)
);
CREATE INDEX validator_offline_reports_time_idx ON validator_offline_reports (producer_id, detected_at DESC);

-- History shape (real table in timescale.sql / plain.sql).
CREATE TABLE _shape_validator_samples (
    time timestamptz NOT NULL,
    producer_id uuid NOT NULL,
    era integer NOT NULL,
    era_progress real NOT NULL,
    era_points integer NOT NULL,
    median_points double precision NOT NULL,
    in_active_set boolean NOT NULL,
    PRIMARY KEY (producer_id, time)
);
