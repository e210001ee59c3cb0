-- Per-minute freshness of each directory endpoint as the ranking job measures it from RPC Pulse's own
-- (server) probes: lag against the consensus head projected to each probe's time, and head age
-- (packages/prober rank/freshness.ts). `probes` counts the successful server probes of the minute,
-- `lagging` those past the chain's lag or head-age limits, `stale` those whose head also stopped.
-- A minute with at least half of its probes lagging is a lagging minute: status-page uptime counts it
-- as degraded (served, old data, as for nodes), the directory's 30-day uptime as not up.
-- Written for the recent minutes on every ranking run, pruned after 35 days; not a foreign key, like
-- the other time series.
CREATE TABLE endpoint_freshness_minutes (
    endpoint_id uuid NOT NULL,
    bucket timestamptz NOT NULL,
    probes smallint NOT NULL CHECK (probes >= 0),
    lagging smallint NOT NULL CHECK (lagging >= 0 AND lagging <= probes),
    stale smallint NOT NULL CHECK (stale >= 0 AND stale <= lagging),
    PRIMARY KEY (endpoint_id, bucket)
);
CREATE INDEX endpoint_freshness_minutes_bucket_idx ON endpoint_freshness_minutes (bucket);
