-- The consensus head of each network, as the worker decides it (packages/domain consensus-head.ts):
-- one row per decision (about every 10 s per network). Every lag in RPC Pulse is measured against
-- it: ingest reads it to compute node_samples.lag_blocks, the directory ranks against it, Grafana
-- charts it. `anchor_time` is when `head_block` was (estimated to be) produced, so a reader projects
-- the head to any instant: head_block + floor((t - anchor_time) / block interval).
-- `evidence` lists the sources considered (bounded by the writer) so pages can show how it was decided.
-- Not a foreign key to networks: like the other time series, rows outlive nothing and are pruned by age.
CREATE TABLE network_heads (
    network_id uuid NOT NULL,
    time timestamptz NOT NULL,
    anchor_time timestamptz NOT NULL,
    head_block bigint NOT NULL CHECK (head_block >= 0),
    considered smallint NOT NULL CHECK (considered >= 0),
    agreeing smallint NOT NULL CHECK (agreeing >= 0),
    quorum smallint NOT NULL CHECK (quorum >= 1),
    evidence jsonb NOT NULL DEFAULT '[]'::jsonb,
    PRIMARY KEY (network_id, time)
);
CREATE INDEX network_heads_time_idx ON network_heads (time);
